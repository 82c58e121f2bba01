// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember profile: stacks counted in the kernel. A BPF program on a sampling
 * event (cpu-clock at 99 Hz by default) counts samples per (process, user
 * stack, kernel stack) in BPF maps (lib/profile); at the end, or every
 * --interval, the counts are read, symbolised and written as folded
 * stacks, a flame graph SVG (lib/flame) or the hottest stacks as text. No
 * perf.data, no event per sample reaches user space.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ember/event.h>
#include <ember/flame.h>
#include <ember/profile.h>
#include <ember/workload.h>

#include "builtin.h"
#include "core/clock.h"
#include "profile/profile.h"
#include "util/parse-options.h"
#include "util/proc-alive.h"
#include "util/sample-rate.h"
#include "util/stop-signals.h"

#define POLL_MS 100

static const char *const profile_usage[] = {
	"ember profile [<options>] [-- <command> [<args>]]",
	NULL,
};

struct profile_run {
	struct profile_opts *o;
	struct ember_profile *prof;
	struct ember_workload wl;
	bool have_wl;
	pid_t *pids;
	int nr_pids;
	struct stop_signals sig;	/* ^C, kill and the command's end wake the loop */
	bool interrupted;
	unsigned int seq;		/* reads written so far */
	struct ember_profile_stats lost;	/* the last read's since-start counters */
	uint64_t samples, unknown_pids;
};

static int opt_seconds(const struct option *opt, const char *arg, bool unset)
{
	double *v = opt->value;
	char *end;

	errno = 0;
	*v = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(*v) || *v <= 0 || *v > 1e7) {
		fprintf(stderr, "ember profile: --%s expects a positive number of seconds, not '%s'\n",
			opt->long_name, arg);
		return -1;
	}
	return 0;
}

static int opt_output(const struct option *opt, const char *arg, bool unset)
{
	struct profile_opts *o = opt->value;

	if (o->nr_outputs == PROFILE_MAX_OUTPUTS) {
		fprintf(stderr, "ember profile: at most %d outputs (-o)\n", PROFILE_MAX_OUTPUTS);
		return -1;
	}
	o->outputs[o->nr_outputs++] = arg;
	return 0;
}

/* "42,43" into r->pids; each must run now. 0, or an exit code after saying why. */
static int parse_pids(struct profile_run *r, const char *list)
{
	const char *s = list;

	while (*s) {
		char *end;
		long pid;
		pid_t *grown;

		errno = 0;
		pid = strtol(s, &end, 10);
		if (errno || end == s || pid <= 0 || pid > INT32_MAX || (*end && *end != ',')) {
			fprintf(stderr, "ember profile: -p expects process ids like 42,43, not '%s'\n",
				list);
			return 2;
		}
		if (!proc__alive(pid)) {
			fprintf(stderr, "ember profile: no such process: %ld\n", pid);
			return 1;
		}
		grown = realloc(r->pids, (r->nr_pids + 1) * sizeof(*grown));
		if (!grown) {
			fprintf(stderr, "ember profile: out of memory\n");
			return 1;
		}
		r->pids = grown;
		r->pids[r->nr_pids++] = pid;
		s = *end ? end + 1 : end;
	}
	return 0;
}

static int parse_stacks(const char *arg, enum ember_profile_stacks *stacks)
{
	if (!arg || !strcmp(arg, "both"))
		*stacks = EMBER_PROFILE_BOTH;
	else if (!strcmp(arg, "user"))
		*stacks = EMBER_PROFILE_USER;
	else if (!strcmp(arg, "kernel"))
		*stacks = EMBER_PROFILE_KERNEL;
	else {
		fprintf(stderr, "ember profile: -g takes user, kernel or both, not '%s'\n", arg);
		return -1;
	}
	return 0;
}

/*
 * The sampling event as an attr: perf's syntax parsed by libember, sampling
 * -F times a second unless the spec gave its own period or frequency.
 */
