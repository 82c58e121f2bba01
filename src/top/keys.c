// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf top --stdio's quitting key: on a terminal, standard input is made
 * quiet (no echo, no line editing) while top runs, and q or Q ends it, as
 * perf's display thread takes them. Other keys are read and ignored
 * (perf opens its menu of settings there; ember top has none yet).
 */
#include <poll.h>
#include <unistd.h>
#include "top/top.h"

void top_keys__start(struct top_keys *k)
{
	struct termios quiet;

	k->on = isatty(STDIN_FILENO) && !tcgetattr(STDIN_FILENO, &k->saved);
	if (!k->on)
		return;
	quiet = k->saved;
	quiet.c_lflag &= ~(ICANON | ECHO);
	quiet.c_cc[VMIN] = 1;
	quiet.c_cc[VTIME] = 0;
	k->on = !tcsetattr(STDIN_FILENO, TCSANOW, &quiet);
}

void top_keys__stop(struct top_keys *k)
{
	if (k->on)
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &k->saved);
	k->on = false;
}

bool top_keys__quit(struct top_keys *k)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	char c;

	while (k->on && poll(&p, 1, 0) > 0) {
		if (read(STDIN_FILENO, &c, 1) != 1) {
			k->on = false;	/* the terminal is gone: no more keys */
			return false;
		}
		if (c == 'q' || c == 'Q')
			return true;
	}
	return false;
}
