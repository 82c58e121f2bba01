// SPDX-License-Identifier: GPL-2.0-only
/*
 * session-tool: a small SDK program over <ember/session.h>, for tests.
 *
 *   session-tool samples FILE   each sample as perf script -F comm,tid,time,ip,sym,symoff,dso
 *                               --ns prints it (spaces squeezed): "comm tid s.ns:" then one
 *                               "\tip sym+0xoff (dso)" line per callchain entry (or the ip)
 *   session-tool order FILE     "type time" per delivered record, to check the ordering
 *   session-tool stats FILE     the session's counts, then its warnings
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ember/ember.h>

static void print_al(const struct ember_addr_location *al)
{
	printf("\t%" PRIx64 " ", al->ip);
	if (al->sym)
		printf("%s+0x%" PRIx64, al->sym_name, al->sym_off);
	else
		printf("[unknown]");
	printf(" (%s)\n", al->map ? al->dso_name : "[unknown]");
}

static int print_sample(struct ember_session *s, const struct ember_session_sample *ss, void *ctx)
{
	const struct ember_addr_location *chain;
	uint64_t invalid = ember_session__stats(s)->nr_invalid_callchains;
	int n = ember_session__callchain(s, ss, &chain);
	/* A chain discarded for a bad marker: perf script prints no line at all. */
	bool discarded = ember_session__stats(s)->nr_invalid_callchains != invalid;

	printf("%s %d %" PRIu64 ".%09" PRIu64 ":\n", ss->al.comm, (int)ss->sample->tid,
	       ss->sample->time / 1000000000, ss->sample->time % 1000000000);
	if (n < 0)
		return n;
	if (!n && !discarded)
		print_al(&ss->al);
	for (int i = 0; i < n; i++)
		print_al(&chain[i]);
	printf("\n");
	return 0;
}

static int order_sample(struct ember_session *s, const struct ember_session_sample *ss, void *ctx)
{
	printf("%u %" PRIu64 "\n", ss->hdr->type, ss->sample->time);
	return 0;
}

static int order_record(struct ember_session *s, const struct ember_data_record *rec,
			const struct ember_sample *id, void *ctx)
{
	printf("%u %" PRIu64 "\n", rec->hdr->type, id ? id->time : 0);
	return 0;
}

int main(int argc, char **argv)
{
	struct ember_session_opts opts = { .sz = sizeof(opts) };
	struct ember_session_ops ops = { 0 };
	const struct ember_session_stats *st;
	struct ember_session *s;
	int ret;

	if (argc != 3) {
		fprintf(stderr, "usage: session-tool samples|order|stats FILE\n");
		return 2;
	}
	s = ember_session__open(argv[2], &opts);
	if (!s) {
		fprintf(stderr, "session-tool: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	if (!strcmp(argv[1], "samples")) {
		ops.sample = print_sample;
	} else if (!strcmp(argv[1], "order")) {
		ops.sample = order_sample;
		ops.record = order_record;
	}
	ret = ember_session__process(s, &ops, NULL);
	st = ember_session__stats(s);
	if (!strcmp(argv[1], "stats")) {
		printf("records %" PRIu64 "\nsamples %" PRIu64 "\nlost %" PRIu64 "\n"
		       "unknown %" PRIu64 "\ninvalid %" PRIu64 "\nunordered %" PRIu64 "\n"
		       "truncated %d\n",
		       st->nr_records, st->nr_samples, st->nr_lost, st->nr_unknown,
		       st->nr_invalid_samples, st->nr_unordered, st->truncated);
		for (uint32_t i = 0; i < st->nr_events; i++)
			printf("event %u %" PRIu64 " %" PRIu64 "\n", i, st->events[i].nr_samples,
			       st->events[i].total_period);
	}
	ember_session__fprintf_warnings(s, stderr);
	ember_session__delete(s);
	if (ret) {
		fprintf(stderr, "session-tool: %s: %s\n", argv[2], strerror(ret < 0 ? -ret : ret));
		return 1;
	}
	return 0;
}
