// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The text of tracepoint samples for perf report's trace key. Every
 * sample is printed (its fields differ from sample to sample), but a
 * recording repeats few texts: each distinct one is kept once, so that
 * entries compare by pointer and a million samples do not make a
 * million strings.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hist/tracekey.h"
#include "symbol/strpool.h"

struct hist_traces {
	struct strpool pool;
	const char **slots;	/* open addressing, NULL: free */
	uint64_t *hashes;
	size_t mask, nr;
	char *buf;
	size_t bufsz;
};

struct hist_traces *hist_traces__new(void)
{
	struct hist_traces *tr = calloc(1, sizeof(*tr));

	if (!tr)
		return NULL;
	tr->mask = 255;
	tr->slots = calloc(tr->mask + 1, sizeof(*tr->slots));
	tr->hashes = calloc(tr->mask + 1, sizeof(*tr->hashes));
	tr->bufsz = 4096;
	tr->buf = malloc(tr->bufsz);
	if (!tr->slots || !tr->hashes || !tr->buf) {
		hist_traces__delete(tr);
		return NULL;
	}
	return tr;
}

void hist_traces__delete(struct hist_traces *tr)
{
	if (!tr)
		return;
	strpool__exit(&tr->pool);
	free(tr->slots);
	free(tr->hashes);
	free(tr->buf);
	free(tr);
}

static uint64_t str_hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}

static int grow(struct hist_traces *tr)
{
	size_t nmask = tr->mask * 2 + 1;
	const char **ns = calloc(nmask + 1, sizeof(*ns));
	uint64_t *nh = calloc(nmask + 1, sizeof(*nh));

	if (!ns || !nh) {
		free(ns);
		free(nh);
		return -ENOMEM;
	}
	for (size_t i = 0; i <= tr->mask; i++) {
		size_t j;

		if (!tr->slots[i])
			continue;
		for (j = tr->hashes[i] & nmask; ns[j]; j = (j + 1) & nmask)
			;
		ns[j] = tr->slots[i];
		nh[j] = tr->hashes[i];
	}
	free(tr->slots);
	free(tr->hashes);
	tr->slots = ns;
	tr->hashes = nh;
	tr->mask = nmask;
	return 0;
}

const char *hist_traces__get(struct hist_traces *tr, struct ember_trace *t, int cpu,
			     const void *raw, size_t raw_size)
{
	int n = t ? ember_trace__snprintf(t, cpu, raw, raw_size, tr->buf, tr->bufsz) : -ENOENT;
	const char *s;
	uint64_t h;
	size_t i;

	if (n >= (int)tr->bufsz) {
		char *b = realloc(tr->buf, n + 1);

		if (!b)
			return NULL;
		tr->buf = b;
		tr->bufsz = n + 1;
		n = ember_trace__snprintf(t, cpu, raw, raw_size, tr->buf, tr->bufsz);
	}
	if (n == -ENOMEM)
		return NULL;
	if (n < 0)
		n = 0;
	tr->buf[n] = '\0';
	h = str_hash(tr->buf, n);
	for (i = h & tr->mask; (s = tr->slots[i]); i = (i + 1) & tr->mask)
		if (tr->hashes[i] == h && !strcmp(s, tr->buf))
			return s;
	s = strpool__add(&tr->pool, tr->buf, n);
	if (!s)
		return NULL;
	tr->slots[i] = s;
	tr->hashes[i] = h;
	if (++tr->nr * 2 > tr->mask && grow(tr))
		return NULL;
	return s;
}