static int event_attr(const struct profile_opts *o, struct perf_event_attr *attr)
{
	const char *spec = o->event ? o->event : "cpu-clock";
	struct ember_evlist *evlist = ember_evlist__new();
	struct ember_parse_error perr = { 0 };
	const struct ember_evsel_terms *terms;
	struct ember_evsel *evsel;
	char msg[1024];
	int err;

	if (!evlist) {
		fprintf(stderr, "ember profile: out of memory\n");
		return 1;
	}
	err = ember_evlist__parse_events(evlist, spec, &perr);
	if (err) {
		ember_parse_error__snprintf(&perr, 0, msg, sizeof(msg));
		/* one line: the parser's first */
		msg[strcspn(msg, "\n")] = '\0';
		fprintf(stderr, "ember profile: bad event '%s': %s\n", spec, msg);
		ember_parse_error__exit(&perr);
		ember_evlist__delete(evlist);
		return 2;
	}
	if (ember_evlist__nr_entries(evlist) != 1) {
		fprintf(stderr, "ember profile: -e takes one event, not '%s'\n", spec);
		ember_evlist__delete(evlist);
		return 2;
	}
	evsel = ember_evlist__next(evlist, NULL);
	*attr = *ember_evsel__attr(evsel);
	/* the kernel runs only tracepoint programs on a tracepoint's event */
	if (attr->type == PERF_TYPE_TRACEPOINT) {
		fprintf(stderr, "ember profile: -e takes a sampling event (cpu-clock, page-faults, "
				"cycles ...), not the tracepoint '%s'\n", spec);
		ember_evlist__delete(evlist);
		return 2;
	}
	terms = ember_evsel__terms(evsel);
	if (terms && (terms->set & EMBER_TERM_PERIOD)) {
		attr->freq = 0;
		attr->sample_period = terms->period;
	} else if (terms && (terms->set & EMBER_TERM_FREQ)) {
		attr->freq = 1;
		attr->sample_freq = terms->freq;
	} else {
		sample_rate__config(attr, false, 0, o->freq != 0,
				    o->freq ? o->freq : PROFILE_DEFAULT_FREQ);
	}
	attr->disabled = 0;
	attr->inherit = 0;
	ember_evlist__delete(evlist);
	return 0;
}

static bool targets_gone(const struct profile_run *r)
{
	for (int i = 0; i < r->nr_pids; i++)
		if (proc__alive(r->pids[i]))
			return false;
	return true;
}

/*
 * One read of the counts into a new tree, written to every output (the
 * counts cleared: an interval's read); last: the run's end. 0, or 1 after
 * saying why.
 */
static int write_read(struct profile_run *r, bool clear, bool last)
{
	struct ember_flame_opts fo = { .sz = sizeof(fo) };
	struct ember_flame *fl = ember_flame__new(&fo);
	struct ember_profile_stats st;
	int err, ret = 0;

	if (!fl) {
		fprintf(stderr, "ember profile: out of memory\n");
		return 1;
	}
	err = ember_profile__read(r->prof, fl, clear, &st);
	if (err) {
		fprintf(stderr, "ember profile: cannot read the counts: %s\n", strerror(-err));
		ember_flame__delete(fl);
		return 1;
	}
	r->lost = st;
	r->samples += st.samples;
	r->unknown_pids += st.unknown_pids;
	/* an interval without samples writes nothing; a whole run without any is an error */
	if (!st.samples) {
		if (!last || r->samples) {
			ember_flame__delete(fl);
			return 0;
		}
		fprintf(stderr, "ember profile: no samples%s\n",
			r->interrupted ? "" : " (did the target run on a cpu?)");
		ember_flame__delete(fl);
		return 1;
	}
	for (int i = 0; i < r->o->nr_outputs && !ret; i++)
		ret = profile_output__write(fl, r->o->outputs[i], r->seq);
	if (!r->o->nr_outputs)
		ret = profile_output__write(fl, "-", r->seq);
	r->seq++;
	ember_flame__delete(fl);
	return ret;
}

