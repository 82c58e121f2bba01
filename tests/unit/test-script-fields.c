// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf script's -F rules, each case checked against perf 6.1 by hand
 * (messages, and which fields end up printed).
 */
#include <stdlib.h>
#include <linux/perf_event.h>
#include "test.h"
#include "script/fields.h"

/* Parse args in turn; returns the first failure and the messages in *msg (freed by caller). */
static int parse(struct script_fields *f, char **msg, const char *const *args)
{
	size_t len = 0;
	FILE *err = open_memstream(msg, &len);
	int ret = 0;

	script_fields__init(f);
	for (; *args && !ret; args++)
		ret = script_fields__parse(f, *args, err);
	fclose(err);
	return ret;
}

#define PARSE(f, msg, ...) parse(f, msg, (const char *const[]){ __VA_ARGS__, NULL })

TEST(script_fields_defaults)
{
	struct script_fields f;

	script_fields__init(&f);
	CHECK_EQ(f.t[SCRIPT_OT_SW].fields, SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVNAME | SF_IP |
						   SF_SYM | SF_SYMOFFSET | SF_DSO | SF_PERIOD |
						   SF_BPF_OUTPUT);
	CHECK_EQ(f.t[SCRIPT_OT_TRACEPOINT].fields,
		 SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVNAME | SF_TRACE);
	CHECK(f.t[SCRIPT_OT_HW].invalid & SF_TRACE);
	CHECK(!(f.t[SCRIPT_OT_TRACEPOINT].invalid & SF_TRACE));
	CHECK_EQ(script_fields__otype(PERF_TYPE_SOFTWARE), SCRIPT_OT_SW);
	CHECK_EQ(script_fields__otype(0x80000000U), SCRIPT_OT_SYNTH);
	CHECK_EQ(script_fields__otype(42), SCRIPT_OT_OTHER);
	CHECK_STR(script_fields__type_name(SCRIPT_OT_HW_CACHE), "hardware-cache");
	CHECK_STR(script_fields__type_name(SCRIPT_OT_RAW), "unknown");
}

TEST(script_fields_lists)
{
	struct script_fields f;
	char *msg = NULL;

	CHECK_EQ(PARSE(&f, &msg, "comm,tid,time"), 0);
	CHECK_EQ(f.t[SCRIPT_OT_SW].fields, SF_COMM | SF_TID | SF_TIME);
	CHECK_EQ(f.t[SCRIPT_OT_TRACEPOINT].fields, SF_COMM | SF_TID | SF_TIME);
	CHECK(f.t[SCRIPT_OT_SW].set_by_user && f.t[SCRIPT_OT_SW].wildcard);
	CHECK_EQ(f.t[SCRIPT_OT_SW].user_set, SF_COMM | SF_TID | SF_TIME);
	CHECK_STR(msg, "");
	free(msg);

	/* trace is invalid for every type but tracepoints: warned, skipped */
	CHECK_EQ(PARSE(&f, &msg, "trace,comm"), 0);
	CHECK_EQ(f.t[SCRIPT_OT_SW].fields, SF_COMM);
	CHECK_EQ(f.t[SCRIPT_OT_TRACEPOINT].fields, SF_TRACE | SF_COMM);
	CHECK(strstr(msg, "'trace' not valid for hardware events. Ignoring.\n"
			  "'trace' not valid for software events. Ignoring.\n"
			  "'trace' not valid for hardware-cache events. Ignoring.\n"
			  "'trace' not valid for unknown events. Ignoring.\n") == msg);
	free(msg);

	CHECK_EQ(PARSE(&f, &msg, "comm", "tid"), 0);
	CHECK(strstr(msg, "Overriding previous field request for all events."));
	CHECK_EQ(f.t[SCRIPT_OT_HW].fields, SF_TID);
	free(msg);
}

