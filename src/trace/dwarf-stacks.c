// SPDX-License-Identifier: GPL-2.0-only
/* --call-graph dwarf's frames (see dwarf-stacks.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <asm/perf_regs.h>
#include <linux/perf_event.h>
#include <ember/event.h>
#include <ember/machine.h>
#include <ember/mmap.h>
#include <ember/session.h>
#include "core/hashtab.h"
#include "trace/dwarf-stacks.h"
#include "trace/stacks.h"

/* perf trace's default --max-stack with --call-graph: the kernel's perf_event_max_stack. */
#define MAX_FRAMES 127
/* Inline levels shown at most per frame. */
#define MAX_LEVELS 64
/* The side-band ring buffer's data pages: mmaps, comms, forks of a command. */
#define SIDEBAND_PAGES 64

struct trace_dwarf {
	struct ember_symbolizer *symbolizer;	/* the processes' maps, their files' symbols */
	struct ember_stack_unwinder *unwinder;	/* and the frames' inline levels */
	struct ember_evlist *sideband;		/* a command's mmaps since its exec, or NULL */
	struct hashtab pids;			/* hash of a pid -> 1: its maps read once */
	uint64_t ips[MAX_FRAMES];
	struct ember_addr_location levels[MAX_LEVELS];
};

struct trace_dwarf *trace_dwarf__new(void)
{
	struct ember_symbol_opts opts = { .sz = sizeof(opts) };
	struct trace_dwarf *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->symbolizer = ember_symbolizer__new(&opts);
	d->unwinder = ember_stack_unwinder__new();
	if (!d->symbolizer || !d->unwinder) {
		trace_dwarf__delete(d);
		return NULL;
	}
	return d;
}

void trace_dwarf__delete(struct trace_dwarf *d)
{
	if (!d)
		return;
	ember_evlist__delete(d->sideband);
	hashtab__exit(&d->pids);
	ember_stack_unwinder__delete(d->unwinder);
	ember_symbolizer__delete(d->symbolizer);
	free(d);
}

int trace_dwarf__follow_command(struct trace_dwarf *d, pid_t pid)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
		.sample_id_all = 1,
		.mmap = 1,
		.mmap2 = 1,
		.comm = 1,
		.comm_exec = 1,
		.task = 1,
		.inherit = 1,
		.disabled = 1,
		.enable_on_exec = 1,
		.exclude_kernel = 1,
	};
	struct ember_cpu_map *cpus;
	struct ember_thread_map *threads;
	int err;

	d->sideband = ember_evlist__new();
	if (!d->sideband || !ember_evlist__add_attr(d->sideband, &attr, "dummy:u"))
		return -ENOMEM;
	/* the kernel maps no buffer for an inherited event on any cpu: one per cpu */
	cpus = ember_cpu_map__new(NULL);
	threads = ember_thread_map__new_pid(pid);
	if (cpus && threads)
		ember_evlist__set_maps(d->sideband, cpus, threads);
	ember_cpu_map__put(cpus);
	ember_thread_map__put(threads);
	if (!cpus || !threads)
		return -ENOMEM;
	err = ember_evlist__open(d->sideband);
	if (!err)
		err = ember_evlist__mmap(d->sideband, SIDEBAND_PAGES);
	if (err) {
		ember_evlist__delete(d->sideband);
		d->sideband = NULL;
	}
	return err;
}

/* What the command's side band says since last time, into the machine. */
static void drain_sideband(struct trace_dwarf *d)
{
	struct ember_machine *machine = ember_symbolizer__machine(d->symbolizer);
	int n = d->sideband ? ember_evlist__nr_mmaps(d->sideband) : 0;

	for (int i = 0; i < n; i++) {
		struct ember_mmap *map = ember_evlist__mmap_at(d->sideband, i);
		const struct perf_event_header *hdr;

		if (!ember_mmap__read_init(map))
			continue;
		while ((hdr = ember_mmap__read_event(map)))
			ember_machine__process_event(machine, hdr);
		ember_mmap__read_done(map);
	}
}

void trace_dwarf__see_pid(struct trace_dwarf *d, pid_t pid)
{
	struct ember_addr_location al;

	if (!trace_pids__first(&d->pids, pid))
		return;
	/* the first look-up in a process reads its maps: any address does */
	ember_symbolizer__resolve(d->symbolizer, pid, 0, &al);
}

/* One frame as perf trace's sample__fprintf_callchain() prints it, under the line. */
static void print_frame(const struct ember_addr_location *al, FILE *out)
{
	fprintf(out, "%-39s", "");
	if (al->sym_name)
		fputs(al->sym_name, out);
	else
		fprintf(out, "[%#" PRIx64 "]", al->addr);
	if (al->inlined)
		fputs(" (inlined)\n", out);
	else
		fprintf(out, " (%s)\n", al->dso_name ? al->dso_name : "[unknown]");
}

int trace_dwarf__fprintf(struct trace_dwarf *d, const struct ember_syscall_rec *exit, FILE *out)
{
	struct ember_machine *machine = ember_symbolizer__machine(d->symbolizer);
	struct ember_sample sm = { 0 };
	struct ember_addr_location al;
	struct ember_thread *thread;
	uint64_t ip;
	int n;

	/* perf unwinds only a sample whose stack copy has bytes in it */
	if (!exit->user_regs || !exit->user_stack_size)
		return 0;
	sm.pid = exit->pid;
	sm.tid = exit->tid;
	sm.user_regs.abi = PERF_SAMPLE_REGS_ABI_64;
	sm.user_regs.mask = exit->user_regs_mask;
	sm.user_regs.nr = exit->nr_user_regs;
	sm.user_regs.regs = exit->user_regs;
	sm.user_stack.size = exit->user_stack_size;
	sm.user_stack.data = exit->user_stack;
	sm.user_stack.dyn_size = exit->user_stack_size;
	if (!ember_sample_regs__value(&sm.user_regs, PERF_REG_X86_IP, &ip) || !ip)
		return 0;
	drain_sideband(d);
	/* the maps read (again when the ip is outside them: a library loaded since) */
	ember_symbolizer__resolve(d->symbolizer, exit->pid, ip, &al);
	thread = ember_machine__find_thread(machine, exit->pid, exit->pid);
	if (!thread)
		return 0;
	n = ember_stack_unwinder__unwind(d->unwinder, thread, &sm, d->ips, MAX_FRAMES);
	for (int i = 0; i < n; i++) {
		int nr;

		ember_thread__resolve(thread, PERF_RECORD_MISC_USER, d->ips[i], &al);
		nr = ember_stack_unwinder__inline_frames(d->unwinder, machine, &al, d->levels, MAX_LEVELS);
		if (nr < 0)
			return nr;
		if (!nr)
			print_frame(&al, out);
		for (int k = 0; k < nr; k++)
			print_frame(&d->levels[k], out);
	}
	return n < 0 ? n : 0;
}
