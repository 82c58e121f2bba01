// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember trace's run: the BPF tracer loaded for the target (a command
 * followed from its exec on, processes, threads, cpus, a user), events
 * printed until the command ends, the targets are gone, --max-events is
 * reached or a signal (^C) comes; then what the buffer still holds.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ember/bpf.h>
#include <ember/event.h>
#include <ember/syscall.h>
#include <ember/systrace.h>
#include <ember/workload.h>
#include "trace/perf-events.h"
#include "trace/print.h"
#include "trace/run.h"
#include "trace/summary.h"
#include "util/stop-signals.h"

/* how long events may wait: the BPF side wakes a poll only for a full quarter buffer */
#define POLL_MS 10

struct trace_run {
	struct trace_opts *o;
	struct ember_systrace *st;	/* NULL with -s: no lines */
	struct ember_syscount *sc;	/* -s/-S */
	struct trace_perf_events *pe;	/* -F, -e's probes */
	struct trace_perf_handlers handlers;
	struct ember_syscalls *syscalls;
	struct ember_workload wl;
	bool have_wl;
	pid_t *targets;			/* -p/-t */
	int nr_targets;
	int fd_calls[5];		/* open, openat, close, execve, exit_group */
	struct trace_tps tps;		/* -e sys:name */
	struct trace_stacks stacks;	/* --call-graph */
	int *cpus;			/* -C */
	int nr_cpus;
	FILE *out;
	struct stop_signals sig;
	bool interrupted;
	struct trace_printer printer;
};

static void say_bpf_error(const char *what, int err)
{
	char why[512];

	fprintf(stderr, "ember trace: cannot %s: %s\n", what,
		ember_bpf__strerror(err, why, sizeof(why)));
}

/* "42,43" into r->targets; each must exist now. Returns 0 or an exit code (message printed). */
static int parse_targets(struct trace_run *r, const char *list, const char *kind)
{
	const char *s = list;
	char path[64];

	while (*s) {
		char *end;
		long v;
		pid_t *t;

		errno = 0;
		v = strtol(s, &end, 10);
		if (errno || end == s || v <= 0 || v > 0x3fffffff || (*end && *end != ',')) {
			fprintf(stderr, "ember trace: invalid %s list '%s': expected numbers like "
					"42,43\n", kind, list);
			return 2;
		}
		t = realloc(r->targets, (r->nr_targets + 1) * sizeof(*t));
		if (!t)
			return 1;
		r->targets = t;
		r->targets[r->nr_targets++] = (pid_t)v;
		s = *end ? end + 1 : end;
	}
	for (int i = 0; i < r->nr_targets; i++) {
		snprintf(path, sizeof(path), "/proc/%d", (int)r->targets[i]);
		if (access(path, F_OK)) {
			fprintf(stderr, "ember trace: no such %s: %d (it has exited, or never "
					"existed)\n", kind, (int)r->targets[i]);
			return 1;
		}
	}
	return 0;
}

/* How many threads -p's processes have now (-t: the tids given). */
static int count_threads(const struct trace_run *r, bool processes)
{
	int n = 0;

	for (int i = 0; i < r->nr_targets; i++) {
		char path[64];
		struct dirent *de;
		DIR *d;

		if (!processes) {
			n++;
			continue;
		}
		snprintf(path, sizeof(path), "/proc/%d/task", (int)r->targets[i]);
		d = opendir(path);
		if (!d) {
			n++;
			continue;
		}
		while ((de = readdir(d)))
			n += de->d_name[0] != '.';
		closedir(d);
	}
	return n;
}