TEST(script_fields_typed)
{
	struct script_fields f;
	char *msg = NULL;

	CHECK_EQ(PARSE(&f, &msg, "trace:comm,trace"), 0);
	CHECK_EQ(f.t[SCRIPT_OT_TRACEPOINT].fields, SF_COMM | SF_TRACE);
	CHECK(f.t[SCRIPT_OT_SW].fields & SF_IP);	/* other types keep their defaults */
	CHECK(!f.t[SCRIPT_OT_SW].set_by_user);
	/* typed fields are not "user set": missing data drops them quietly */
	CHECK_EQ(f.t[SCRIPT_OT_TRACEPOINT].user_set, 0);
	free(msg);

	CHECK(PARSE(&f, &msg, "sw:trace") < 0);
	CHECK(strstr(msg, "'trace' not valid for software events.\n"));
	free(msg);

	CHECK(PARSE(&f, &msg, "bogus:comm") < 0);
	CHECK(strstr(msg, "Invalid event type in field string."));
	free(msg);

	CHECK_EQ(PARSE(&f, &msg, "sw:comm", "sw:tid"), 0);
	CHECK(strstr(msg, "Overriding previous field request for software events."));
	CHECK_EQ(f.t[SCRIPT_OT_SW].fields, SF_TID);
	free(msg);

	/* "hw:" names no field: hardware events then print nothing */
	CHECK_EQ(PARSE(&f, &msg, "hw:"), 0);
	CHECK_EQ(f.t[SCRIPT_OT_HW].fields, 0);
	CHECK(f.t[SCRIPT_OT_HW].set_by_user && !f.t[SCRIPT_OT_HW].wildcard);
	free(msg);
}

TEST(script_fields_plus_minus)
{
	struct script_fields f;
	uint64_t def;
	char *msg = NULL;

	script_fields__init(&f);
	def = f.t[SCRIPT_OT_SW].fields;
	CHECK_EQ(PARSE(&f, &msg, "+pid,-ip"), 0);
	CHECK_EQ(f.t[SCRIPT_OT_SW].fields, (def | SF_PID) & ~SF_IP);
	CHECK(f.t[SCRIPT_OT_SW].user_unset & SF_IP);
	CHECK(f.t[SCRIPT_OT_SW].user_set & SF_PID);
	free(msg);

	CHECK(PARSE(&f, &msg, "comm,+tid") < 0);
	CHECK_STR(msg, "ember script: Cannot mix +-field with overridden fields\n");
	free(msg);
	CHECK(PARSE(&f, &msg, "+tid,comm") < 0);
	free(msg);

	/* the '-' in bpf-output keeps the defaults, as in perf */
	CHECK_EQ(PARSE(&f, &msg, "bpf-output"), 0);
	CHECK_EQ(f.t[SCRIPT_OT_SW].fields, def);
	free(msg);

	CHECK_EQ(PARSE(&f, &msg, "+flags"), 0);
	CHECK(f.print_flags);
	free(msg);
}

TEST(script_fields_errors)
{
	struct script_fields f;
	char *msg = NULL;

	CHECK(PARSE(&f, &msg, "foo") < 0);
	CHECK(strstr(msg, "Invalid field requested"));
	free(msg);
	CHECK(PARSE(&f, &msg, "") < 0);
	CHECK(strstr(msg, "Cannot set fields to 'none' for all event types."));
	free(msg);
	CHECK(PARSE(&f, &msg, "comm,,tid") == 0);	/* empty items are skipped */
	free(msg);
	CHECK(PARSE(&f, &msg, "srcline") == 0);	/* printed now */
	CHECK(!(f.unsupported & SF_SRCLINE));
	free(msg);
	CHECK(PARSE(&f, &msg, "ip,srccode") == 0);	/* accepted, not printed yet */
	CHECK(f.unsupported & SF_SRCCODE);
	free(msg);
	CHECK_EQ(script_fields__lookup("machine_pid"), SF_MACHINE_PID);
	CHECK_EQ(script_fields__lookup("flags"), 0);
	CHECK_STR(script_fields__name(SF_SYMOFFSET), "symoff");
}

static int check(struct script_fields *f, const struct script_event_info *ev, uint32_t nr,
		 bool *cc, char **msg)
{
	struct script_file_info info = { .events = ev, .nr_events = nr };
	size_t len = 0;
	FILE *err = open_memstream(msg, &len);
	int ret = script_fields__check(f, &info, cc, err);

	fclose(err);
	return ret;
}

