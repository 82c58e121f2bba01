// SPDX-License-Identifier: GPL-2.0-only
/*
 * ncurses set up as perf's TUI sets up slang: raw keys (so ^C is a key
 * that leaves the browser, as perf's CTRL+C), no echo, no cursor, the
 * keypad's keys decoded, and the terminal restored on every way out.
 * The state is static: a signal handler and atexit() have no context to
 * be given, and ncurses itself holds one screen per process.
 */
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>
#include <ncursesw/curses.h>
#include "tui/screen.h"

static struct {
	SCREEN *scr;
	FILE *tty;
	bool active, color, atexit_set;
} screen;

static const int fatal_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGABRT, SIGBUS,
				     SIGFPE, SIGPIPE };

void tui_screen__exit(void)
{
	size_t i;

	if (!screen.active)
		return;
	screen.active = false;
	endwin();
	for (i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++)
		signal(fatal_signals[i], SIG_DFL);
}

/* The terminal back first, then the signal's own end (a core, status 128+N). */
static void on_fatal_signal(int sig)
{
	tui_screen__exit();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void on_exit_restore(void)
{
	tui_screen__exit();
}

static bool no_color_wanted(void)
{
	const char *nc = getenv("NO_COLOR");

	return nc && *nc;
}

static void init_colors(void)
{
	/* bright white and bright yellow where the terminal has 16 colours, as slang's */
	short white = COLORS >= 16 ? 15 : COLOR_WHITE, yellow = COLORS >= 16 ? 11 : COLOR_YELLOW;

	screen.color = has_colors() && !no_color_wanted() && start_color() == OK;
	if (!screen.color)
		return;
	use_default_colors();
	init_pair(TUI_ROOT, white, COLOR_BLUE);
	init_pair(TUI_SELECTED, COLOR_BLACK, yellow);
	init_pair(TUI_TOP, COLOR_RED, -1);
	init_pair(TUI_MEDIUM, COLOR_GREEN, -1);
	init_pair(TUI_HELPLINE, COLOR_WHITE, COLOR_BLACK);
	init_pair(TUI_ADDR, COLOR_MAGENTA, -1);
	init_pair(TUI_JUMP_ARROWS, COLOR_BLUE, -1);
}

int tui_screen__init(char *why, size_t whysz)
{
	const char *term = getenv("TERM");
	struct sigaction sa = { .sa_handler = on_fatal_signal };
	size_t i;

	if (screen.active)
		return 0;
	if (!term || !*term || !strcmp(term, "dumb")) {
		snprintf(why, whysz, "TERM=%s has no cursor addressing", term ? term : "");
		return -1;
	}
	screen.tty = fopen("/dev/tty", "r+");
	if (!screen.tty) {
		snprintf(why, whysz, "no controlling terminal");
		return -1;
	}
	setlocale(LC_ALL, "");
	screen.scr = newterm(NULL, stdout, screen.tty);
	if (!screen.scr) {
		snprintf(why, whysz, "the terminal '%s' is unknown here", term);
		fclose(screen.tty);
		screen.tty = NULL;
		return -1;
	}
	set_term(screen.scr);
	screen.active = true;
	if (!screen.atexit_set) {
		atexit(on_exit_restore);
		screen.atexit_set = true;
	}
	for (i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++)
		sigaction(fatal_signals[i], &sa, NULL);
	raw();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	/* ESC alone is a key here: wait only briefly for the rest of a sequence */
	set_escdelay(25);
	curs_set(0);
	init_colors();
	return 0;
}

bool tui_screen__has_color(void)
{
	return screen.color;
}

void tui_screen__set_color(enum tui_color c)
{
	if (screen.color) {
		attrset(COLOR_PAIR(c));
		return;
	}
	/* without colours the title, headers and current line are reversed */
	attrset(c == TUI_ROOT || c == TUI_SELECTED ? A_REVERSE : A_NORMAL);
}

int tui_screen__put(const char *s, size_t left, int max)
{
	mbstate_t st;
	int used = 0;

	memset(&st, 0, sizeof(st));
	while (left && *s && used < max) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, s, left, &st);
		int cw;

		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			/* a byte that is no character here: shown as '?' */
			memset(&st, 0, sizeof(st));
			wc = L'?';
			n = 1;
		}
		cw = wcwidth(wc);
		if (cw < 0) {
			wc = L'?';
			cw = 1;
		}
		if (used + cw > max)
			break;
		addnwstr(&wc, 1);
		used += cw;
		s += n;
		left -= n;
	}
	return used;
}

void tui_screen__write(int y, int x, const char *s, int width)
{
	int used;

	move(y, x);
	used = s ? tui_screen__put(s, strlen(s), width) : 0;
	for (; used < width; used++)
		addch(' ');
}