static int parse_cpus(struct trace_run *r, const char *list)
{
	struct ember_cpu_map *map = ember_cpu_map__new(list);

	if (!map) {
		if (errno == ENODEV)
			fprintf(stderr, "ember trace: -C %s: not every cpu named is online "
					"(see /sys/devices/system/cpu/online)\n", list);
		else
			fprintf(stderr, "ember trace: invalid cpu list '%s': expected cpus like "
					"0-3,8\n", list);
		return 2;
	}
	r->nr_cpus = ember_cpu_map__nr(map);
	r->cpus = calloc(r->nr_cpus ? r->nr_cpus : 1, sizeof(*r->cpus));
	for (int i = 0; r->cpus && i < r->nr_cpus; i++)
		r->cpus[i] = ember_cpu_map__cpu(map, i);
	ember_cpu_map__put(map);
	return r->cpus ? 0 : 1;
}

/* Whether a task has ended: no /proc entry, or a zombie. */
static bool task_gone(pid_t pid)
{
	char path[64], buf[512], *p;
	bool gone = true;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return true;
	if (fgets(buf, sizeof(buf), f)) {
		p = strrchr(buf, ')');
		gone = !p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X';
	}
	fclose(f);
	return gone;
}

static bool targets_gone(const struct trace_run *r)
{
	for (int i = 0; i < r->nr_targets; i++)
		if (!task_gone(r->targets[i]))
			return false;
	return true;
}

static bool enough(const struct trace_run *r)
{
	return r->printer.max_events && r->printer.nr_printed >= r->printer.max_events;
}

/*
 * -F, probes: the perf events read before a poll go out in time order
 * with the events the poll brings, each before the first event later than
 * it, the rest after the poll.
 */
static int flush_perf_events(struct trace_run *r, uint64_t before)
{
	return r->pe ? trace_perf_events__flush(r->pe, before, &r->handlers) : 0;
}

static int on_event(void *ctx, const struct ember_syscall_rec *enter,
		    const struct ember_syscall_rec *exit)
{
	struct trace_run *r = ctx;

	if (flush_perf_events(r, (exit ? exit : enter)->time))
		return -ENOMEM;
	return trace_printer__event(&r->printer, enter, exit);
}

static int on_tracepoint(void *ctx, const struct ember_systrace_tp_rec *rec)
{
	struct trace_run *r = ctx;

	if (flush_perf_events(r, rec->time))
		return -ENOMEM;
	return trace_printer__tracepoint(&r->printer, rec);
}

/* Poll and print until the end; then what the buffer holds. */
static int loop(struct trace_run *r)
{
	int err = 0, sig;

	for (;;) {
		/*
		 * -s alone: no events come, only the end of the command or a
		 * signal. With perf events the wait is here, so that they are
		 * read after it and before the tracer's events of the same time.
		 */
		if (r->st && !r->pe) {
			err = ember_systrace__poll(r->st, POLL_MS, on_event, r);
		} else {
			err = poll(&(struct pollfd){ .fd = r->sig.fd, .events = POLLIN }, 1,
				   POLL_MS) < 0 ? -errno : 0;
			if (!err && r->pe)
				err = trace_perf_events__read(r->pe);
			if (!err && r->st)
				err = ember_systrace__poll(r->st, 0, on_event, r);
		}
		if (err < 0 && err != -EINTR)
			break;
		err = flush_perf_events(r, UINT64_MAX);
		if (err)
			break;
		err = 0;
		sig = stop_signals__read(&r->sig);
		if (sig && sig != SIGCHLD) {
			r->interrupted = true;
			break;
		}
		if (enough(r))
			break;
		if (r->have_wl && ember_workload__try_wait(&r->wl) != 0)
			break;
		if (r->nr_targets && targets_gone(r))
			break;
	}
	if (r->pe) {
		trace_perf_events__stop(r->pe);
		if (!err)
			err = trace_perf_events__read(r->pe);
	}
	if (r->st)
		ember_systrace__stop(r->st);
	while (r->st && !err && !enough(r) && ember_systrace__poll(r->st, 0, on_event, r) > 0)
		;
	return err ? err : flush_perf_events(r, UINT64_MAX);
}

