// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Stacks counted in the kernel, printed as folded stacks: a BPF program on
 * cpu-clock (99 Hz on every cpu) counts samples per (process, user stack,
 * kernel stack) in a map; at the end each stack is symbolised and printed
 * as a flame graph's input line, "comm;outer;...;inner COUNT" (kernel
 * frames last, with perf's _[k] suffix).
 *
 *   ./stacks [SECONDS] [PID]         ./stacks 5 | ember flamegraph -o x.svg
 *
 * Needs root (or CAP_PERFMON and CAP_BPF).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <ember/bpf.h>
#include <ember/machine.h>
#include "stacks.h"
#include "stacks.skel.h"

/* The frames of one stack id, outermost first, each ";name" (with _[k] for the kernel). */
static void print_stack(int map_fd, int id, pid_t pid, struct ember_symbolizer *sym, bool kernel)
{
	uint64_t ips[STACKS_MAX_DEPTH];
	int nr = id < 0 ? 0 : ember_bpf__stack(map_fd, id, ips, STACKS_MAX_DEPTH);

	for (int i = nr - 1; i >= 0; i--) {
		struct ember_addr_location al;

		if (ember_symbolizer__resolve(sym, pid, ips[i], &al) == 0)
			printf(";%s%s", al.sym_name, kernel ? "_[k]" : "");
		else
			printf(";[unknown]");
	}
}

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 1;
	pid_t pid = argc > 2 ? atoi(argv[2]) : 0;
	char errbuf[512] = "";
	struct ember_bpf_perf_opts opts = {
		.sz = sizeof(opts), .pid = -1, .errbuf = errbuf, .errbuf_size = sizeof(errbuf),
	};
	struct ember_symbolizer *sym = ember_symbolizer__new(NULL);
	struct stacks_key key, next, *prev = NULL;
	struct ember_bpf_perf *events;
	struct stacks *skel;
	int counts_fd, stacks_fd;

	ember_bpf__route_log();
	skel = stacks__open();
	if (!skel || !sym)
		return 1;
	skel->rodata->target_pid = pid;
	if (stacks__load(skel)) {
		fprintf(stderr, "stacks: %s\n", ember_bpf__strerror(-errno, errbuf, sizeof(errbuf)));
		return 1;
	}
	/* perf's syntax: any event ember parses, here 99 samples a second */
	events = ember_bpf_perf__attach_event(bpf_program__fd(skel->progs.sample),
					      "cpu-clock/freq=99/", &opts);
	if (!events) {
		fprintf(stderr, "stacks: %s\n", errbuf);
		return 1;
	}
	sleep(seconds);
	ember_bpf_perf__detach(events);

	counts_fd = bpf_map__fd(skel->maps.counts);
	stacks_fd = bpf_map__fd(skel->maps.stack_ids);
	while (bpf_map_get_next_key(counts_fd, prev, &next) == 0) {
		uint64_t n;

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(counts_fd, &key, &n))
			continue;
		printf("%.16s", key.comm);
		print_stack(stacks_fd, key.user_stack, key.pid, sym, false);
		print_stack(stacks_fd, key.kernel_stack, key.pid, sym, true);
		printf(" %" PRIu64 "\n", n);
	}
	ember_symbolizer__delete(sym);
	stacks__destroy(skel);
	return 0;
}