/* Poll until ^C, -d, the command's or the targets' end; a read every --interval. */
static int loop(struct profile_run *r)
{
	uint64_t start = clock_now_ns(), next = start;
	uint64_t interval = r->o->interval * 1e9, end = r->o->duration * 1e9;
	int err, sig;

	if (interval)
		next += interval;
	for (;;) {
		err = ember_profile__poll(r->prof, POLL_MS);
		if (err < 0 && err != -EINTR) {
			fprintf(stderr, "ember profile: cannot poll: %s\n", strerror(-err));
			return 1;
		}
		sig = stop_signals__read(&r->sig);
		if (sig && sig != SIGCHLD) {
			r->interrupted = true;
			break;
		}
		if (r->have_wl && ember_workload__try_wait(&r->wl) != 0)
			break;
		if (r->nr_pids && targets_gone(r))
			break;
		if (end && clock_now_ns() - start >= end)
			break;
		if (interval && clock_now_ns() >= next) {
			if (write_read(r, true, false))
				return 1;
			next += interval;
		}
	}
	ember_profile__stop(r->prof);
	return write_read(r, interval != 0, true);
}

/* perf's lost-events line: one, at the end, when anything was lost. */
static void report_lost(const struct profile_run *r)
{
	const struct ember_profile_stats *st = &r->lost;
	uint64_t lost = st->lost_full + st->lost_collision;

	if (r->o->quiet)
		return;
	if (lost)
		fprintf(stderr, "Warning:\nLost %llu of %llu stack samples (%llu: the counts map "
				"was full, %llu: stack map collisions)\n",
			(unsigned long long)lost, (unsigned long long)(r->samples + lost),
			(unsigned long long)st->lost_full, (unsigned long long)st->lost_collision);
	if (r->unknown_pids)
		fprintf(stderr, "ember profile: %llu stack%s of processes gone before their maps "
				"were read: their user frames are [unknown]\n",
			(unsigned long long)r->unknown_pids, r->unknown_pids == 1 ? "" : "s");
}

static int start_command(struct profile_run *r)
{
	int err = ember_workload__prepare(&r->wl, r->o->argv);

	if (err) {
		fprintf(stderr, "ember profile: cannot start '%s': %s\n", r->o->argv[0],
			strerror(-err));
		return 1;
	}
	r->have_wl = true;
	err = ember_profile__add(r->prof, r->wl.pid, true);
	if (err) {
		fprintf(stderr, "ember profile: cannot follow the command: %s\n", strerror(-err));
		return 1;
	}
	return 0;
}

static int run(struct profile_run *r, struct ember_profile_opts *po)
{
	char errbuf[512] = "";
	int err;

	po->errbuf = errbuf;
	po->errbuf_size = sizeof(errbuf);
	r->prof = ember_profile__new(po);
	if (!r->prof) {
		fprintf(stderr, "ember profile: %s\n", errbuf[0] ? errbuf : strerror(errno));
		return 1;
	}
	for (int i = 0; i < r->nr_pids; i++) {
		err = ember_profile__add(r->prof, r->pids[i], false);
		if (err) {
			fprintf(stderr, "ember profile: cannot follow %d: %s\n", r->pids[i],
				strerror(-err));
			return 1;
		}
	}
	if (r->o->argc && start_command(r))
		return 1;
	err = stop_signals__open(&r->sig, true);
	if (err) {
		fprintf(stderr, "ember profile: cannot block signals: %s\n", strerror(-err));
		return 1;
	}
	err = ember_profile__start(r->prof);
	if (err) {
		fprintf(stderr, "ember profile: %s\n", errbuf[0] ? errbuf : strerror(-err));
		return 1;
	}
	if (r->have_wl) {
		err = ember_workload__start(&r->wl);
		if (err) {
			fprintf(stderr, "ember profile: cannot run '%s': %s\n", r->o->argv[0],
				strerror(-err));
			ember_workload__wait(&r->wl);
			r->have_wl = false;
			return err == -ENOENT ? 127 : 126;
		}
	}
	err = loop(r);
	report_lost(r);
	if (r->have_wl) {
		/* ended before the command (^C, -d): it is stopped too, its status not ours */
		bool early = ember_workload__try_wait(&r->wl) == 0;

		if (early)
			kill(r->wl.pid, r->interrupted ? SIGINT : SIGTERM);
		ember_workload__wait(&r->wl);
		r->have_wl = false;
		/* the command's status, as record passes it through */
		if (!err && !early && !r->interrupted)
			return ember_workload__exit_code(&r->wl);
	}
	return err;
}

