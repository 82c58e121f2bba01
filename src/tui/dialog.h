/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The small windows perf's browsers open over the screen: a boxed text
 * (help, a message), a yes/no question, a one-line input, and the full
 * screen menu of choices (the context menu, the events).
 */
#ifndef EMBER_TUI_DIALOG_H
#define EMBER_TUI_DIALOG_H

#include <stdbool.h>
#include <stddef.h>

/* Keys as the browsers see them: ncurses' KEY_* and these. */
#define TUI_KEY_ESC 27
#define TUI_KEY_CTRL_C 3
#define TUI_KEY_TAB '\t'
#define TUI_KEY_ENTER_CR '\r'
#define TUI_KEY_ENTER_LF '\n'

/* Reads a key, waiting at most timeout_ms (-1: forever); -1 on timeout. */
int tui_dialog__key(int timeout_ms);
/* Whether key is Enter (the terminal's CR, LF, or the keypad's). */
bool tui_dialog__is_enter(int key);

/*
 * Shows text (lines split at '\n') boxed, titled, centred, then the
 * line "Press any key..." when wait; returns the key that closed it.
 */
int tui_dialog__text(const char *title, const char *text, bool wait);
/* Asks question; true for Enter, false for ESC (perf's "Enter: Yes, ESC: No"). */
bool tui_dialog__yesno(const char *question);
/*
 * A boxed one-line input under text: buf (size bytes) holds the
 * initial value and the answer. true when Enter took it, false on ESC.
 */
bool tui_dialog__input(const char *title, const char *text, char *buf, size_t size);
/*
 * A full-screen menu of nr items (perf's ui_browser__popup_menu): the
 * index chosen with Enter or Right, -1 when left with ESC or Left, -2
 * with q or ^C.
 */
int tui_dialog__menu(const char *title, const char *const *items, int nr, const char *helpline);

#endif
