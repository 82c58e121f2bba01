/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --switch-output-event: events that are not recorded, only watched; each
 * time one fires the output switches, as perf's side-band thread's SIGUSR2
 * does. They are opened system-wide (every online cpu, any task), as perf
 * opens them, and read in the main loop rather than from a thread.
 */
#ifndef EMBER_RECORD_SIDEBAND_H
#define EMBER_RECORD_SIDEBAND_H

#include <stdbool.h>

struct ember_evlist;

/* Open and map sb (NULL: no side-band events). 0 or an exit code (message printed). */
int record_sideband__open(struct ember_evlist *sb);

/* Empty the side-band buffers; true when they held a sample (the output is due to switch). */
bool record_sideband__fired(struct ember_evlist *sb);

/* Unmap and close them. Safe when none were opened. */
void record_sideband__close(struct ember_evlist *sb);

#endif
