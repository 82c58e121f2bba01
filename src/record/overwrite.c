// SPDX-License-Identifier: GPL-2.0-only
/*
 * --overwrite and the per-event "overwrite" term: backward ring buffers
 * (write_backward, mapped read-only) the kernel keeps overwriting with the
 * newest records, read once at the end or on SIGUSR2, as perf's overwrite
 * mode: a flight recorder of the last -m pages per cpu.
 */
#include <errno.h>
#include "record/overwrite.h"

int record_overwrite__snapshot(struct record *rec)
{
	return 0;
}
