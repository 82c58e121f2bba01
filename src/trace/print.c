// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember trace's lines, in perf trace's layout:
 *      0.793 ( 0.039 ms): cat/32372 openat(dfd: CWD, filename: "/etc/hostname", flags: RDONLY|CLOEXEC) = 3
 * A call is printed at its exit; an entry another thread's entry
 * interrupts is printed then, ending " ...", and its exit later reads
 * " ... [continued]: name()) = ret". exit and exit_group print at entry.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace/print.h"

/* perf trace pads "name(args)" to this many columns before "= ret". */
#define ARGS_ALIGNMENT 70

void trace_printer__init(struct trace_printer *p, FILE *out, struct ember_syscalls *syscalls)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
	p->syscalls = syscalls;
	p->show_comm = true;
	p->show_tid = true;
	p->show_time = true;
	p->show_duration = true;
	trace_state__init(&p->state);
}

void trace_printer__exit(struct trace_printer *p)
{
	trace_state__exit(&p->state);
}

/* The printer whose state ctx is: a replay names pids from its file, not /proc. */
static struct trace_printer *printer_of(void *state)
{
	return (struct trace_printer *)((char *)state - offsetof(struct trace_printer, state));
}

static const char *env_fd_path(void *ctx, pid_t pid, int fd)
{
	/* perf trace -i reads no /proc: a file's fds are bare numbers */
	return printer_of(ctx)->pid_comm ? NULL : trace_state__fd_path(ctx, pid, fd);
}

static const char *env_comm(void *ctx, pid_t pid)
{
	struct trace_printer *p = printer_of(ctx);

	return p->pid_comm ? p->pid_comm(p->names, pid) : trace_state__comm(ctx, pid);
}

static const char *env_ret_comm(void *ctx, pid_t pid, pid_t caller)
{
	struct trace_printer *p = printer_of(ctx);

	return p->pid_comm ? p->pid_comm(p->names, pid) : trace_state__ret_comm(ctx, pid, caller);
}

static struct ember_syscall_env env_of(struct trace_printer *p, const struct trace_thread *t)
{
	return (struct ember_syscall_env){
		.pid = t->pid, .tid = t->tid, .fd_path = env_fd_path, .comm = env_comm,
		.ret_comm = env_ret_comm, .ctx = &p->state,
	};
}

/* "   12.345 ( 0.011 ms): comm/tid ": the timestamp ("?" when 0) and the duration if known. */
static void print_head(struct trace_printer *p, const struct trace_thread *t, uint64_t duration,
		       bool duration_known, uint64_t tstamp)
{
	if (p->show_time) {
		if (tstamp)
			fprintf(p->out, "%10.3f ", (double)(tstamp - p->base_time) / 1e6);
		else
			fprintf(p->out, "         ? ");
	}
	if (duration_known)
		fprintf(p->out, "(%6.3f ms): ", (double)duration / 1e6);
	else if (p->show_duration)
		fprintf(p->out, "(         ): ");
	if (p->show_tid) {
		if (p->show_comm)
			fprintf(p->out, "%.14s/", t->comm);
		fprintf(p->out, "%d ", (int)t->tid);
	}
}

/* The pending entry of the thread another one interrupts: "name(args) ...". */
static void print_interrupted(struct trace_printer *p)
{
	struct trace_thread *t = p->current;
	int len;

	if (p->failure_only || !t || !t->entry_pending)
		return;
	print_head(p, t, 0, false, t->entry_time);
	len = fprintf(p->out, "%s)", t->entry_str);
	if (len < ARGS_ALIGNMENT - 4)
		fprintf(p->out, "%-*s", ARGS_ALIGNMENT - 4 - len, " ");
	fprintf(p->out, " ...\n");
	t->entry_pending = false;
	p->nr_printed++;
}

/* ")" after what was printed (len bytes, without it), padded, then "= ". */
static void print_alignment(struct trace_printer *p, int len)
{
	int alignment = ARGS_ALIGNMENT > len + 1 ? ARGS_ALIGNMENT - (len + 1) : 0;

	fprintf(p->out, ")%*s= ", alignment, " ");
}

static bool is_exit(const char *name)
{
	return name && (!strcmp(name, "exit_group") || !strcmp(name, "exit"));
}

static bool is_open(const char *name)
{
	return name && (!strcmp(name, "open") || !strcmp(name, "openat"));
}

