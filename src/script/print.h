/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The lines of perf script 6.1, column for column:
 *
 *         comm   tid [cpu]      time:     period event:  ip sym+off (dso)
 *
 * with the callchain form (comm unpadded, one "\t ip sym+off (dso)" line
 * per frame and a blank line after the chain), tracepoint fields, and the
 * prefix perf puts before side-band records (--show-task-events ...).
 */
#ifndef EMBER_SCRIPT_PRINT_H
#define EMBER_SCRIPT_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <ember/perf-data.h>
#include <ember/machine.h>
#include "script/fields.h"
#include "script/outbuf.h"

struct ember_trace;
struct script_srclines;

struct script_printer {
	const struct script_fields *fields;
	bool use_callchain;		/* callchains printed (some event has them, no -G) */
	bool nanosecs;			/* --ns */
	bool reltime, deltatime;	/* --reltime, --deltatime */
	bool latency;			/* -L: perf's latency layout of comm and cpu */
	bool tod_disabled;		/* -F tod without clock data (a pipe): "disabled" */
	unsigned int max_stack;		/* frames per chain (--max-stack) */
	int name_width;			/* of the event column: longest event name */
	const char *const *stop_bt;	/* --stop-bt symbols, NULL-terminated (or NULL) */
	struct ember_trace *trace;	/* tracepoint formats, NULL without */
	struct script_srclines *srclines;	/* -F srcline's lookups, NULL without */
	uint64_t initial_time, previous_time;	/* --reltime, --deltatime state */
};

/* One sample to print, resolved. */
struct script_sample {
	uint32_t attr_type;
	uint64_t sample_type;
	const char *evname;
	const struct ember_sample *s;
	const char *comm;			/* the thread's comm (":-1" without thread) */
	const struct ember_addr_location *al;	/* s->ip resolved */
	const struct ember_addr_location *chain;	/* resolved frames */
	int nr_chain;
	/*
	 * chain is cut to --max-stack already, as perf cuts it: a
	 * --call-graph dwarf sample's user ip comes on top of max_stack
	 * kernel frames (ember_session__callchain_max()).
	 */
	bool chain_limited;
	uint64_t period;			/* s->period, or the attr's fixed period */
	uint16_t record_type;			/* PERF_RECORD_SAMPLE, or the side-band type */
};

/* True when a sample of this event is printed in the callchain layout. */
static inline bool script_printer__chain_layout(const struct script_printer *p, uint64_t fields,
						uint64_t sample_type)
{
	return (fields & SF_IP) && (sample_type & PERF_SAMPLE_CALLCHAIN) && p->use_callchain;
}

/* comm, pid/tid, [cpu], misc, time: what perf prints before every line. */
void script_print__start(struct script_printer *p, struct outbuf *ob, const struct script_sample *ss,
			 uint64_t fields);
/* A whole sample: its line, and its callchain lines when printed. */
void script_print__sample(struct script_printer *p, struct outbuf *ob,
			  const struct script_sample *ss);
/* "sec.usec" (or "sec.nsec" with ns) as perf prints times, without padding. */
void script_print__time(struct outbuf *ob, uint64_t t, bool ns);

#endif
