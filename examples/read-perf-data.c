// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Read a perf.data (perf's or ember's) and print its samples per symbol,
 * as `perf report --stdio --sort sym -q` ranks them: the session hands
 * each sample over in time order, its ip already resolved against the
 * machine the file's side-band records built.
 *
 *   cc read-perf-data.c $(pkg-config --cflags --libs libember) -o read-perf-data
 *   ./read-perf-data [perf.data]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ember/session.h>

#define MAX_SYMS 4096

struct sym_count {
	char name[128];
	uint64_t period;
};

struct counts {
	struct sym_count syms[MAX_SYMS];
	int nr;
	uint64_t total;
};

static int on_sample(struct ember_session *s __attribute__((unused)),
		     const struct ember_session_sample *ss, void *ctx)
{
	struct counts *c = ctx;
	const char *name = ss->al.sym_name ? ss->al.sym_name : "[unknown]";
	uint64_t period = ss->sample->period ? ss->sample->period : 1;
	int i;

	c->total += period;
	for (i = 0; i < c->nr; i++)
		if (!strcmp(c->syms[i].name, name))
			break;
	if (i == c->nr) {
		if (c->nr == MAX_SYMS)
			return 0;
		snprintf(c->syms[c->nr++].name, sizeof(c->syms[0].name), "%s", name);
	}
	c->syms[i].period += period;
	return 0;
}

static int by_period(const void *a, const void *b)
{
	const struct sym_count *x = a, *y = b;

	return x->period < y->period ? 1 : x->period > y->period ? -1 : 0;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "perf.data";
	struct ember_session_ops ops = { .sample = on_sample };
	struct counts *c = calloc(1, sizeof(*c));
	struct ember_session *s = ember_session__open(path, NULL);
	int err;

	if (!s) {
		perror(path);
		return 1;
	}
	err = ember_session__process(s, &ops, c);
	if (err < 0)
		fprintf(stderr, "%s: %s (what was read before is shown)\n", path, strerror(-err));
	qsort(c->syms, c->nr, sizeof(c->syms[0]), by_period);
	for (int i = 0; i < c->nr && i < 10; i++)
		printf("%7.2f%%  %s\n", 100.0 * c->syms[i].period / c->total, c->syms[i].name);
	ember_session__delete(s);
	free(c);
	return err < 0;
}
