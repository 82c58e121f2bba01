// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "symbol/symbol.h"

int symtab__reserve(struct symtab *t, size_t more)
{
	struct ember_symbol *syms;

	if (more <= t->alloc - t->nr)
		return 0;
	syms = realloc(t->syms, (t->nr + more) * sizeof(*syms));
	if (!syms)
		return -ENOMEM;
	t->syms = syms;
	t->alloc = t->nr + more;
	return 0;
}

/* The next free slot of t (not yet counted), or NULL on ENOMEM. */
static struct ember_symbol *symtab__slot(struct symtab *t)
{
	if (t->nr == t->alloc) {
		size_t alloc = t->alloc ? t->alloc * 2 : 256;
		struct ember_symbol *syms = realloc(t->syms, alloc * sizeof(*syms));

		if (!syms)
			return NULL;
		t->syms = syms;
		t->alloc = alloc;
	}
	return &t->syms[t->nr];
}

/* Fills in the slot symtab__slot() gave, whose name is set, and counts it. */
static void symtab__commit(struct symtab *t, struct ember_symbol *s, uint64_t start, uint64_t len,
			   uint8_t binding, uint8_t type)
{
	s->start = start;
	s->end = start + len;
	s->seq = t->nr_added++;
	s->binding = binding;
	s->type = type;
	s->demangle = DEMANGLE_NONE;
	s->name_owned = false;
	s->plt_suffix = false;
	t->nr++;
}

int symtab__add_ref(struct symtab *t, uint64_t start, uint64_t len, uint8_t binding, uint8_t type,
		    const char *name)
{
	struct ember_symbol *s = symtab__slot(t);

	if (!s)
		return -ENOMEM;
	s->name = name;
	symtab__commit(t, s, start, len, binding, type);
	return 0;
}

int symtab__add(struct symtab *t, uint64_t start, uint64_t len, uint8_t binding, uint8_t type,
		const char *name, size_t namelen)
{
	struct ember_symbol *s = symtab__slot(t);

	if (!s)
		return -ENOMEM;
	s->name = arena__strndup(&t->names, name, namelen);
	if (!s->name)
		return -ENOMEM;
	symtab__commit(t, s, start, len, binding, type);
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
	/*
	 * Whether the name looks mangled is asked when it is first shown too:
	 * reading each name now was most of a big binary's load, in cache misses.
	 */
	t->syms[t->nr - 1].demangle = mode;
}

#define PLT_SUFFIX "@plt"
#define PLT_SUFFIX_LEN 4
/* perf 6.1 prints "name@plt" into a 1024-byte buffer: longer names are cut. */
#define PLT_NAME_MAX 1023

/* Writes base[0, len) + "@plt", cut at PLT_NAME_MAX, to dst (unless NULL); returns its length. */
static size_t plt_name(char *dst, const char *base, size_t len)
{
	size_t n = len < PLT_NAME_MAX ? len : PLT_NAME_MAX;
	size_t sfx = PLT_NAME_MAX - n < PLT_SUFFIX_LEN ? PLT_NAME_MAX - n : PLT_SUFFIX_LEN;

	if (dst) {
		memcpy(dst, base, n);
		memcpy(dst + n, PLT_SUFFIX, sfx);
		dst[n + sfx] = '\0';
	}
	return n + sfx;
}

int symtab__add_plt(struct symtab *t, uint64_t start, uint64_t len, const char *name,
		    enum demangle_mode mode)
{
	size_t namelen = strlen(name), n;
	bool lazy = mode != DEMANGLE_NONE && name__maybe_mangled(name);
	struct ember_symbol *s;
	char *demangled = NULL;

	/*
	 * Demangled when first shown, as .symtab's names; one so long that
	 * its mangled form would be cut is demangled now, as perf does.
	 */
	if (lazy && namelen + PLT_SUFFIX_LEN > PLT_NAME_MAX) {
		lazy = false;
		demangled = demangle_sym(name, mode);
		if (demangled) {
			name = demangled;
			namelen = strlen(name);
		}
	}
	s = symtab__slot(t);
	n = plt_name(NULL, name, namelen);
	if (s)
		s->name = arena__alloc(&t->names, n + 1, 1);
	if (!s || !s->name) {
		free(demangled);
		return -ENOMEM;
	}
	plt_name((char *)s->name, name, namelen);
	free(demangled);
	symtab__commit(t, s, start, len, STB_GLOBAL, STT_FUNC);
	if (lazy) {
		s->demangle = mode;
		s->plt_suffix = true;
	}
	return 0;
}

