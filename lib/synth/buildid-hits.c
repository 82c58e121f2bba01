// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Which executable maps a recording's samples hit (see buildid-hits.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/hash.h"
#include "core/hashtab.h"
#include "synth/buildid-hits.h"

#define PAGE_MASK_BITS	12
#define PAGE_START(a)	((a) & ~((1ULL << PAGE_MASK_BITS) - 1))
/* A page's key: its address with the low bit saying kernel mode. Never 0 for a real page. */
#define KEY_KERNEL	1ULL

struct bid_map {
	uint64_t start, end;
	uint32_t file;
	bool kernel;
};

struct bid_hits {
	struct hashtab pages;	/* page keys (the values) by hash_mix64(key), a bijection */
	uint64_t last;		/* the key added last: most samples repeat it */

	struct bid_map *maps;
	size_t nr_maps, cap_maps;
};

struct bid_hits *bid_hits__new(void)
{
	return calloc(1, sizeof(struct bid_hits));
}

void bid_hits__delete(struct bid_hits *h)
{
	if (!h)
		return;
	hashtab__exit(&h->pages);
	free(h->maps);
	free(h);
}

int bid_hits__add_map(struct bid_hits *h, uint64_t start, uint64_t len, uint32_t file,
		      bool kernel)
{
	if (!len)
		return 0;
	if (h->nr_maps == h->cap_maps) {
		size_t cap = h->cap_maps ? h->cap_maps * 2 : 64;
		struct bid_map *m = realloc(h->maps, cap * sizeof(*m));

		if (!m)
			return -ENOMEM;
		h->maps = m;
		h->cap_maps = cap;
	}
	h->maps[h->nr_maps++] = (struct bid_map){
		.start = start,
		/* a map to the top of the address space (the kernel's) ends there */
		.end = start + len < start ? UINT64_MAX : start + len,
		.file = file,
		.kernel = kernel,
	};
	return 0;
}

int bid_hits__add_ip(struct bid_hits *h, uint64_t ip, bool kernel)
{
	uint64_t key = PAGE_START(ip) | (kernel ? KEY_KERNEL : 0), hash = hash_mix64(key);
	struct hashtab_slot *s;

	if (key == h->last || !key)
		return 0;
	h->last = key;
	if (hashtab__reserve(&h->pages, 1))
		return -ENOMEM;
	s = hashtab__slot(&h->pages, hash, hashtab__eq_hash, NULL);
	if (!s->val)
		hashtab__fill(&h->pages, s, hash, key);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The first of pages[0..n) at or above `at`. */
static size_t lower_bound(const uint64_t *pages, size_t n, uint64_t at)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pages[mid] < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int bid_hits__resolve(struct bid_hits *h, bool *hit, size_t nr_files)
{
	struct hashtab_slot *s;
	uint64_t *pages[2];	/* user, kernel: sorted page addresses */
	size_t nr[2] = { 0, 0 };
	bool *claimed;		/* kernel pages inside some kernel map */
	int kernel_image = 0;

	pages[0] = malloc((h->pages.nr + 1) * sizeof(uint64_t));
	pages[1] = malloc((h->pages.nr + 1) * sizeof(uint64_t));
	claimed = calloc(h->pages.nr + 1, sizeof(*claimed));
	if (!pages[0] || !pages[1] || !claimed) {
		kernel_image = -ENOMEM;
		goto out;
	}
	hashtab__for_each(&h->pages, s) {
		int k = (s->val & KEY_KERNEL) != 0;

		pages[k][nr[k]++] = s->val & ~KEY_KERNEL;
	}
	qsort(pages[0], nr[0], sizeof(uint64_t), cmp_u64);
	qsort(pages[1], nr[1], sizeof(uint64_t), cmp_u64);

	for (size_t i = 0; i < h->nr_maps; i++) {
		const struct bid_map *m = &h->maps[i];
		int k = m->kernel;
		size_t j = lower_bound(pages[k], nr[k], PAGE_START(m->start));

		if (j == nr[k] || pages[k][j] >= m->end)
			continue;
		if (m->file < nr_files)
			hit[m->file] = true;
		for (; k && j < nr[k] && pages[k][j] < m->end; j++)
			claimed[j] = true;
	}
	for (size_t j = 0; j < nr[1] && !kernel_image; j++)
		kernel_image = !claimed[j];
out:
	free(pages[0]);
	free(pages[1]);
	free(claimed);
	return kernel_image;
}
