// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Page faults per process, counted in the kernel: a BPF program on the
 * page-faults software event of every cpu (the event described by an
 * attr, as coolbpf's {"type": SOFTWARE, "config": PAGE_FAULTS}), a hash
 * map of pid -> faults read at the end. Nothing per fault reaches user
 * space.
 *
 *   ./pagefaults [SECONDS] [-- COMMAND...]
 *
 * With a command, counts while it runs (and prints its pid first).
 * Needs root (or CAP_PERFMON and CAP_BPF).
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <linux/perf_event.h>
#include <bpf/bpf.h>
#include <ember/bpf.h>
#include "pagefaults.skel.h"

static void comm_of(uint32_t pid, char *buf, size_t size)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	snprintf(buf, size, "?");
	f = fopen(path, "re");
	if (f && fgets(buf, size, f))
		buf[strcspn(buf, "\n")] = '\0';
	if (f)
		fclose(f);
}

static pid_t run(char **argv)
{
	pid_t pid = fork();

	if (pid == 0) {
		execvp(argv[0], argv);
		_exit(127);
	}
	return pid;
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_PAGE_FAULTS,
		.sample_period = 1,	/* the program runs at every fault */
	};
	char errbuf[512] = "";
	struct ember_bpf_perf_opts opts = {
		.sz = sizeof(opts), .pid = -1, .errbuf = errbuf, .errbuf_size = sizeof(errbuf),
	};
	struct pagefaults *skel;
	struct ember_bpf_perf *events;
	uint32_t key, next, *prev = NULL;
	int seconds = argc > 1 && strcmp(argv[1], "--") ? atoi(argv[1]) : 1, i;
	pid_t child = 0;

	ember_bpf__route_log();
	skel = pagefaults__open_and_load();
	if (!skel) {
		fprintf(stderr, "pagefaults: %s\n", ember_bpf__strerror(-errno, errbuf, sizeof(errbuf)));
		return 1;
	}
	events = ember_bpf_perf__attach_attr(bpf_program__fd(skel->progs.count_fault), &attr, &opts);
	if (!events) {
		fprintf(stderr, "pagefaults: %s\n", errbuf);
		pagefaults__destroy(skel);
		return 1;
	}
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--") && i + 1 < argc) {
			child = run(argv + i + 1);
			printf("# pid %d: %s\n", child, argv[i + 1]);
			waitpid(child, NULL, 0);
			break;
		}
	if (!child)
		sleep(seconds);
	ember_bpf_perf__detach(events);

	printf("%8s %-16s %10s\n", "PID", "COMM", "FAULTS");
	while (bpf_map_get_next_key(bpf_map__fd(skel->maps.faults), prev, &next) == 0) {
		uint64_t n;
		char comm[32];

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(bpf_map__fd(skel->maps.faults), &key, &n))
			continue;
		comm_of(key, comm, sizeof(comm));
		printf("%8u %-16s %10" PRIu64 "\n", key, comm, n);
	}
	pagefaults__destroy(skel);
	return 0;
}