/* The demangled form of a PLT symbol's "mangled@plt", malloc'd, or NULL. */
static char *plt_name__demangle(const char *name, enum demangle_mode mode)
{
	size_t len = strlen(name) - PLT_SUFFIX_LEN, n;
	char *base = strndup(name, len), *d, *full;

	d = base ? demangle_sym(base, mode) : NULL;
	free(base);
	if (!d)
		return NULL;
	n = plt_name(NULL, d, strlen(d));
	full = malloc(n + 1);
	if (full)
		plt_name(full, d, strlen(d));
	free(d);
	return full;
}

const char *symbol__name_demangle(const struct ember_symbol *sym)
{
	/* The table is not const to its owner: only the name's cache changes. */
	struct ember_symbol *s = (struct ember_symbol *)sym;
	char *d;

	if (s->demangle == DEMANGLE_NONE)
		return s->name;
	if (!name__maybe_mangled(s->name))
		d = NULL;
	else if (s->plt_suffix)
		d = plt_name__demangle(s->name, s->demangle);
	else
		d = demangle_sym(s->name, s->demangle);
	s->demangle = DEMANGLE_NONE;
	s->plt_suffix = false;
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

static void symtab__drop_blocks(struct symtab *t)
{
	free(t->block_start);
	t->block_start = NULL;
	t->nr_blocks = t->blocks_for = 0;
}

void symtab__index_blocks(struct symtab *t)
{
	size_t n = (t->nr_sorted + SYMTAB_BLOCK - 1) / SYMTAB_BLOCK;

	symtab__drop_blocks(t);
	/* a small table is searched as fast without */
	if (t->nr_sorted < 4 * SYMTAB_BLOCK)
		return;
	t->block_start = malloc(n * sizeof(*t->block_start));
	if (!t->block_start)
		return;
	for (size_t i = 0; i < n; i++)
		t->block_start[i] = t->syms[i * SYMTAB_BLOCK].start;
	t->nr_blocks = n;
	t->blocks_for = t->nr_sorted;
}

static void symtab__drop_spans(struct symtab *t)
{
	symtab__drop_blocks(t);
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

#define RADIX_MAX_BITS 11

/*
 * Stable LSD radix sort of syms[0, n) by start, one pass per digit of the
 * bits that differ (a library's file offsets: two or three passes), each
 * moving the symbols between syms and tmp (n symbols). Stable, so equal
 * starts stay in seq order when syms came in seq order.
 */
static void symbols__radix_sort(struct ember_symbol *syms, struct ember_symbol *tmp, size_t n,
				uint64_t diff)
{
	int bits = 64 - __builtin_clzll(diff), low = __builtin_ctzll(diff);
	int passes = (bits - low + RADIX_MAX_BITS - 1) / RADIX_MAX_BITS;
	int width = (bits - low + passes - 1) / passes;
	size_t mask = ((size_t)1 << width) - 1;
	struct ember_symbol *src = syms, *dst = tmp, *swap;
	size_t count[1 << RADIX_MAX_BITS];

	for (int p = 0; p < passes; p++) {
		int shift = low + p * width;
		size_t sum = 0;

		memset(count, 0, (mask + 1) * sizeof(*count));
		for (size_t i = 0; i < n; i++)
			count[(src[i].start >> shift) & mask]++;
		for (size_t d = 0; d <= mask; d++) {
			size_t c = count[d];

			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[count[(src[i].start >> shift) & mask]++] = src[i];
		swap = src;
		src = dst;
		dst = swap;
	}
	if (src != syms)
		memcpy(syms, src, n * sizeof(*syms));
}

/*
 * Sorts syms[0, n), added in seq order, by (start, seq): a radix sort by
 * start, which keeps the seq order among equal starts; qsort() if seq
 * order does not hold or memory is short.
 */
static void symbols__sort(struct ember_symbol *syms, size_t n)
{
	struct ember_symbol *tmp;
	uint64_t diff = 0;

	for (size_t i = 1; i < n; i++) {
		if (syms[i].seq < syms[i - 1].seq)
			goto out_qsort;
		diff |= syms[i].start ^ syms[0].start;
	}
	if (!diff)
		return;
	/* A few symbols (a small .dynsym, the PLT): not worth the counting. */
	if (n <= 32) {
		for (size_t i = 1; i < n; i++) {
			struct ember_symbol v = syms[i];
			size_t j = i;

			for (; j > 0 && v.start < syms[j - 1].start; j--)
				syms[j] = syms[j - 1];
			syms[j] = v;
		}
		return;
	}
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		goto out_qsort;
	symbols__radix_sort(syms, tmp, n, diff);
	free(tmp);
	return;
out_qsort:
	qsort(syms, n, sizeof(*syms), symbol__cmp);
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

/*
 * A strict reader of the part of the Itanium C++ ABI mangling that names
 * classes: it accepts only what it can read exactly as libiberty does
 * (source names, substitutions, nested names, template arguments of such
 * types, builtins, pointers, references, integer literals, packs) and
 * says no to everything else.
 */
struct mangled {
	const char *s;
	size_t i, end;		/* reading s[i, end) */
	int depth;
};

static bool mangled__type(struct mangled *m);

static bool mangled__source_name(struct mangled *m)
{
	size_t n = 0;

	if (m->i >= m->end || m->s[m->i] < '1' || m->s[m->i] > '9')
		return false;
	while (m->i < m->end && m->s[m->i] >= '0' && m->s[m->i] <= '9' && n < m->end)
		n = n * 10 + (size_t)(m->s[m->i++] - '0');
	if (n > m->end - m->i)
		return false;
	m->i += n;
	return true;
}

/* S_, S<seq-id>_ or one of the standard abbreviations (St: std::, Sa, Sb, Ss, Si, So, Sd) */
static bool mangled__substitution(struct mangled *m)
{
	const char *s = m->s;

	if (m->i + 1 >= m->end || s[m->i] != 'S')
		return false;
	m->i++;
	if (strchr("tabsiod", s[m->i])) {
		m->i++;
		return true;
	}
	while (m->i < m->end && ((s[m->i] >= '0' && s[m->i] <= '9') || (s[m->i] >= 'A' && s[m->i] <= 'Z')))
		m->i++;
	return m->i < m->end && s[m->i++] == '_';
}

/* An integer literal: L <integer type> [n] <digits> E */
static bool mangled__literal(struct mangled *m)
{
	size_t digits = m->i + 2;

	if (m->i + 1 >= m->end || !strchr("bcahstijlmxy", m->s[m->i + 1]))
		return false;
	m->i += 2;
	if (m->i < m->end && m->s[m->i] == 'n')
		m->i++;
	digits = m->i;
	while (m->i < m->end && m->s[m->i] >= '0' && m->s[m->i] <= '9')
		m->i++;
	return m->i > digits && m->i < m->end && m->s[m->i++] == 'E';
}

/* I <template-arg>+ E, a pack J <template-arg>* E */
static bool mangled__template_args(struct mangled *m, char open)
{
	bool ok = true;
	size_t first;

	if (m->i >= m->end || m->s[m->i] != open || ++m->depth > 32)
		return false;
	first = ++m->i;
	while (ok && m->i < m->end && m->s[m->i] != 'E') {
		if (m->s[m->i] == 'L')
			ok = mangled__literal(m);
		else if (m->s[m->i] == 'J')
			ok = mangled__template_args(m, 'J');
		else
			ok = mangled__type(m);
	}
	m->depth--;
	/* a pack may be empty, a template argument list not */
	if (!ok || m->i >= m->end || (open == 'I' && m->i == first))
		return false;
	m->i++;
	return true;
}

/*
 * The components of a nested name after N and its qualifiers: source names
 * and substitutions, each maybe with template arguments, up to m->end or
 * the first character that is none of these.
 */
static bool mangled__components(struct mangled *m)
{
	while (m->i < m->end) {
		char c = m->s[m->i];

		if (c >= '1' && c <= '9') {
			if (!mangled__source_name(m))
				return false;
		} else if (c == 'S') {
			if (!mangled__substitution(m))
				return false;
		} else {
			return true;
		}
		if (m->i < m->end && m->s[m->i] == 'I' && !mangled__template_args(m, 'I'))
			return false;
	}
	return true;
}

static void mangled__qualifiers(struct mangled *m)
{
	while (m->i < m->end && m->s[m->i] && strchr("rVK", m->s[m->i]))
		m->i++;
	if (m->i < m->end && (m->s[m->i] == 'R' || m->s[m->i] == 'O'))
		m->i++;
}

static bool mangled__type(struct mangled *m)
{
	char c;
	bool ok;

	if (m->i >= m->end || ++m->depth > 32)
		return false;
	c = m->s[m->i];
	if (strchr("abcdefghijlmnostvwxyz", c)) {
		m->i++;
		ok = true;
	} else if (strchr("PROKVr", c)) {
		m->i++;
		ok = mangled__type(m);
	} else if (c >= '1' && c <= '9') {
		ok = mangled__source_name(m) &&
		     (m->i >= m->end || m->s[m->i] != 'I' || mangled__template_args(m, 'I'));
	} else if (c == 'S' && m->i + 1 < m->end && m->s[m->i + 1] == 't') {
		m->i += 2;
		ok = mangled__source_name(m) &&
		     (m->i >= m->end || m->s[m->i] != 'I' || mangled__template_args(m, 'I'));
	} else if (c == 'S') {
		ok = mangled__substitution(m) &&
		     (m->i >= m->end || m->s[m->i] != 'I' || mangled__template_args(m, 'I'));
	} else if (c == 'N') {
		size_t first;

		m->i++;
		mangled__qualifiers(m);
		first = m->i;
		ok = mangled__components(m) && m->i > first && m->i < m->end && m->s[m->i] == 'E';
		m->i++;
	} else if (c == 'T') {
		m->i++;
		while (m->i < m->end && m->s[m->i] >= '0' && m->s[m->i] <= '9')
			m->i++;
		ok = m->i < m->end && m->s[m->i++] == '_' && (m->i >= m->end || m->s[m->i] != 'I');
	} else {
		ok = false;
	}
	m->depth--;
	return ok;
}

/*
 * After "_ZN" and its qualifiers, is name[3, pos) a run of components
 * (source names, substitutions, their template arguments), so that
 * name[pos] starts the nested name's last unqualified name (and a 'C' or
 * 'D' there a constructor or destructor, never a type)?
 */
static bool mangled__nested_prefix_ends_at(const char *name, size_t pos)
{
	struct mangled m = { name, 3, pos, 0 };

	if (strncmp(name, "_ZN", 3))
		return false;
	mangled__qualifiers(&m);
	return m.i < pos && mangled__components(&m) && m.i == pos;
}

/*
 * True when mangled names a and b differ only in which variant of one
 * constructor or destructor they name (C1/C2/C3, D0/D1/D2: complete,
 * base, allocating, deleting), where the demangler prints them alike: GCC
 * emits such pairs at one address for most C++ classes, and telling them
 * apart by demangling both at load time was most of a library's load.
 */
static bool mangled__ctor_variants(const char *a, const char *b)
{
	size_t i = 0;

	while (a[i] && a[i] == b[i])
		i++;
	if (!a[i] || !b[i] || i < 4 || strcmp(a + i + 1, b + i + 1))
		return false;
	if (a[i - 1] == 'C') {
		if (a[i] < '1' || a[i] > '3' || b[i] < '1' || b[i] > '3')
			return false;
	} else if (a[i - 1] == 'D') {
		if (a[i] < '0' || a[i] > '2' || b[i] < '0' || b[i] > '2')
			return false;
	} else {
		return false;
	}
	return mangled__nested_prefix_ends_at(a, i - 1);
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
	/*
	 * Equal names (.dynsym's copy of a .symtab symbol) and the variants of
	 * one constructor demangle alike and tie: no need to demangle them here,
	 * at load time.
	 */
	if (a->demangle == b->demangle && a->plt_suffix == b->plt_suffix &&
	    (!strcmp(a->name, b->name) ||
	     (a->demangle != DEMANGLE_NONE && !a->plt_suffix &&
	      mangled__ctor_variants(a->name, b->name))))
		return false;
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

	symtab__drop_blocks(t);
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

/* The last of t's sorted symbols that starts at or before addr, as an index + 1 (0: none). */
static size_t symtab__upper(const struct symtab *t, uint64_t addr)
{
	const struct ember_symbol *syms = t->syms;
	size_t lo = 0, hi = t->nr_sorted;

	if (t->block_start && t->blocks_for == t->nr_sorted) {
		size_t blo = 0, bhi = t->nr_blocks;

		while (blo < bhi) {
			size_t mid = blo + (bhi - blo) / 2;

			if (t->block_start[mid] <= addr)
				blo = mid + 1;
			else
				bhi = mid;
		}
		if (!blo)
			return 0;
		/* block blo - 1 starts at or before addr, block blo (if any) after it */
		lo = (blo - 1) * SYMTAB_BLOCK + 1;
		if (blo * SYMTAB_BLOCK < hi)
			hi = blo * SYMTAB_BLOCK;
	}
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
	size_t i = symtab__upper(t, addr);

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
	free(t->block_start);
	arena__exit(&t->names);
	memset(t, 0, sizeof(*t));
}
