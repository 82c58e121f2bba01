/* SPDX-License-Identifier: GPL-2.0-only */
/* ember script's state: the options, and what the run learns about the file's events. */
#ifndef EMBER_SCRIPT_SCRIPT_H
#define EMBER_SCRIPT_SCRIPT_H

#include <stdbool.h>
#include <stdint.h>
#include <ember/ember.h>
#include <ember/event.h>
#include <ember/session.h>
#include "script/fields.h"
#include "script/filter.h"
#include "script/outbuf.h"
#include "script/per-event.h"
#include "script/print.h"

struct script_opts {
	const char *input;
	bool force, dump, dump_unsorted, header, header_only, show_info;
	bool hide_call_graph, nanosecs, reltime, deltatime, latency;
	bool show_task, show_mmap, show_switch, show_lost, show_namespace, show_cgroup;
	bool show_bpf, show_text_poke, show_round;
	bool demangle;
	bool full_source_path, inline_frames, show_kernel_path, per_event_dump;
	int verbose;
	unsigned int max_stack;
	const char *cpu_list, *comms, *pids, *tids, *dsos, *syms, *time_str;
	const char *symfs, *kallsyms, *vmlinux, *stop_bt;
};

/* One event of the file, as the printer needs it. */
struct script_event {
	const struct ember_data_attr *attr;
	const char *name;
	char *owned_name;		/* when the file gives none */
};

struct script {
	struct script_opts o;
	struct script_fields fields;

	struct ember_session *session;
	struct ember_data_reader *reader;
	struct ember_machine *machine;
	const char *dump_name;		/* after '@' in -D output: the path, or "pipe" */
	bool pipe;

	struct script_printer pr;
	struct script_filter filter;
	struct outbuf out;
	struct str_list stop_bt;
	struct script_dump *dumps;	/* --per-event-dump: one per event */
	uint32_t nr_dumps;

	struct script_event *events;
	struct script_event_info *infos;
	uint32_t nr_events;
	uint32_t nr_attr_records;	/* pipe mode: HEADER_ATTR records seen */
	bool width_done;
	bool trace_tried;
	int err;			/* a failure inside a callback, already reported */
};

/* Learn the events the reader knows by now (all in file mode; pipe mode grows). 0 or -ENOMEM. */
int script__sync_events(struct script *sc);
/* The reader's records through the printer (ember_session__process and its callbacks). */
int script__run(struct script *sc);

#endif
