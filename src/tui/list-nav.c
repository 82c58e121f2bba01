// SPDX-License-Identifier: GPL-2.0-only
/* perf's moves over a list of rows on screen (ui_browser__run()'s), for every browser. */
#include <ncursesw/curses.h>
#include "tui/list-nav.h"

bool tui_list__move(int key, size_t nr, size_t rows, size_t *index, size_t *top)
{
	size_t offset;

	switch (key) {
	case KEY_DOWN:
	case KEY_UP:
	case KEY_NPAGE:
	case ' ':
	case KEY_PPAGE:
	case KEY_HOME:
	case KEY_END:
		break;
	default:
		return false;
	}
	if (!nr)
		return true;
	switch (key) {
	case KEY_DOWN:
		if (*index + 1 < nr)
			(*index)++;
		break;
	case KEY_UP:
		if (*index)
			(*index)--;
		break;
	case KEY_NPAGE:
	case ' ':
		if (*top + rows > nr - 1)
			break;
		offset = *index + rows > nr - 1 ? nr - 1 - *index : rows;
		*index += offset;
		*top += offset;
		break;
	case KEY_PPAGE:
		offset = *top < rows ? *top : rows;
		*index -= offset;
		*top -= offset;
		break;
	case KEY_HOME:
		*index = *top = 0;
		break;
	case KEY_END:
		offset = rows ? rows - 1 : 0;
		if (offset >= nr)
			offset = nr - 1;
		*index = nr - 1;
		*top = *index - offset;
		break;
	}
	return true;
}
