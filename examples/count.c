// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Count events around one function, as `perf stat -e EVENTS` would count
 * them for a program that is only that function.
 *
 *   cc count.c $(pkg-config --cflags --libs libember) -o count
 *   ./count ["task-clock,page-faults,context-switches"] [PAGES]
 *
 * The function touches PAGES fresh pages (default 256), so page-faults
 * counts at least that many.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <ember/event.h>

static void work(long pages)
{
	long size = pages * sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return;
	for (long off = 0; off < size; off += sysconf(_SC_PAGESIZE))
		p[off] = 1;	/* one page fault a page */
	munmap(p, size);
}

int main(int argc, char **argv)
{
	const char *events = argc > 1 ? argv[1] : "task-clock,page-faults,context-switches";
	long pages = argc > 2 ? atol(argv[2]) : 256;
	struct ember_evlist *evlist = ember_evlist__new();
	struct ember_parse_error perr = { 0 };
	struct ember_thread_map *self = ember_thread_map__new_pid(getpid());
	struct ember_cpu_map *any = ember_cpu_map__new_any();
	struct ember_evsel *evsel;
	char msg[512];
	int err;

	if (!evlist || !self || !any)
		return 1;
	err = ember_evlist__parse_events(evlist, events, &perr);
	if (err) {
		ember_parse_error__snprintf(&perr, 0, msg, sizeof(msg));
		fputs(msg, stderr);
		return 1;
	}
	ember_evlist__set_maps(evlist, any, self);
	/* counting starts disabled (as perf stat's), enabled just around the work */
	ember_evlist__for_each(evlist, evsel)
		ember_evsel__attr(evsel)->disabled = 1;
	err = ember_evlist__open(evlist);
	if (err) {
		fprintf(stderr, "count: %s\n",
			ember_evsel__strerror_open(ember_evlist__failed(evlist), err, msg, sizeof(msg)));
		return 1;
	}
	ember_evlist__enable(evlist);
	work(pages);
	ember_evlist__disable(evlist);

	ember_evlist__for_each(evlist, evsel) {
		struct ember_counts c;

		if (ember_evsel__read(evsel, 0, 0, &c))
			printf("%20s  %s\n", "<not counted>", ember_evsel__name(evsel));
		else
			printf("%20" PRIu64 "  %s\n", c.val, ember_evsel__name(evsel));
	}
	ember_evlist__delete(evlist);
	ember_thread_map__put(self);
	ember_cpu_map__put(any);
	return 0;
}
