// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember top: perf top --stdio, a profile of the whole system (or of some
 * processes, threads or cpus) refreshed every -d seconds, the old periods
 * decayed by perf's 7/8 at each refresh (-z: zeroed). On a terminal,
 * without --stdio, the live histogram is shown in the browser (top/browse.c),
 * as perf top shows it.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <ember/mmap.h>
#include "builtin.h"
#include "top/top.h"
#include "util/parse-options.h"
#include "util/sysctl.h"

static const char *const top_usage[] = {
	"ember top [<options>]",
	NULL,
};

static volatile sig_atomic_t done;

static void on_signal(int sig)
{
	done = 1;
}

static int opt_event(const struct option *opt, const char *arg, bool unset)
{
	struct top *t = opt->value;
	struct ember_parse_error err = { 0 };
	int ret = ember_evlist__parse_events(t->evlist, arg, &err);

	if (ret) {
		fprintf(stderr, "ember top: cannot use event '%s': %s%s%s%s\n", arg,
			err.msg ? err.msg : strerror(-ret), err.hint ? " (" : "",
			err.hint ? err.hint : "", err.hint ? ")" : "");
		ember_parse_error__exit(&err);
		return -1;
	}
	t->o.events_given = true;
	return 0;
}

static int opt_freq(const struct option *opt, const char *arg, bool unset)
{
	struct top_opts *o = opt->value;
	char *end;
	unsigned long v;

	if (!strcmp(arg, "max")) {
		v = sysctl__kernel_uint("perf_event_max_sample_rate", 0);
	} else {
		v = strtoul(arg, &end, 10);
		if (end == arg || *end)
			v = 0;
	}
	if (!v) {
		fprintf(stderr, "ember top: invalid frequency '%s'\n", arg);
		return -1;
	}
	o->freq = (unsigned int)v;
	o->freq_given = true;
	return 0;
}

static int opt_percent_limit(const struct option *opt, const char *arg, bool unset)
{
	struct top_opts *o = opt->value;
	char *end;

	o->min_percent = strtod(arg, &end);
	if (end == arg || (*end && strcmp(end, "%"))) {
		fprintf(stderr, "ember top: invalid --percent-limit '%s'\n", arg);
		return -1;
	}
	return 0;
}

static int opt_g(const struct option *opt, const char *arg, bool unset)
{
	struct top_opts *o = opt->value;

	o->callgraph_set = !unset;
	o->callgraph = unset ? NULL : "";
	return 0;
}

static int opt_callgraph(const struct option *opt, const char *arg, bool unset)
{
	struct top_opts *o = opt->value;

	o->callgraph_set = !unset;
	o->callgraph = unset ? NULL : arg;
	return 0;
}

/* The terminal's size as perf's get_term_dimensions() finds it: the tty, $LINES/$COLUMNS, 25x80. */
static void term_size(struct top *t)
{
	struct winsize ws;
	const char *l = getenv("LINES"), *c = getenv("COLUMNS");

	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col) {
		t->rows = ws.ws_row;
		t->cols = ws.ws_col;
		return;
	}
	if (l && c && atoi(l) > 0 && atoi(c) > 0) {
		t->rows = atoi(l);
		t->cols = atoi(c);
		return;
	}
	t->rows = 25;
	t->cols = 80;
}

static int usage_error(const char *msg)
{
	fprintf(stderr, "ember top: %s (see 'ember top --help')\n", msg);
	return 2;
}