#define ST_BASE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)

TEST(script_fields_check)
{
	struct script_event_info sw = { PERF_TYPE_SOFTWARE, ST_BASE, "cpu-clock:ppp", false };
	struct script_event_info tp = { PERF_TYPE_TRACEPOINT,
					ST_BASE | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW |
						PERF_SAMPLE_CALLCHAIN,
					"sched:sched_switch", false };
	struct script_fields f;
	char *msg = NULL;
	bool cc = true;

	/* defaults: no CPU in the samples, so no cpu column, quietly; no callchains */
	CHECK_EQ(PARSE(&f, &msg, "+pid"), 0);
	free(msg);
	CHECK_EQ(check(&f, &sw, 1, &cc, &msg), 0);
	CHECK(!(f.t[SCRIPT_OT_SW].fields & SF_CPU));
	CHECK(f.t[SCRIPT_OT_SW].fields & SF_PID);
	CHECK(!cc);
	CHECK_STR(msg, "");
	free(msg);

	/* asked for with +: an error, in perf's words */
	CHECK_EQ(PARSE(&f, &msg, "+cpu"), 0);
	free(msg);
	CHECK(check(&f, &sw, 1, &cc, &msg) < 0);
	CHECK_STR(msg, "ember script: Samples for 'cpu-clock:ppp' event do not have CPU attribute "
		       "set. Cannot print 'cpu' field.\n");
	free(msg);

	/* typed: dropped quietly */
	CHECK_EQ(PARSE(&f, &msg, "sw:comm,tid,cpu"), 0);
	free(msg);
	CHECK_EQ(check(&f, &sw, 1, &cc, &msg), 0);
	CHECK_EQ(f.t[SCRIPT_OT_SW].fields, SF_COMM | SF_TID);
	free(msg);

	CHECK_EQ(PARSE(&f, &msg, "symoff,ip"), 0);
	free(msg);
	CHECK(check(&f, &sw, 1, &cc, &msg) < 0);
	CHECK(strstr(msg, "Display of offsets requested but symbol is notselected."));
	free(msg);

	/* tracepoints with callchains get ip, sym, symoff and dso (not after any -F) */
	script_fields__init(&f);
	CHECK_EQ(check(&f, &tp, 1, &cc, &msg), 0);
	CHECK(cc);
	CHECK_EQ(f.t[SCRIPT_OT_TRACEPOINT].fields & (SF_IP | SF_SYM | SF_SYMOFFSET | SF_DSO),
		 SF_IP | SF_SYM | SF_SYMOFFSET | SF_DSO);
	free(msg);

	CHECK_EQ(PARSE(&f, &msg, "hw:comm"), 0);
	free(msg);
	f.t[SCRIPT_OT_HW].wildcard = false;
	CHECK(check(&f, &sw, 1, &cc, &msg) < 0);
	CHECK(strstr(msg, "hardware events do not exist."));
	free(msg);
}

TEST(script_fields_pipe_attrs)
{
	struct script_event_info tp = { PERF_TYPE_TRACEPOINT,
					ST_BASE | PERF_SAMPLE_RAW | PERF_SAMPLE_CALLCHAIN,
					"sched:sched_switch", false };
	struct script_file_info info = { .events = &tp, .nr_events = 0, .pipe = true };
	struct script_fields f;
	bool cc = false;

	script_fields__init(&f);
	CHECK_EQ(script_fields__check(&f, &info, &cc, stderr), 0);
	CHECK(cc);	/* nothing known yet: callchains stay on, as in perf */
	info.nr_events = 1;
	CHECK_EQ(script_fields__attr_arrived(&f, &info, cc, stderr), 0);
	/* perf's pipe mode adds only ip and sym: no offsets, no dso */
	CHECK_EQ(f.t[SCRIPT_OT_TRACEPOINT].fields & (SF_IP | SF_SYM | SF_SYMOFFSET | SF_DSO),
		 SF_IP | SF_SYM);
}
