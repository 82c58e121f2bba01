// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "symbol/symbol.h"
#include "symbol/symbol-tree.h"

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
	s->seq = t->nr_added++;
	s->binding = binding;
	s->type = type;
	s->demangle = DEMANGLE_NONE;
	s->name_owned = false;
	t->nr++;
	return 0;
}

/*
 * The names libiberty's cplus_demangle() (no style option: Rust, then the
 * C++ ABI) can demangle all start so: "_R" (Rust v0), "_Z" (C++ and Rust
 * legacy), "_GLOBAL_" (C++ static constructors and destructors).
 */
static bool name__maybe_mangled(const char *s)
{
	return s[0] == '_' && (s[1] == 'Z' || s[1] == 'R' || !strncmp(s + 1, "GLOBAL_", 7));
}

void symtab__demangle_last_lazily(struct symtab *t, enum demangle_mode mode)
{
	struct ember_symbol *s = &t->syms[t->nr - 1];

	if (mode != DEMANGLE_NONE && name__maybe_mangled(s->name))
		s->demangle = mode;
}

const char *symbol__name_demangle(const struct ember_symbol *sym)
{
	/* The table is not const to its owner: only the name's cache changes. */
	struct ember_symbol *s = (struct ember_symbol *)sym;
	char *d;

	if (s->demangle == DEMANGLE_NONE)
		return s->name;
	d = demangle_sym(s->name, s->demangle);
	s->demangle = DEMANGLE_NONE;
	if (d) {
		s->name = d;
		s->name_owned = true;
	}
	return s->name;
}

static void symbol__free_name(struct ember_symbol *s)
{
	if (s->name_owned)
		free((char *)s->name);
	s->name_owned = false;
}