static int parse_args(struct top *t, int argc, const char **argv)
{
	struct top_opts *o = &t->o;
	const struct option options[] = {
		OPT_CALLBACK('e', "event", t, "event", "event selector. use 'ember list' to list available events", opt_event),
		OPT_U64('c', "count", &o->period, "n", "event period to sample"),
		OPT_CALLBACK('F', "freq", o, "freq or 'max'", "profile at this frequency", opt_freq),
		OPT_STRING('p', "pid", &o->pid, "pid", "profile events on existing process id"),
		OPT_STRING('t', "tid", &o->tid, "tid", "profile events on existing thread id"),
		OPT_STRING('u', "uid", &o->uid, "user", "user to profile"),
		OPT_BOOLEAN('a', "all-cpus", &o->system_wide, "system-wide collection from all CPUs"),
		OPT_STRING('C', "cpu", &o->cpu_list, "cpu", "list of cpus to monitor"),
		OPT_INTEGER('d', "delay", &o->delay_secs, "n", "number of seconds to delay between refreshes"),
		OPT_INTEGER('E', "entries", &o->entries, "n", "display this many functions"),
		OPT_BOOLEAN('K', "hide_kernel_symbols", &o->hide_kernel, "hide kernel symbols"),
		OPT_BOOLEAN('U', "hide_user_symbols", &o->hide_user, "hide user symbols"),
		OPT_BOOLEAN('z', "zero", &o->zero, "zero history across updates"),
		OPT_BOOLEAN('i', "no-inherit", &o->no_inherit, "child tasks do not inherit counters"),
		OPT_UINTEGER('m', "mmap-pages", &o->mmap_pages, "pages", "number of mmap data pages"),
		OPT_BOOLEAN('n', "show-nr-samples", &o->show_nr_samples, "Show a column with the number of samples"),
		OPT_BOOLEAN(0, "show-total-period", &o->show_total_period, "Show a column with the sum of periods"),
		OPT_STRING('s', "sort", &o->sort_order, "key[,key2...]", "sort by key(s): pid, comm, dso, symbol, parent, cpu, srcline, ..."),
		OPT_STRING(0, "fields", &o->field_order, "key[,keys...]", "output field(s): overhead, period, sample plus all of sort keys"),
		OPT_CALLBACK_NOARG('g', NULL, o, "enables call-graph recording and display", opt_g),
		OPT_CALLBACK(0, "call-graph", o, "record_mode[,record_size],print_type,threshold[,print_limit],order,sort_key[,branch]", "setup and enables call-graph (stack chain/backtrace)", opt_callgraph),
		OPT_BOOLEAN(0, "children", &o->children, "Accumulate callchains of children and show total overhead as well"),
		OPT_CALLBACK(0, "percent-limit", o, "percent", "Don't show entries under that percent", opt_percent_limit),
		OPT_BOOLEAN(0, "stdio", &o->stdio, "Use the stdio interface"),
		OPT_BOOLEAN(0, "tui", &o->tui, "Use the TUI interface"),
		OPT_INCR('v', "verbose", &o->verbose, "be more verbose"),
		OPT_END(),
	};
	int ret = parse_options(argc, argv, options, top_usage, 0);

	if (parse_options_exit_code(ret) >= 0)
		return parse_options_exit_code(ret);
	if (ret > 0)
		return usage_error("unexpected argument");
	o->period_given = o->period != 0;
	if (!!o->pid + !!o->tid + !!o->uid > 1)
		return usage_error("-p, -t and -u cannot be used together");
	if (o->delay_secs < 1)
		o->delay_secs = 1;
	return -1;
}

/* Sort keys, callchain options and one histogram per event. 0 or the exit status. */
static int setup_hists(struct top *t)
{
	struct ember_hist_layout_opts lo = {
		.sz = sizeof(lo),
		.sort_order = t->o.sort_order,
		.field_order = t->o.field_order,
		.children = t->o.children && t->o.callgraph_set,
		.show_nr_samples = t->o.show_nr_samples,
		.show_total_period = t->o.show_total_period,
		.default_sort = "dso,sym",
	};
	struct ember_callchain_param *p = &t->hopts.chain;
	char bad[128] = "";
	int err;

	err = ember_hist_layout__setup(&t->layout, &lo, bad, sizeof(bad));
	if (err == -EINVAL) {
		char msg[256];

		snprintf(msg, sizeof(msg), "unknown sort key '%s'", bad);
		return usage_error(msg);
	}
	if (err)
		return usage_error("too many sort keys");
	ember_callchain_param__init(p);
	if (t->o.callgraph_set && t->o.callgraph && *t->o.callgraph &&
	    ember_callchain_param__parse(p, t->o.callgraph))
		return usage_error("invalid --call-graph argument");
	if (lo.children && !p->order_set)
		p->order = EMBER_CALLCHAIN_CALLER;
	t->hopts.sz = sizeof(t->hopts);
	t->hopts.layout = &t->layout;
	t->hopts.use_callchain = t->o.callgraph_set && p->mode != EMBER_CALLCHAIN_NONE;
	t->hopts.children = lo.children;
	return 0;
}

static int make_hists(struct top *t)
{
	t->nr_hists = ember_evlist__nr_entries(t->evlist);
	t->hists = calloc(t->nr_hists, sizeof(*t->hists));
	if (!t->hists)
		return -ENOMEM;
	for (int i = 0; i < t->nr_hists; i++) {
		t->hists[i] = ember_hist__new(&t->hopts);
		if (!t->hists[i])
			return -errno;
	}
	return 0;
}


static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The ring buffers' fds, and standard input when keys are read, in one
 * poll set (the caller frees it); NULL on ENOMEM.
 */
static struct pollfd *poll_set(struct top *t, bool keys, int *nr)
{
	int n = ember_evlist__nr_mmaps(t->evlist);
	struct pollfd *p = calloc(n + 1, sizeof(*p));

	if (!p)
		return NULL;
	for (int i = 0; i < n; i++)
		p[i] = (struct pollfd){ .fd = ember_mmap__fd(ember_evlist__mmap_at(t->evlist, i)),
					.events = POLLIN };
	if (keys)
		p[n++] = (struct pollfd){ .fd = STDIN_FILENO, .events = POLLIN };
	*nr = n;
	return p;
}

/*
 * Takes the fds that hung up (a watched thread's exit, the terminal's) out
 * of the poll set, which would return at once for them from now on; their
 * buffers are still drained. Whether a ring buffer's did.
 */
