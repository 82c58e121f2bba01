// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "symbol/symbol.h"

/* How many earlier symbols a lookup checks for one that encloses addr. */
#define SYMTAB_NESTED_LOOKBACK 4

int symtab__add(struct symtab *t, uint64_t start, uint64_t len, uint8_t binding, uint8_t type,
		const char *name, size_t namelen)
{
	struct ember_symbol *s;

	if (t->nr == t->alloc) {
		size_t alloc = t->alloc ? t->alloc * 2 : 256;
		struct ember_symbol *syms = realloc(t->syms, alloc * sizeof(*syms));

		if (!syms)
			return -ENOMEM;
		t->syms = syms;
		t->alloc = alloc;
	}
	s = &t->syms[t->nr];
	s->name = strpool__add(&t->names, name, namelen);
	if (!s->name)
		return -ENOMEM;
	s->start = start;
	s->end = start + len;
	s->seq = t->nr;
	s->binding = binding;
	s->type = type;
	t->nr++;
	return 0;
}

static int symbol__cmp(const void *a, const void *b)
{
	const struct ember_symbol *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void symtab__sort(struct symtab *t)
{
	qsort(t->syms, t->nr, sizeof(*t->syms), symbol__cmp);
	for (size_t i = 0; i < t->nr; i++)
		t->syms[i].seq = i;
	t->nr_sorted = t->nr;
}

static uint64_t roundup_page(uint64_t x)
{
	return (x + 4095) / 4096 * 4096;
}

void symtab__fixup_end(struct symtab *t, bool is_kallsyms)
{
	struct ember_symbol *prev, *curr;

	if (!t->nr)
		return;
	for (size_t i = 1; i < t->nr; i++) {
		prev = &t->syms[i - 1];
		curr = &t->syms[i];
		if (prev->end != prev->start)
			continue;
		if (is_kallsyms && !strchr(prev->name, '[') != !strchr(curr->name, '['))
			prev->end = roundup_page(prev->end + 4096);
		else
			prev->end = curr->start;
	}
	curr = &t->syms[t->nr - 1];
	if (curr->end == curr->start)
		curr->end = roundup_page(curr->start) + 4096;
}

static size_t prefix_underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* perf's choose_best_symbol(): true when b should replace a. */
static bool symbol__better(const struct ember_symbol *a, const struct ember_symbol *b)
{
	uint64_t la = a->end - a->start, lb = b->end - b->start;
	size_t na, nb;
	bool x, y;

	if (lb == 0 && la > 0)
		return false;
	if (la == 0 && lb > 0)
		return true;
	x = a->binding == STB_WEAK;
	y = b->binding == STB_WEAK;
	if (x != y)
		return x;
	x = a->binding == STB_GLOBAL;
	y = b->binding == STB_GLOBAL;
	if (x != y)
		return y;
	na = prefix_underscores(a->name);
	nb = prefix_underscores(b->name);
	if (na != nb)
		return nb < na;
	na = strlen(a->name);
	nb = strlen(b->name);
	return nb > na;
}

void symtab__fixup_duplicate(struct symtab *t)
{
	size_t w = 0;

	for (size_t i = 0; i < t->nr; i++) {
		if (w && t->syms[w - 1].start == t->syms[i].start) {
			if (symbol__better(&t->syms[w - 1], &t->syms[i]))
				t->syms[w - 1] = t->syms[i];
			continue;
		}
		t->syms[w++] = t->syms[i];
	}
	t->nr = w;
	if (t->nr_sorted > w)
		t->nr_sorted = w;
}

static bool symbol__contains(const struct ember_symbol *s, uint64_t addr)
{
	return addr >= s->start && (addr < s->end || addr == s->start);
}

const struct ember_symbol *symtab__find(const struct symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nr_sorted;

	/* The last symbol starting at or before addr... */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* ...or, when addr is past its end, one just before that encloses it. */
	for (size_t n = 0; lo > 0 && n < SYMTAB_NESTED_LOOKBACK; lo--, n++) {
		if (symbol__contains(&t->syms[lo - 1], addr))
			return &t->syms[lo - 1];
	}
	return NULL;
}

void symtab__exit(struct symtab *t)
{
	free(t->syms);
	strpool__exit(&t->names);
	memset(t, 0, sizeof(*t));
}
