/* SPDX-License-Identifier: GPL-2.0-only */
/* Backward (overwrite) ring buffers: the newest records, read at the end or on SIGUSR2. */
#ifndef EMBER_RECORD_OVERWRITE_H
#define EMBER_RECORD_OVERWRITE_H

#include "record/record.h"

/*
 * Copy what every backward buffer holds now (pausing the kernel's writes
 * meanwhile) to the output, oldest record first. 0, or 1 after a write error.
 */
int record_overwrite__snapshot(struct record *rec);

#endif
