/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ember record: one recording, made of parts by job, each defined with the
 * stage that owns it in src/record/ (options → events → target → open →
 * output → synthesis → read loop → finish). A stage that works on one part
 * takes only that part; the composing stages (events, open, synthesis,
 * the loop) take the whole. Everything lives in one struct record on
 * cmd_record()'s stack: no global state.
 */
#ifndef EMBER_RECORD_RECORD_H
#define EMBER_RECORD_RECORD_H

#include <ember/event.h>
#include "record/control.h"
#include "record/err.h"
#include "record/loop.h"
#include "record/options.h"
#include "record/output.h"
#include "record/overwrite.h"
#include "record/signals.h"
#include "record/target.h"
#include "record/warmup.h"

/* One recording. */
struct record {
	struct record_opts opts;	/* the command line (options.h) */
	struct ember_evlist *evlist;	/* the events recorded; -e fills it as it is read */
	struct ember_evsel *tracking;	/* the evsel that asks for mmap/comm/task records */
	struct record_target target;	/* what: a command, tasks, cpus (target.h) */
	struct record_output out;	/* where it goes: perf.data or a pipe (output.h) */
	struct record_loop loop;	/* reading the buffers until the end (loop.h) */
	struct record_overwrite ow;	/* backward buffers (overwrite.h) */
	struct record_control ctl;	/* --control (control.h) */
	struct record_signals sig;	/* INT, TERM, HUP end it; CHLD: the command exited */
	struct record_warmup warmup;	/* small buffers: the start-up busy-poll (warmup.h) */
};

#endif