/* --call-graph: the command's program (found as execvp finds it) and its interpreter. */
static void add_command_files(struct trace_run *r)
{
	const char *cmd = r->o->argc ? r->o->argv[0] : NULL, *path = getenv("PATH");
	char file[PATH_MAX];

	if (!cmd)
		return;
	if (strchr(cmd, '/')) {
		trace_stacks__add_exec(&r->stacks, cmd);
		return;
	}
	while (path && *path) {
		size_t len = strcspn(path, ":");

		if (snprintf(file, sizeof(file), "%.*s/%s", (int)len, path, cmd) < (int)sizeof(file) &&
		    !access(file, X_OK)) {
			trace_stacks__add_exec(&r->stacks, file);
			return;
		}
		path += len + (path[len] == ':');
	}
}

static int setup(struct trace_run *r, struct ember_systrace_opts *sopts, char *root,
		 size_t root_size)
{
	struct trace_opts *o = r->o;
	int err, ret;

	if (o->pids && (ret = parse_targets(r, o->pids, "process")))
		return ret;
	if (o->tids && (ret = parse_targets(r, o->tids, "thread")))
		return ret;
	if (o->cpu_list && (ret = parse_cpus(r, o->cpu_list)))
		return ret;
	sopts->target = o->pids || o->argc ? EMBER_SYSTRACE_PIDS :
			o->tids ? EMBER_SYSTRACE_TIDS : EMBER_SYSTRACE_ALL;
	/* perf follows a command's children, not those of -p's processes */
	sopts->no_inherit = o->no_inherit || o->pids;
	sopts->cpus = r->cpus;
	sopts->nr_cpus = r->nr_cpus;
	sopts->filter_uid = o->filter_uid;
	sopts->uid = o->uid;
	sopts->syscalls = trace_opts__syscalls(o, &sopts->nr_syscalls);
	/* opens, closes, execs and exits not chosen still keep fd paths and symbols right */
	sopts->also = r->fd_calls;
	sopts->nr_also = 0;
	for (const char *const *n = (const char *const[]){ "open", "openat", "close", "execve",
							    "exit_group", NULL };
	     *n; n++)
		r->fd_calls[sopts->nr_also++] = ember_syscall__number(*n);
	if (o->have_qualifier && !sopts->syscalls) {
		fprintf(stderr, "ember trace: out of memory\n");
		return 1;
	}
	err = ember_tracefs__find(root, root_size);
	if (err) {
		fprintf(stderr, "ember trace: cannot find tracefs: %s%s\n", strerror(-err),
			err == -EACCES || err == -EPERM ? " (tracing needs root, or CAP_BPF and "
							  "CAP_PERFMON)" : "");
		return 1;
	}
	sopts->tracefs = root;
	for (int i = 0; i < o->nr_tp_specs; i++) {
		err = trace_tps__add(&r->tps, root, o->tp_specs[i]);
		if (err) {
			/* perf probe's groups are probe and probe_BINARY */
			bool probe = !strncmp(o->tp_specs[i], "probe", 5);

			fprintf(stderr, "ember trace: %s '%s'%s\n",
				err != -ENOENT ? "cannot read tracepoint" :
				probe ? "no such probe event" : "no such tracepoint", o->tp_specs[i],
				err != -ENOENT ? "" :
				probe ? " (see 'ember probe -l')" : " (see 'ember list tracepoint')");
			return err == -ENOENT ? 2 : 1;
		}
	}
	err = trace_tps__load(&r->tps, root);
	if (err) {
		fprintf(stderr, "ember trace: cannot read the tracepoints' formats: %s\n",
			strerror(-err));
		return 1;
	}
	/* the probes come as perf events: the BPF tracer takes the tracepoints only */
	sopts->tps = r->tps.tps;
	sopts->nr_tps = r->tps.nr_bpf;
	sopts->no_syscalls = !o->syscalls;
	sopts->user_stack = o->call_graph;
	sopts->user_stack_size = o->dwarf_stack;
	sopts->buffer_size = o->buffer_size;
	if (o->call_graph)
		add_command_files(r);
	r->syscalls = ember_syscalls__new(root);
	if (!r->syscalls) {
		fprintf(stderr, "ember trace: out of memory\n");
		return 1;
	}
	sopts->table = r->syscalls;	/* the formats read once, for the tracer and the printer */
	if (o->output) {
		r->out = fopen(o->output, "we");
		if (!r->out) {
			fprintf(stderr, "ember trace: cannot write %s: %s\n", o->output,
				strerror(errno));
			return 1;
		}
	}
	return 0;
}

