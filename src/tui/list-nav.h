/* SPDX-License-Identifier: GPL-2.0-only */
/* perf's moves over a list of rows on screen (ui_browser__run()'s), for every browser. */
#ifndef EMBER_TUI_LIST_NAV_H
#define EMBER_TUI_LIST_NAV_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Up, Down, PgUp, PgDn (and space), Home, End over nr rows, `rows` of
 * them shown: index is the current row, top the first one shown. Returns
 * whether key is one of them (nothing moves in an empty list).
 */
bool tui_list__move(int key, size_t nr, size_t rows, size_t *index, size_t *top);

#endif
