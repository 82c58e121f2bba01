/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --per-event-dump: each event's samples go to "INPUT.EVENT.dump" instead
 * of stdout, and at the end perf says what it wrote, one line per event.
 */
#ifndef EMBER_SCRIPT_PER_EVENT_H
#define EMBER_SCRIPT_PER_EVENT_H

#include <stdint.h>
#include <stdio.h>
#include "script/outbuf.h"

struct script;

struct script_dump {
	char *path;
	FILE *fp;
	struct outbuf ob;
	uint64_t samples;
};

/* Opens one file per event of the file (file mode); reports failures itself. 0 or -1. */
int script_dumps__open(struct script *sc);
/*
 * Flushes and closes the files and prints perf's "[ perf script: Wrote
 * ... ]" lines on out. Returns -1 after a write error (reported), else 0.
 */
int script_dumps__close(struct script *sc, FILE *out);
/* Frees what script_dumps__open() made (files left as they are). */
void script_dumps__free(struct script *sc);

#endif