/* A target followed by the tracer and the counter, whichever run. */
static int follow(struct trace_run *r, pid_t id, bool at_exec)
{
	int err = r->st ? ember_systrace__add(r->st, id, at_exec) : 0;

	return err || !r->sc ? err : ember_syscount__add(r->sc, id, at_exec);
}

/* -F's and the probes' perf events on the same targets, the command's from its exec on. */
static int open_perf_events(struct trace_run *r)
{
	struct trace_perf_events_opts t = {
		.pf_kinds = r->o->pf_kinds,
		.probe_ids = r->tps.ids + r->tps.nr_bpf,
		.nr_probes = r->tps.nr - r->tps.nr_bpf,
		.index_base = r->tps.nr_bpf,
		.command = r->have_wl ? r->wl.pid : 0,
		.pids = r->o->pids,
		.tids = r->o->tids,
		.cpus = r->cpus,
		.nr_cpus = r->nr_cpus,
		.no_inherit = r->o->no_inherit,
		.callchain = r->o->call_graph,
	};

	if (!t.pf_kinds && !t.nr_probes)
		return 0;
	r->handlers = (struct trace_perf_handlers){
		.fault = trace_printer__fault, .probe = trace_printer__tracepoint,
		.ctx = &r->printer,
	};
	r->pe = trace_perf_events__new(&t);
	if (!r->pe) {
		fprintf(stderr, "ember trace: cannot open the %s events: %s%s\n",
			!t.nr_probes ? "page fault" : t.pf_kinds ? "probe and page fault" : "probe",
			strerror(errno), errno == EACCES || errno == EPERM ?
			" (tracing needs root, or CAP_PERFMON)" : "");
		return 1;
	}
	return 0;
}

/* The targets into the tracer's map, and a command held at its exec. */
static int add_targets(struct trace_run *r)
{
	int err = 0;

	for (int i = 0; i < r->nr_targets && !err; i++)
		err = follow(r, r->targets[i], false);
	if (err) {
		say_bpf_error("follow the targets", err);
		return 1;
	}
	if (!r->o->argc)
		return 0;
	err = ember_workload__prepare(&r->wl, r->o->argv);
	if (err) {
		fprintf(stderr, "ember trace: cannot start '%s': %s\n", r->o->argv[0],
			strerror(-err));
		return 1;
	}
	r->have_wl = true;
	if (r->printer.dwarf) {
		err = trace_dwarf__follow_command(r->printer.dwarf, r->wl.pid);
		if (err) {
			fprintf(stderr, "ember trace: cannot follow the maps of '%s': %s\n",
				r->o->argv[0], strerror(-err));
			return 1;
		}
	}
	err = follow(r, r->wl.pid, true);
	if (err) {
		say_bpf_error("follow the command", err);
		return 1;
	}
	return 0;
}

