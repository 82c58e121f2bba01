/* SPDX-License-Identifier: GPL-2.0-only */
/* ember record's messages: one line each on stderr, for every stage. */
#ifndef EMBER_RECORD_ERR_H
#define EMBER_RECORD_ERR_H

/* Print one line "ember record: ..." on stderr (prefixed, newline added). */
__attribute__((format(printf, 1, 2)))
void record_err(const char *fmt, ...);

#endif