static int symbol__cmp(const void *a, const void *b)
{
	const struct ember_symbol *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void symtab__drop_spans(struct symtab *t)
{
	free(t->spans);
	t->spans = NULL;
	t->nr_spans = 0;
}

/*
 * Merges the sorted tail syms[head, nr) into the sorted syms[0, head),
 * from the back; the tail came later, so on equal starts it goes after.
 */
static int symtab__merge_tail(struct symtab *t, size_t head)
{
	size_t nr_tail = t->nr - head, i = head, j = nr_tail, k = t->nr;
	struct ember_symbol *tail = malloc(nr_tail * sizeof(*tail));

	if (!tail)
		return -ENOMEM;
	memcpy(tail, t->syms + head, nr_tail * sizeof(*tail));
	while (j > 0) {
		if (i > 0 && symbol__cmp(&t->syms[i - 1], &tail[j - 1]) > 0)
			t->syms[--k] = t->syms[--i];
		else
			t->syms[--k] = tail[--j];
	}
	free(tail);
	return 0;
}

static bool symtab__is_sorted(const struct ember_symbol *syms, size_t nr)
{
	for (size_t i = 1; i < nr; i++) {
		if (symbol__cmp(&syms[i - 1], &syms[i]) > 0)
			return false;
	}
	return true;
}

static inline bool symbol__less(const struct ember_symbol *a, const struct ember_symbol *b)
{
	return a->start < b->start || (a->start == b->start && a->seq < b->seq);
}

/*
 * Merge sort of syms[0, n) by (start, seq) with the comparison inlined:
 * qsort()'s call per comparison was most of a binary's load after the
 * demangling. tmp holds n / 2 symbols: the first half is moved there and
 * merged back with the second in place.
 */
static void symbols__msort(struct ember_symbol *a, struct ember_symbol *tmp, size_t n)
{
	size_t m = n / 2, i = 0, j = m, k = 0;

	if (n <= 16) {
		for (size_t x = 1; x < n; x++) {
			struct ember_symbol v = a[x];
			size_t y = x;

			for (; y > 0 && symbol__less(&v, &a[y - 1]); y--)
				a[y] = a[y - 1];
			a[y] = v;
		}
		return;
	}
	symbols__msort(a, tmp, m);
	symbols__msort(a + m, tmp, n - m);
	if (!symbol__less(&a[m], &a[m - 1]))
		return;
	memcpy(tmp, a, m * sizeof(*a));
	while (i < m && j < n)
		a[k++] = symbol__less(&a[j], &tmp[i]) ? a[j++] : tmp[i++];
	while (i < m)
		a[k++] = tmp[i++];
}

static void symbols__sort(struct ember_symbol *syms, size_t n)
{
	struct ember_symbol *tmp = malloc((n / 2 + 1) * sizeof(*tmp));

	if (!tmp) {
		qsort(syms, n, sizeof(*syms), symbol__cmp);
		return;
	}
	symbols__msort(syms, tmp, n);
	free(tmp);
}

/*
 * Sorted by (start, seq): the in-order walk of perf's tree, whose insert
 * sends equal keys right. Symbols added since the last sort (.dynsym's
 * after .symtab's, the PLT entries) are sorted on their own and merged.
 */
void symtab__sort(struct symtab *t)
{
	size_t head = t->nr_sorted < t->nr ? t->nr_sorted : t->nr;
	struct ember_symbol *tail;

	symtab__drop_spans(t);
	if (head == t->nr)
		return;
	tail = t->syms + head;	/* not before: an empty table has no array */
	if (!symtab__is_sorted(tail, t->nr - head))
		symbols__sort(tail, t->nr - head);
	if (head && symbol__cmp(&t->syms[head - 1], tail) > 0 && symtab__merge_tail(t, head))
		qsort(t->syms, t->nr, sizeof(*t->syms), symbol__cmp);
	t->nr_sorted = t->nr;
}

static uint64_t roundup_page(uint64_t x)
{
	return (x + 4095) / 4096 * 4096;
}

void symtab__fixup_end(struct symtab *t, bool is_kallsyms)
{
	struct ember_symbol *prev, *curr;
	/* module-ness of prev and curr ("name\t[mod]"), each name scanned once */
	bool prev_mod, curr_mod = false;

	if (!t->nr)
		return;
	if (is_kallsyms)
		curr_mod = strchr(t->syms[0].name, '[');
	for (size_t i = 1; i < t->nr; i++) {
		prev = &t->syms[i - 1];
		curr = &t->syms[i];
		prev_mod = curr_mod;
		if (is_kallsyms)
			curr_mod = strchr(curr->name, '[');
		if (prev->end != prev->start)
			continue;
		if (is_kallsyms && prev_mod != curr_mod)
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
	/* perf compares the names it shows: the demangled ones */
	na = prefix_underscores(symbol__name(a));
	nb = prefix_underscores(symbol__name(b));
	if (na != nb)
		return nb < na;
	na = strlen(symbol__name(a));
	nb = strlen(symbol__name(b));
	return nb > na;
}

/* Remembers that perf's tree erases s now; a failed allocation forgets the history. */
static void symtab__log_erase(struct symtab *t, const struct ember_symbol *s)
{
	if (t->alloc_erased == SIZE_MAX)
		return;
	if (t->nr_erased == t->alloc_erased) {
		size_t alloc = t->alloc_erased ? t->alloc_erased * 2 : 64;
		struct symtab_erased *e = realloc(t->erased, alloc * sizeof(*e));

		if (!e) {
			t->alloc_erased = SIZE_MAX; /* no more logging: see symtab__index() */
			return;
		}
		t->erased = e;
		t->alloc_erased = alloc;
	}
	t->erased[t->nr_erased++] = (struct symtab_erased){ s->start, s->seq, t->nr_added };
}

/*
 * perf walks its tree in order comparing each symbol with the next: the
 * loser is erased, and a surviving first one meets the following next.
 */
void symtab__fixup_duplicate(struct symtab *t)
{
	size_t w = 0;

	for (size_t i = 0; i < t->nr; i++) {
		if (w && t->syms[w - 1].start == t->syms[i].start) {
			if (symbol__better(&t->syms[w - 1], &t->syms[i])) {
				symtab__log_erase(t, &t->syms[w - 1]);
				symbol__free_name(&t->syms[w - 1]);
				t->syms[w - 1] = t->syms[i];
			} else {
				symtab__log_erase(t, &t->syms[i]);
				symbol__free_name(&t->syms[i]);
			}
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

/* The last of syms[0, nr) that starts at or before addr, as an index + 1 (0: none). */
static size_t symtab__upper(const struct ember_symbol *syms, size_t nr, uint64_t addr)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct ember_symbol *symtab__find(const struct symtab *t, uint64_t addr)
{
	/*
	 * Where symbols overlap and perf's tree walk does not end at the last
	 * symbol starting at or before addr: its answer, from symtab__index().
	 * Elsewhere that last symbol is perf's answer, if it holds addr.
	 */
	if (t->nr_spans) {
		size_t lo = 0, hi = t->nr_spans;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (t->spans[mid].start <= addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo && addr < t->spans[lo - 1].end) {
			uint32_t idx = t->spans[lo - 1].idx;

			return idx == SYMTAB_NONE ? NULL : &t->syms[idx];
		}
	}
	return symtab__find_last(t, addr);
}

const struct ember_symbol *symtab__find_last(const struct symtab *t, uint64_t addr)
{
	size_t i = symtab__upper(t->syms, t->nr_sorted, addr);

	if (i && symbol__contains(&t->syms[i - 1], addr))
		return &t->syms[i - 1];
	return NULL;
}

void symtab__exit(struct symtab *t)
{
	for (size_t i = 0; i < t->nr; i++)
		symbol__free_name(&t->syms[i]);
	free(t->syms);
	free(t->erased);
	free(t->spans);
	strpool__exit(&t->names);
	memset(t, 0, sizeof(*t));
}
