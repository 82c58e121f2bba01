// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember record's event options: -e (into the list as it is read), --filter
 * and --exclude-perf on the tracepoints of the latest -e,
 * --switch-output-event, and --control's syntax.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ember/event.h>
#include "record/control.h"
#include "record/err.h"
#include "record/options-callbacks.h"
#include "record/options.h"

/* Parse one -e style spec into evlist, explaining a failure. 0 or -1. */
static int parse_into(struct ember_evlist *evlist, const char *arg)
{
	struct ember_parse_error perr = { 0 };
	int err;

	err = ember_evlist__parse_events(evlist, arg, &perr);
	if (err) {
		char buf[2048];

		if (err == -EINVAL || perr.msg) {
			if (!perr.str)
				perr.str = strdup(arg);
			ember_parse_error__snprintf(&perr, 0, buf, sizeof(buf));
			fputs(buf, stderr);
			fputs("Run 'ember list' for a list of valid events\n", stderr);
		} else if (err == -EACCES || err == -EPERM) {
			record_err("cannot use event '%s': permission denied reading the tracing "
				   "directory (/sys/kernel/tracing); run as root", arg);
		} else {
			record_err("cannot use event '%s': %s", arg, strerror(-err));
		}
		ember_parse_error__exit(&perr);
		return -1;
	}
	ember_parse_error__exit(&perr);
	return 0;
}

int record_opt_event(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;
	int before = ember_evlist__nr_entries(o->evlist);
	struct ember_evsel *pos;

	if (unset)
		return 0;
	if (parse_into(o->evlist, arg))
		return -1;
	o->events_given = true;
	/* the first evsel this -e added (NULL when it added none) */
	ember_evlist__for_each(o->evlist, pos)
		if (ember_evsel__idx(pos) == before)
			break;
	o->last_glob = pos;
	return 0;
}

/* --switch-output-event: watched, not recorded; implies --switch-output=signal. */
int record_opt_switch_output_event(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;

	if (unset)
		return 0;
	if (!o->sb_evlist) {
		o->sb_evlist = ember_evlist__new();
		if (!o->sb_evlist) {
			record_err("out of memory");
			return -1;
		}
	}
	if (parse_into(o->sb_evlist, arg))
		return -1;
	o->output.switch_output = o->output.switch_signal = true;
	return 0;
}

int record_opt_control(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;

	if (unset) {
		o->control = NULL;
		return 0;
	}
	if (record_control__check(arg)) {
		record_err("invalid --control '%s': fifo:ctl-fifo[,ack-fifo] or fd:ctl-fd[,ack-fd]",
			   arg);
		return -1;
	}
	o->control = arg;
	return 0;
}

/* --filter applies to every evsel the latest -e added, as perf's foreach_evsel_in_last_glob. */
int record_opt_filter(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;
	struct ember_evsel *pos;

	if (unset)
		return 0;
	if (!o->last_glob) {
		record_err("--filter option should follow a -e tracepoint option");
		return -1;
	}
	for (pos = o->last_glob; pos; pos = ember_evlist__next(o->evlist, pos)) {
		if (!ember_evsel__tracepoint(pos, NULL, NULL)) {
			record_err("--filter option should follow a -e tracepoint option "
				   "('%s' is not a tracepoint; address filters need a hardware "
				   "tracer this machine does not have)", ember_evsel__name(pos));
			return -1;
		}
		if (ember_evsel__set_filter(pos, arg)) {
			record_err("out of memory");
			return -1;
		}
	}
	return 0;
}

/*
 * --exclude-perf: the preceding -e tracepoints skip ember's own events, as
 * perf's (a "common_pid != PID" filter joined to any --filter).
 */
int record_opt_exclude_perf(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;
	struct ember_evsel *pos;

	if (unset)
		return 0;
	if (!o->last_glob) {
		record_err("--exclude-perf option should follow a -e tracepoint option");
		return -1;
	}
	for (pos = o->last_glob; pos; pos = ember_evlist__next(o->evlist, pos)) {
		const char *filter = ember_evsel__filter(pos);
		char *f;
		int n;

		if (!ember_evsel__tracepoint(pos, NULL, NULL)) {
			record_err("--exclude-perf option should follow a -e tracepoint option "
				   "('%s' is not a tracepoint)", ember_evsel__name(pos));
			return -1;
		}
		if (filter)
			n = asprintf(&f, "(%s) && (common_pid != %d)", filter, (int)getpid());
		else
			n = asprintf(&f, "common_pid != %d", (int)getpid());
		if (n < 0 || ember_evsel__set_filter(pos, f)) {
			if (n >= 0)
				free(f);
			record_err("out of memory");
			return -1;
		}
		free(f);
	}
	return 0;
}