static bool hung_up(struct pollfd *fds, int nr_fds, const struct top_keys *keys)
{
	bool any = false;

	for (int i = 0; i < nr_fds; i++) {
		if ((fds[i].revents & (POLLHUP | POLLERR)) ||
		    (fds[i].fd == STDIN_FILENO && !keys->on)) {
			any |= fds[i].fd != STDIN_FILENO;
			fds[i].fd = -1;
		}
	}
	return any;
}

/*
 * A target whose buffer hung up is looked at this often (ms), for this
 * long (s): the thread that hung up may be gone, its process not.
 */
#define GONE_POLL_MS 50
#define GONE_WATCH_S 1.0

static int loop(struct top *t, struct top_keys *keys, struct pollfd *fds, int nr_fds)
{
	double next = now_s();
	double hup_until = 0;	/* a target's buffer hung up: it exits, may not be gone yet */
	int err = 0;

	while (!done) {
		double now = now_s();
		int ms;

		if (now >= next) {
			if (t->o.entries <= 0)
				term_size(t);
			err = top_display__refresh(t);
			if (!err && ferror(stdout))
				err = -EPIPE;	/* the reader went away (top | head) */
			if (err)
				break;
			next += t->o.delay_secs;
			if (next < now)
				next = now + t->o.delay_secs;
			if (top_live__targets_gone(t))
				break;
			continue;
		}
		ms = (int)((next - now) * 1000) + 1;
		if (now < hup_until && ms > GONE_POLL_MS)
			ms = GONE_POLL_MS;
		if (poll(fds, nr_fds, ms) > 0)
			err = top_live__drain(t);
		if (err)
			break;
		if (top_keys__quit(keys)) {
			printf("exiting.\n");
			break;
		}
		/*
		 * The kernel hangs the buffers up in the task's exit before the
		 * task is a zombie: it is looked at again until it is gone
		 */
		if (hung_up(fds, nr_fds, keys) && t->nr_target_pids)
			hup_until = now + GONE_WATCH_S;
		if (now < hup_until && top_live__targets_gone(t))
			next = now;	/* a last screen, then the loop ends */
	}
	return err;
}

/* perf's choice: the browser when standard output is a terminal, unless --stdio (--tui or not). */
static bool use_tui(const struct top *t)
{
	return !t->o.stdio && isatty(STDOUT_FILENO);
}

static int run(struct top *t)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct top_keys keys = { 0 };
	struct pollfd *fds;
	int err, nr_fds;

	/*
	 * Enabled before /proc is read: an exec or mmap while it is read is
	 * then in the ring buffers too, taken after what was read
	 */
	err = ember_evlist__enable(t->evlist);
	if (err) {
		fprintf(stderr, "ember top: cannot enable the events: %s\n", strerror(-err));
		return 1;
	}
	err = top_live__synthesize(t);
	if (err) {
		fprintf(stderr, "ember top: cannot read the running processes: %s\n",
			strerror(-err));
		return 1;
	}
	if (use_tui(t)) {
		char why[256];

		/* the screen's handlers give the terminal back on a signal */
		err = top_browse__run(t, why, sizeof(why));
		if (err >= 0)
			return err;
		/* a terminal without cursor addressing (TERM=dumb): the text, as perf */
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	top_keys__start(&keys);
	fds = poll_set(t, keys.on, &nr_fds);
	err = fds ? loop(t, &keys, fds, nr_fds) : -ENOMEM;
	top_keys__stop(&keys);
	free(fds);
	if (err == -EPIPE) {
		/* as perf top, which SIGPIPE ends: quietly, now the terminal is restored */
		signal(SIGPIPE, SIG_DFL);
		raise(SIGPIPE);
	}
	if (err) {
		fprintf(stderr, "ember top: %s\n", strerror(-err));
		return 1;
	}
	return 0;
}

int cmd_top(int argc, const char **argv)
{
	/* perf top cumulates callchains (--children) unless told not to */
	struct top t = { .o = { .delay_secs = 2, .children = true } };
	struct ember_symbol_opts so = { .sz = sizeof(so) };
	int ret;

	t.evlist = ember_evlist__new();
	if (!t.evlist) {
		fprintf(stderr, "ember top: out of memory\n");
		return 1;
	}
	ret = parse_args(&t, argc, argv);
	if (ret >= 0)
		goto out;
	ret = setup_hists(&t);
	if (ret)
		goto out;
	term_size(&t);
	ret = top_events__open(&t);
	if (ret)
		goto out;
	t.machine = ember_machine__new(&so);
	ret = 1;
	if (!t.machine || make_hists(&t)) {
		fprintf(stderr, "ember top: out of memory\n");
		goto out;
	}
	ret = run(&t);
out:
	for (int i = 0; i < t.nr_hists; i++)
		ember_hist__delete(t.hists[i]);
	free(t.hists);
	ember_evlist__delete(t.evlist);
	ember_machine__delete(t.machine);
	free(t.frames);
	free(t.chain);
	free(t.queue);
	free(t.target_pids);
	free(t.uid_pids);
	return ret;
}