/* The options checked against each other. 0, or an exit code after saying why. */
static int check_options(struct profile_run *r, struct ember_profile_opts *po,
			 struct perf_event_attr *attr)
{
	struct profile_opts *o = r->o;
	int targets = o->all_cpus + !!o->pids + !!o->argc, ret;

	if (targets > 1) {
		fprintf(stderr, "ember profile: -a, -p and a command exclude each other\n");
		return 2;
	}
	if (!targets && !o->cpus) {
		fprintf(stderr, "ember profile: nothing to profile: give -a, -C, -p or a command\n");
		return 2;
	}
	if (o->freq > 100000) {
		fprintf(stderr, "ember profile: -F %u is more than 100000 samples a second\n",
			o->freq);
		return 2;
	}
	if (parse_stacks(o->stacks, &po->stacks))
		return 2;
	if (o->max_entries > 1u << 24 || o->max_stacks > 1u << 20) {
		fprintf(stderr, "ember profile: --max-entries is at most %u and --max-stacks %u\n",
			1u << 24, 1u << 20);
		return 2;
	}
	po->max_entries = o->max_entries;
	po->max_stacks = o->max_stacks;
	if (o->pids && (ret = parse_pids(r, o->pids)))
		return ret;
	ret = event_attr(o, attr);
	if (ret)
		return ret;
	po->attr = attr;
	po->target = o->pids || o->argc ? EMBER_PROFILE_PIDS : EMBER_PROFILE_ALL;
	po->cpus = o->cpus;
	return 0;
}

int cmd_profile(int argc, const char **argv)
{
	struct profile_opts o = { 0 };
	struct profile_run r = { .o = &o, .sig.fd = -1 };
	struct ember_profile_opts po = { .sz = sizeof(po) };
	struct perf_event_attr attr;
	const struct option options[] = {
		OPT_UINTEGER('F', "freq", &o.freq, "hz", "samples a second (default 99)"),
		OPT_BOOLEAN('a', "all-cpus", &o.all_cpus, "every process on every cpu"),
		OPT_STRING('p', "pid", &o.pids, "pid[,pid...]", "these processes (and their children)"),
		OPT_STRING('C', "cpu", &o.cpus, "cpus", "only these cpus (0-3,6)"),
		OPT_CALLBACK('d', "duration", &o.duration, "seconds", "stop after this long",
			     opt_seconds),
		OPT_STRING('g', "stacks", &o.stacks, "user|kernel|both",
			   "which stacks to keep (default both)"),
		OPT_STRING('e', "event", &o.event, "event",
			   "the sampling event, perf's syntax (default cpu-clock)"),
		OPT_CALLBACK('o', "output", &o, "file",
			     "x.folded (default: stdout), x.svg (flame graph) or x.txt (hottest "
			     "stacks); repeatable", opt_output),
		OPT_CALLBACK(0, "interval", &o.interval, "seconds",
			     "write the counts every so often (FILE, FILE.1, ...), then clear them",
			     opt_seconds),
		OPT_UINTEGER(0, "max-entries", &o.max_entries, "n",
			     "distinct (process, stacks) counted (default 40960)"),
		OPT_UINTEGER(0, "max-stacks", &o.max_stacks, "n",
			     "stack map slots: more, fewer collisions, 1 KB each (default 16384)"),
		OPT_BOOLEAN('q', "quiet", &o.quiet, "no warnings about lost stacks"),
		OPT_END(),
	};
	int ret;

	argc = parse_options(argc, argv, options, profile_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	ret = parse_options_exit_code(argc);
	if (ret >= 0)
		return ret;
	o.argc = argc;
	o.argv = argv;
	ret = check_options(&r, &po, &attr);
	if (!ret)
		ret = run(&r, &po);
	if (r.have_wl)
		ember_workload__abort(&r.wl);
	stop_signals__close(&r.sig);
	ember_profile__delete(r.prof);
	free(r.pids);
	return ret;
}