static void print_enter(struct trace_printer *p, struct trace_thread *t,
		     const struct ember_syscall_rec *e)
{
	const char *name = ember_syscall__name(e->nr);
	struct ember_syscall_env env = env_of(p, t);
	int n;

	if (!(p->duration_ms > 0 || p->summary_only))
		print_interrupted(p);
	t->entry_time = e->time;
	t->nr = e->nr;
	if (!t->entry_str && !(t->entry_str = malloc(TRACE_ENTRY_STR_SIZE)))
		return;
	n = snprintf(t->entry_str, TRACE_ENTRY_STR_SIZE, "%s(", name);
	if (n > 0 && n < TRACE_ENTRY_STR_SIZE)
		ember_syscalls__scnprintf_args(p->syscalls, e->nr, e->args, e->strs, &env,
					       t->entry_str + n, TRACE_ENTRY_STR_SIZE - n);
	free(t->open_name);
	t->open_name = NULL;
	if (is_open(name)) {
		int i = !strcmp(name, "openat");

		if (e->strs[i])
			t->open_name = strdup(e->strs[i]);
	} else if (!strcmp(name, "close")) {
		trace_state__forget_fd(&p->state, t->pid, (int)e->args[0]);
	}
	if (is_exit(name)) {
		if (!(p->duration_ms > 0 || p->summary_only || p->failure_only)) {
			print_head(p, t, 0, false, t->entry_time);
			print_alignment(p, fprintf(p->out, "%s", t->entry_str));
			fprintf(p->out, "?\n");
			p->nr_printed++;
		}
		if (!strcmp(name, "exit_group"))
			trace_state__forget_fds(&p->state, t->pid);
		if (p->current == t)
			p->current = NULL;
		trace_thread__exit(t);
		return;
	}
	t->entry_pending = true;
	p->current = t;
}

/* A new program: its file and interpreter are where its frames will be. */
static void follow_exec(struct trace_printer *p, const struct ember_syscall_rec *enter,
			const struct ember_syscall_rec *exit)
{
	if (p->stacks && exit->ret == 0 && enter && enter->strs[0] &&
	    !strcmp(ember_syscall__name(exit->nr), "execve"))
		trace_stacks__add_exec(p->stacks, enter->strs[0]);
}

/* --call-graph: each frame under the line, as perf trace prints a sample's callchain. */
static void print_stack(struct trace_printer *p, const struct ember_syscall_rec *x)
{
	if (p->dwarf)
		trace_dwarf__fprintf(p->dwarf, x, p->out);
	for (int i = 0; p->stacks && i < x->nr_frames; i++) {
		fprintf(p->out, "%-39s", "");
		trace_stacks__fprintf(p->stacks, &x->frames[i], p->out);
	}
}

static void print_exit(struct trace_printer *p, struct trace_thread *t,
		    const struct ember_syscall_rec *enter, const struct ember_syscall_rec *x)
{
	const char *name = ember_syscall__name(x->nr);
	struct ember_syscall_env env = env_of(p, t);
	uint64_t duration = 0;
	bool duration_known = false;
	char ret[1024];
	int len;

	if (is_open(name) && x->ret >= 0 && t->open_name) {
		trace_state__set_fd(&p->state, t->pid, (int)x->ret, t->open_name);
		if (p->stacks)
			trace_stacks__add_file(p->stacks, t->open_name);
	}
	follow_exec(p, enter, x);
	if (t->entry_time) {
		duration = x->time - t->entry_time;
		if (duration < p->duration_ms * 1e6)
			goto out;
		duration_known = true;
	} else if (p->duration_ms > 0) {
		goto out;
	}
	if (p->summary_only || (x->ret >= 0 && p->failure_only))
		goto out;
	print_head(p, t, duration, duration_known, t->entry_time);
	if (t->entry_pending && t->entry_str)
		len = fprintf(p->out, "%s", t->entry_str);
	else
		len = fprintf(p->out, " ... [continued]: %s()", name ? name : "");
	ember_syscalls__scnprintf_ret(p->syscalls, x->nr, enter ? enter->args : NULL, x->ret,
				      &env, ret, sizeof(ret));
	print_alignment(p, len);
	fprintf(p->out, "%s\n", ret);
	p->nr_printed++;
	print_stack(p, x);
out:
	t->entry_pending = false;
}

