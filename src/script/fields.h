/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf script's output fields (-F/--fields): which columns each kind of
 * event prints. perf keeps one field set per event type (hardware,
 * software, tracepoint, ...), with defaults that drop what the samples do
 * not carry, and a -F syntax with "type:" prefixes and +field/-field
 * edits; this reproduces perf 6.1's rules and its messages.
 */
#ifndef EMBER_SCRIPT_FIELDS_H
#define EMBER_SCRIPT_FIELDS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The field bits, in perf's order. */
enum script_field {
	SF_COMM = 1ULL << 0,
	SF_TID = 1ULL << 1,
	SF_PID = 1ULL << 2,
	SF_TIME = 1ULL << 3,
	SF_CPU = 1ULL << 4,
	SF_EVNAME = 1ULL << 5,
	SF_TRACE = 1ULL << 6,
	SF_IP = 1ULL << 7,
	SF_SYM = 1ULL << 8,
	SF_DSO = 1ULL << 9,
	SF_ADDR = 1ULL << 10,
	SF_SYMOFFSET = 1ULL << 11,
	SF_SRCLINE = 1ULL << 12,
	SF_PERIOD = 1ULL << 13,
	SF_IREGS = 1ULL << 14,
	SF_BRSTACK = 1ULL << 15,
	SF_BRSTACKSYM = 1ULL << 16,
	SF_DATA_SRC = 1ULL << 17,
	SF_WEIGHT = 1ULL << 18,
	SF_BPF_OUTPUT = 1ULL << 19,
	SF_CALLINDENT = 1ULL << 20,
	SF_INSN = 1ULL << 21,
	SF_INSNLEN = 1ULL << 22,
	SF_BRSTACKINSN = 1ULL << 23,
	SF_BRSTACKOFF = 1ULL << 24,
	SF_SYNTH = 1ULL << 25,
	SF_PHYS_ADDR = 1ULL << 26,
	SF_UREGS = 1ULL << 27,
	SF_METRIC = 1ULL << 28,
	SF_MISC = 1ULL << 29,
	SF_SRCCODE = 1ULL << 30,
	SF_IPC = 1ULL << 31,
	SF_TOD = 1ULL << 32,
	SF_DATA_PAGE_SIZE = 1ULL << 33,
	SF_CODE_PAGE_SIZE = 1ULL << 34,
	SF_INS_LAT = 1ULL << 35,
	SF_BRSTACKINSNLEN = 1ULL << 36,
	SF_MACHINE_PID = 1ULL << 37,
	SF_VCPU = 1ULL << 38,
};

/* Fields perf 6.1 accepts that ember does not print (yet): warned about, then ignored. */
#define SF_UNSUPPORTED                                                                          \
	(SF_SRCCODE | SF_CALLINDENT | SF_INSN | SF_INSNLEN | SF_BRSTACKINSN |     \
	 SF_BRSTACKINSNLEN | SF_SYNTH | SF_METRIC | SF_IPC | SF_TOD | SF_DATA_SRC)

/* The kinds of events that have their own field set (perf's output types). */
enum script_otype {
	SCRIPT_OT_HW,		/* PERF_TYPE_HARDWARE .. PERF_TYPE_BREAKPOINT, */
	SCRIPT_OT_SW,		/* same numbers as the attr types */
	SCRIPT_OT_TRACEPOINT,
	SCRIPT_OT_HW_CACHE,
	SCRIPT_OT_RAW,
	SCRIPT_OT_BREAKPOINT,
	SCRIPT_OT_SYNTH,	/* PERF_TYPE_SYNTH (itrace) */
	SCRIPT_OT_OTHER,	/* dynamic PMUs */
	SCRIPT_OT_MAX,
};

struct script_field_set {
	uint64_t fields;		/* what is printed */
	uint64_t invalid;		/* what this type can never print */
	uint64_t user_set;		/* named with -F (+field or in a list) */
	uint64_t user_unset;		/* removed with -F -field */
	bool set_by_user;		/* -F touched this type */
	bool wildcard;			/* ... through a list without "type:" */
};

struct script_fields {
	struct script_field_set t[SCRIPT_OT_MAX];
	bool print_flags;		/* -F flags (sample flags of itrace events) */
	uint64_t unsupported;		/* unsupported fields asked for, to warn once */
};

/* perf's defaults, before any -F. */
void script_fields__init(struct script_fields *f);

/*
 * Apply one -F argument as perf 6.1 does: "f1,f2" (all types), "type:f1,f2"
 * (hw, sw, trace, raw, break, synth), "+f"/"-f" edits of the defaults.
 * Warnings (overriding, "not valid for X events. Ignoring.") go to err;
 * on a bad argument its one-line message goes to err and -EINVAL is
 * returned.
 */
int script_fields__parse(struct script_fields *f, const char *arg, FILE *err);

/* The output type of an attr type. */
int script_fields__otype(uint32_t attr_type);
/* "hardware", "software", "tracepoint", "hardware-cache", or "unknown", as perf names them. */
const char *script_fields__type_name(int otype);
/* "comm" for SF_COMM; "" when unknown. */
const char *script_fields__name(uint64_t field);
/* A field's bit by name, 0 when unknown ("flags" is not a bit). */
uint64_t script_fields__lookup(const char *name);

/* What the checks need to know about one event of the file. */
struct script_event_info {
	uint32_t type;			/* attr.type */
	uint64_t sample_type;
	const char *name;		/* for messages */
	bool dummy;			/* the "dummy" software event: never checked */
};

struct script_file_info {
	const struct script_event_info *events;
	uint32_t nr_events;
	bool pipe;			/* attrs arrive later: see script_fields__attr_arrived() */
	bool has_stat;			/* HEADER_STAT: perf stat record files skip the checks */
	bool has_auxtrace;		/* HEADER_AUXTRACE: some user fields are allowed anyway */
	bool no_callchain;		/* -G */
};

/*
 * perf's check of the fields against the file (file mode, before the
 * samples): per type, the first event of it decides; defaults the samples
 * cannot fill are dropped silently, user-asked ones fail with perf's
 * message on err (-EINVAL). Sets *use_callchain (callchains are printed
 * when some event records them and -G is not given), and gives tracepoints
 * with callchains their ip/sym/symoff/dso columns.
 */
int script_fields__check(struct script_fields *f, const struct script_file_info *info,
			 bool *use_callchain, FILE *err);

/*
 * Pipe mode: the attrs come as records after the checks. For each new
 * one (events[0..nr) so far, the last is new), what perf's process_attr
 * does: check the first event of a type, and give it ip and sym when
 * the events record callchains.
 */
int script_fields__attr_arrived(struct script_fields *f, const struct script_file_info *info,
				bool use_callchain, FILE *err);

/* Collected field set of an event type, for the printer. */
static inline uint64_t script_fields__of(const struct script_fields *f, uint32_t attr_type)
{
	return f->t[script_fields__otype(attr_type)].fields;
}

#endif