static int run(struct trace_run *r)
{
	uint64_t lost;
	int err;

	if (add_targets(r) || open_perf_events(r))
		return 1;
	err = r->st ? ember_systrace__start(r->st) : 0;
	if (!err && r->sc)
		err = ember_syscount__start(r->sc);
	if (err) {
		say_bpf_error("attach the syscall tracer", err);
		return 1;
	}
	if (r->have_wl) {
		err = ember_workload__start(&r->wl);
		if (err) {
			fprintf(stderr, "ember trace: cannot run '%s': %s\n", r->o->argv[0],
				strerror(-err));
			ember_workload__wait(&r->wl);
			return err == -ENOENT ? 127 : 126;
		}
	}
	err = loop(r);
	if (r->o->summary && !err)
		err = trace_summary__finish(r->sc, r->printer.out, r->o->errno_summary,
					    r->pe ? &r->printer.state : NULL);
	lost = (r->st ? ember_systrace__lost(r->st) : 0) +
	       (r->pe ? trace_perf_events__lost(r->pe) : 0);
	if (lost)
		fprintf(r->printer.out, "LOST %llu events!\n", (unsigned long long)lost);
	if (r->have_wl) {
		/* a ^C reached the command too; --max-events stops it as perf does */
		if (!r->wl.reaped && (r->interrupted || enough(r)))
			kill(r->wl.pid, SIGTERM);
		while (!r->wl.reaped && ember_workload__wait(&r->wl) == -EINTR)
			;
		return err ? 1 : ember_workload__exit_code(&r->wl);
	}
	return err ? 1 : 0;
}

int trace_run(struct trace_opts *o)
{
	struct ember_systrace_opts sopts = { .sz = sizeof(sopts) };
	struct trace_run r = { .o = o, .sig.fd = -1 };
	char root[4000];
	int ret;

	trace_stacks__init(&r.stacks);
	/* a ^C from now on ends the trace cleanly, even one during the load */
	if (stop_signals__open(&r.sig, true)) {
		fprintf(stderr, "ember trace: cannot watch for signals: %s\n", strerror(errno));
		return 1;
	}
	ret = setup(&r, &sopts, root, sizeof(root));
	if (ret)
		goto out;
	/* -F and probes alone need no BPF: their events are perf's */
	if (!o->summary_only && (o->syscalls || r.tps.nr_bpf || (!r.tps.nr && !o->pf_kinds)) &&
	    !(r.st = ember_systrace__new(&sopts))) {
		say_bpf_error("load the syscall tracer", -errno);
		ret = 1;
		goto out;
	}
	if (o->summary && (o->syscalls || !o->pf_kinds) &&
	    !(r.sc = ember_syscount__new(&sopts))) {
		say_bpf_error("load the syscall counter", -errno);
		ret = 1;
		goto out;
	}
	trace_printer__init(&r.printer, r.out ? r.out : stderr, r.syscalls);
	r.printer.duration_ms = o->duration;
	r.printer.failure_only = o->failure;
	r.printer.show_comm = o->comm;
	r.printer.full_time = o->full_time;
	r.printer.max_events = o->max_events;
	r.printer.summary_only = o->summary_only;
	r.printer.show_duration = o->syscalls;
	r.printer.tps = &r.tps;
	r.printer.stacks = o->call_graph ? &r.stacks : NULL;
	if (o->dwarf_stack && !o->summary_only && !(r.printer.dwarf = trace_dwarf__new())) {
		fprintf(stderr, "ember trace: out of memory\n");
		ret = 1;
		goto out_printer;
	}
	/* perf names the thread on each line unless it traces one thread only (-p, -t) */
	if (o->pids || o->tids)
		r.printer.show_tid = count_threads(&r, o->pids) > 1;
	if (r.st)
		ember_systrace__set_tp_handler(r.st, on_tracepoint, &r);
	ret = run(&r);
out_printer:
	trace_printer__exit(&r.printer);
	trace_dwarf__delete(r.printer.dwarf);
out:
	if (r.have_wl && !r.wl.reaped)
		ember_workload__abort(&r.wl);
	stop_signals__close(&r.sig);
	ember_syscount__delete(r.sc);
	trace_perf_events__delete(r.pe);
	ember_systrace__delete(r.st);
	ember_syscalls__delete(r.syscalls);
	if (r.out && fclose(r.out) && !ret) {
		fprintf(stderr, "ember trace: cannot write %s: %s\n", o->output, strerror(errno));
		ret = 1;
	}
	free((void *)sopts.syscalls);
	trace_tps__exit(&r.tps);
	trace_stacks__exit(&r.stacks);
	free(r.targets);
	free(r.cpus);
	return ret;
}
