/* SPDX-License-Identifier: GPL-2.0-only */
/* The events ember record opens: the default one, the tracking dummy, their attrs, fallbacks. */
#ifndef EMBER_RECORD_EVENTS_H
#define EMBER_RECORD_EVENTS_H

#include "record/record.h"

/*
 * Complete rec->evlist (the -e events, or perf's default "cycles" when
 * none was given; a dummy tracking event for -a/-C) and configure every
 * attr as perf 6.1's evlist__config() does for record: sample type, period
 * or frequency, callchains, the tracking bits on one event, disabled and
 * enable_on_exec, ID or IDENTIFIER when several events share the buffers.
 * Sets rec->tracking. Returns 0 or an exit code (message printed).
 */
int record_events__setup(struct record *rec);

/*
 * After an open failure (err a -errno) of evsel, apply perf's fallback if
 * one fits: cycles → cpu-clock when there is no hardware PMU, exclude the
 * kernel when perf_event_paranoid forbids it. Renames the evsel as perf
 * would. Returns true when the attr changed and the open should be retried.
 */
bool record_events__fallback(struct record *rec, struct ember_evsel *evsel, int err);

#endif