/* An open, close, exec or exit_group not chosen (-e): only the fd paths and programs it changes. */
static void follow_fds(struct trace_printer *p, const struct ember_syscall_rec *enter,
		       const struct ember_syscall_rec *exit)
{
	const char *name = ember_syscall__name((exit ? exit : enter)->nr);

	if (exit)
		follow_exec(p, enter, exit);
	if (!exit) {
		if (!strcmp(name, "close"))
			trace_state__forget_fd(&p->state, enter->pid, (int)enter->args[0]);
		else if (!strcmp(name, "exit_group"))
			trace_state__forget_fds(&p->state, enter->pid);
		return;
	}
	if (enter && is_open(name) && exit->ret >= 0) {
		const char *file = enter->strs[!strcmp(name, "openat")];

		if (file)
			trace_state__set_fd(&p->state, exit->pid, (int)exit->ret, file);
		if (file && p->stacks)
			trace_stacks__add_file(p->stacks, file);
	}
}

/* The thread of an event at time (the first event's time is the base of all). */
static struct trace_thread *thread_at(struct trace_printer *p, pid_t pid, pid_t tid,
				      uint64_t time)
{
	if (!p->have_base) {
		p->base_time = p->full_time ? 0 : time;
		p->have_base = true;
	}
	return trace_state__thread(&p->state, pid, tid);
}

int trace_printer__event(void *ctx, const struct ember_syscall_rec *enter,
			 const struct ember_syscall_rec *exit)
{
	struct trace_printer *p = ctx;
	const struct ember_syscall_rec *e = exit ? exit : enter;
	struct trace_thread *t;

	if (e->nr == EMBER_SYSTRACE_EXEC) {
		/* perf names a thread as it is when a line is printed: after an exec, anew */
		t = trace_state__thread(&p->state, e->pid, e->tid);
		if (t)
			memcpy(t->comm, e->comm, sizeof(t->comm));
		return 0;
	}
	if (!ember_syscall__name(e->nr) || (p->max_events && p->nr_printed >= p->max_events))
		return 0;
	if (e->unchosen) {
		follow_fds(p, enter, exit);
		return 0;
	}
	t = thread_at(p, e->pid, e->tid, e->time);
	if (!t)
		return -1;
	memcpy(t->comm, e->comm, sizeof(t->comm));
	if (p->stacks)
		trace_stacks__see_pid(p->stacks, e->pid);
	if (p->dwarf)
		trace_dwarf__see_pid(p->dwarf, e->pid);
	if (exit)
		print_exit(p, t, enter, exit);
	else
		print_enter(p, t, enter);
	return 0;
}

int trace_printer__tracepoint(void *ctx, const struct ember_systrace_tp_rec *rec)
{
	struct trace_printer *p = ctx;
	struct trace_thread *t;
	struct ember_syscall_env env;
	char text[2048];

	if (!p->tps || (p->max_events && p->nr_printed >= p->max_events))
		return 0;
	t = thread_at(p, rec->pid, rec->tid, rec->time);
	if (!t)
		return -1;
	memcpy(t->comm, rec->comm, sizeof(t->comm));
	if (p->summary_only || p->failure_only || p->duration_ms > 0)
		return 0;
	print_interrupted(p);
	env = env_of(p, t);
	trace_tps__scnprintf(p->tps, rec, &env, text, sizeof(text));
	print_head(p, t, 0, false, rec->time);
	fprintf(p->out, "%s\n", text);
	p->nr_printed++;
	return 0;
}

int trace_printer__fault(void *ctx, const struct trace_fault *fault)
{
	struct trace_printer *p = ctx;
	struct trace_thread *t;

	t = thread_at(p, fault->pid, fault->tid, fault->time);
	if (!t)
		return -1;
	/* perf names the thread from its comm records, as the fault's place */
	snprintf(t->comm, sizeof(t->comm), "%s", fault->comm);
	/* counted for -s even when not shown, as perf's pfmaj and pfmin */
	if (fault->major)
		t->pfmaj++;
	else
		t->pfmin++;
	/* --duration and --failure are the syscalls' filters: perf shows every fault */
	if (p->summary_only || (p->max_events && p->nr_printed >= p->max_events))
		return 0;
	/* a fault does not print a pending entry first: perf trace's pgfault handler does not */
	print_head(p, t, 0, true, fault->time);
	fprintf(p->out, "%s\n%s", fault->text, fault->chain ? fault->chain : "");
	p->nr_printed++;
	return 0;
}
