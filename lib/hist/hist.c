// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The histogram: one entry per distinct value of the sort keys, as perf's
 * hists__add_entry() merges them (comm and dso by name, symbols by dso
 * and start, unresolved addresses by ip, threads by tid), with self and
 * children ("accumulated") periods and a callchain tree each. Entries
 * live in one hash table; strings are interned so that keys compare by
 * pointer.
 */
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include "core/hash.h"
#include "hist/callchain.h"
#include "hist/hist-priv.h"
#include "hist/opts.h"

#define ENTRY_BLOCK 1024

/* ---- interned strings: pointer cache in front of a string table ------------ */

static inline bool str_eq(const struct hashtab_slot *slot, const void *key)
{
	return !strcmp((const char *)(uintptr_t)slot->val, key);
}

const char *hist__intern(struct ember_hist *h, const char *s)
{
	uint64_t ph = hash_mix64((uintptr_t)s), sh;
	struct hashtab_slot *ps, *ss;

	if (!s)
		return NULL;
	/* the pointer's hash is a bijection of it: no equality */
	if (hashtab__reserve(&h->ptrs, 1))
		return NULL;
	ps = hashtab__slot(&h->ptrs, ph, hashtab__eq_hash, NULL);
	if (ps->val)
		return (const char *)(uintptr_t)ps->val;
	/* a pointer not seen before: find the content */
	sh = hash_str(s);
	if (hashtab__reserve(&h->strs, 1))
		return NULL;
	ss = hashtab__slot(&h->strs, sh, str_eq, s);
	if (!ss->val)
		hashtab__fill(&h->strs, ss, sh, (uintptr_t)s);
	hashtab__fill(&h->ptrs, ps, ph, ss->val);
	return (const char *)(uintptr_t)ss->val;
}

/* ---- entries ---------------------------------------------------------------- */

struct ember_hist *ember_hist__new(const struct ember_hist_opts *opts)
{
	struct ember_hist *h;

	if (!opts || !opts->sz || !opts->layout) {
		errno = EINVAL;
		return NULL;
	}
	h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	hist_opts_copy(&h->opts, sizeof(h->opts), opts, opts->sz);
	h->opts.sz = sizeof(h->opts);
	h->layout = *opts->layout;
	h->opts.layout = &h->layout;
	h->mask = h->layout.key_mask;
	h->chains = hist_chains__new(h->opts.chain.key);
	if (h->chains && h->opts.chain_srcline)
		hist_chains__set_srcline(h->chains, h->opts.chain_srcline, h->opts.srcline_ctx);
	h->entry_mem.chunk_size = ENTRY_BLOCK * sizeof(struct hist_entry);
	if (!h->chains || hashtab__reserve(&h->entries, 512))
		goto fail;
	if (h->mask & EMBER_HIST_KEY(EMBER_HIST_DIM_PARENT)) {
		const char *pat =
		    h->opts.parent_pattern ? h->opts.parent_pattern : "^sys_|^do_page_fault";
		int err = regcomp(&h->parent_re, pat, REG_EXTENDED | REG_NOSUB);

		if (err) {
			ember_hist__delete(h);
			errno = err == REG_ESPACE ? ENOMEM : EINVAL;
			return NULL;
		}
		h->have_re = true;
	}
	h->opts.parent_pattern = NULL; /* the caller's string is not kept */
	return h;
fail:
	ember_hist__delete(h);
	errno = ENOMEM;
	return NULL;
}

void ember_hist__delete(struct ember_hist *h)
{
	if (!h)
		return;
	arena__exit(&h->entry_mem);
	hist_chains__delete(h->chains);
	hashtab__exit(&h->entries);
	free(h->sorted);
	free(h->cursor);
	free(h->cache);
	free(h->memo);
	hashtab__exit(&h->ptrs);
	hashtab__exit(&h->strs);
	if (h->have_re)
		regfree(&h->parent_re);
	free(h);
}

/* perf's srcline or srcfile of f at ip, interned; "" when it cannot be had. */
static const char *src_key(struct ember_hist *h, const struct ember_hist_frame *f, uint64_t ip,
			   bool file)
{
	/* an inline level's own line, as perf's cumulative entry takes its node's */
	const char *s = !file && f->srcline ? f->srcline :
			h->opts.srcline ? h->opts.srcline(h->opts.srcline_ctx, f, ip, file) : NULL;

	s = hist__intern(h, s ? s : "");
	return s ? s : "";
}

/* The key of a new entry: fields not sorted by are cleared, so they do not split entries. */
static void key_fill(struct ember_hist *h, struct ember_hist_entry *k,
		     const struct ember_hist_sample *s, const struct ember_hist_frame *f,
		     uint64_t ip, char level, const char *parent)
{
	memset(k, 0, sizeof(*k));
	k->comm = s->comm;
	k->tid = s->tid;
	k->cpu = s->cpu;
	k->dso = f->dso;
	k->dso_name = f->dso ? f->dso_name : NULL;
	k->dso_long_name = f->dso ? f->dso_long_name : NULL;
	k->sym = f->sym;
	k->sym_name = f->sym ? f->sym_name : NULL;
	k->sym_type = f->sym ? f->sym_type : 0;
	k->inlined = f->sym ? f->inlined : 0;
	k->sym_start = f->sym_start;
	k->sym_end = f->sym_end;
	k->map_size = f->dso ? f->map_size : 0;
	k->ip = ip;
	k->level = level;
	k->parent = parent;
	k->thread = s->thread;
	k->filtered = s->filtered;
	if (h->mask & EMBER_HIST_KEY(EMBER_HIST_DIM_SRCLINE))
		k->srcline = src_key(h, f, ip, false);
	if (h->mask & EMBER_HIST_KEY(EMBER_HIST_DIM_SRCFILE))
		k->srcfile = src_key(h, f, ip, true);
	if (h->mask & EMBER_HIST_KEY(EMBER_HIST_DIM_TRACE))
		k->trace = s->trace;
	/* perf's map__unmap_ip(he->ip): the raw ip of a sample's entry, past it for a chain's */
	k->addr_key = ip + (f->dso ? f->ip - f->addr : 0);
	k->time = s->time;
}

static uint64_t sym_size(const struct ember_hist_entry *e)
{
	return e->sym ? e->sym_end - e->sym_start : 0;
}

uint64_t hist__key_hash(const struct ember_hist *h, const struct ember_hist_entry *k)
{
	uint64_t m = h->mask;
	uint64_t x = 0;

	if (m & EMBER_HIST_KEY(EMBER_HIST_DIM_COMM))
		x = hash_mix64(x ^ (uintptr_t)k->comm);
	if (m & EMBER_HIST_KEY(EMBER_HIST_DIM_PID))
		x = hash_mix64(x ^ (uint32_t)k->tid ^ 0x100000000ULL);
	if (m & EMBER_HIST_KEY(EMBER_HIST_DIM_CPU))
		x = hash_mix64(x ^ (uint32_t)k->cpu ^ 0x200000000ULL);
	/* ipc_null merges as the symbol does (perf's sort__sym_cmp) */
	if (m & EMBER_HIST_KEY(EMBER_HIST_DIM_IPC_NULL))
		m |= EMBER_HIST_KEY(EMBER_HIST_DIM_SYM);
	if (m & (EMBER_HIST_KEY(EMBER_HIST_DIM_DSO) | EMBER_HIST_KEY(EMBER_HIST_DIM_SYM)))
		x = hash_mix64(x ^ (uintptr_t)k->dso_name);
	if (m & EMBER_HIST_KEY(EMBER_HIST_DIM_SYMBOL_SIZE))
		x = hash_mix64(x ^ sym_size(k) ^ 0x777);
	if (m & EMBER_HIST_KEY(EMBER_HIST_DIM_DSO_SIZE))
		x = hash_mix64(x ^ k->map_size ^ 0x999);
	if (m & EMBER_HIST_KEY(EMBER_HIST_DIM_SYM)) {
		if (k->sym)
			x = hash_mix64(x ^ k->sym_start);
		else
			x = hash_mix64(x ^ k->ip ^ 0x5555);
	}
	if (m & EMBER_HIST_KEY(EMBER_HIST_DIM_PARENT))
		x = hash_mix64(x ^ (uintptr_t)k->parent);
	if (m & EMBER_HIST_KEY(EMBER_HIST_DIM_SRCLINE))
		x = hash_mix64(x ^ (uintptr_t)k->srcline);
	if (m & EMBER_HIST_KEY(EMBER_HIST_DIM_SRCFILE))
		x = hash_mix64(x ^ (uintptr_t)k->srcfile ^ 0x3333);
	if (m & EMBER_HIST_KEY(EMBER_HIST_DIM_TRACE))
		x = hash_mix64(x ^ (uintptr_t)k->trace ^ 0x4444);
	if (m & EMBER_HIST_KEY(EMBER_HIST_DIM_ADDR))
		x = hash_mix64(x ^ k->addr_key ^ 0x6666);
	if (m & EMBER_HIST_KEY(EMBER_HIST_DIM_TIME))
		x = hash_mix64(x ^ k->time ^ 0x8888);
	return x;
}

/* the keys perf computes lazily */
#define SRC_KEYS                                                                                   \
	(EMBER_HIST_KEY(EMBER_HIST_DIM_SRCLINE) | EMBER_HIST_KEY(EMBER_HIST_DIM_SRCFILE) |         \
	 EMBER_HIST_KEY(EMBER_HIST_DIM_TRACE))

/* perf's hist_entry__cmp() == 0 for the sort keys of mask m. */
static bool key_eq_mask(uint64_t m, const struct ember_hist_entry *a,
			const struct ember_hist_entry *b)
{
	if (m & EMBER_HIST_KEY(EMBER_HIST_DIM_IPC_NULL))
		m |= EMBER_HIST_KEY(EMBER_HIST_DIM_SYM);
	if ((m & EMBER_HIST_KEY(EMBER_HIST_DIM_COMM)) && a->comm != b->comm)
		return false;
	if ((m & EMBER_HIST_KEY(EMBER_HIST_DIM_PID)) && a->tid != b->tid)
		return false;
	if ((m & EMBER_HIST_KEY(EMBER_HIST_DIM_CPU)) && a->cpu != b->cpu)
		return false;
	if ((m & EMBER_HIST_KEY(EMBER_HIST_DIM_DSO)) && a->dso_name != b->dso_name)
		return false;
	if ((m & EMBER_HIST_KEY(EMBER_HIST_DIM_SYMBOL_SIZE)) && sym_size(a) != sym_size(b))
		return false;
	if ((m & EMBER_HIST_KEY(EMBER_HIST_DIM_DSO_SIZE)) && a->map_size != b->map_size)
		return false;
	if (m & EMBER_HIST_KEY(EMBER_HIST_DIM_SYM)) {
		if (!a->sym && !b->sym) {
			if (a->ip != b->ip)
				return false;
		} else {
			if (!a->sym || !b->sym || a->dso_name != b->dso_name)
				return false;
			/*
			 * perf's _sort__sym_cmp(): an inlined function by its
			 * name, then one if the symbols it sits in overlap
			 * (its made-up symbol has their range; its pointer here
			 * is the name's, the same in every function it is in)
			 */
			if (a->inlined || b->inlined) {
				if (strcmp(a->sym_name, b->sym_name))
					return false;
				if ((a->sym_start > b->sym_end || a->sym_end < b->sym_start) &&
				    (a->sym_start != b->sym_start || a->sym_end != b->sym_end))
					return false;
			} else if (a->sym != b->sym &&
				   (a->sym_start != b->sym_start || a->sym_end != b->sym_end)) {
				return false;
			}
		}
	}
	if ((m & EMBER_HIST_KEY(EMBER_HIST_DIM_PARENT)) && a->parent != b->parent)
		return false;
	if ((m & EMBER_HIST_KEY(EMBER_HIST_DIM_SRCLINE)) && a->srcline != b->srcline)
		return false;
	if ((m & EMBER_HIST_KEY(EMBER_HIST_DIM_SRCFILE)) && a->srcfile != b->srcfile)
		return false;
	if ((m & EMBER_HIST_KEY(EMBER_HIST_DIM_TRACE)) && a->trace != b->trace)
		return false;
	if ((m & EMBER_HIST_KEY(EMBER_HIST_DIM_ADDR)) && a->addr_key != b->addr_key)
		return false;
	if ((m & EMBER_HIST_KEY(EMBER_HIST_DIM_TIME)) && a->time != b->time)
		return false;
	return true;
}

static bool key_eq(const struct ember_hist *h, const struct ember_hist_entry *a,
		   const struct ember_hist_entry *b)
{
	return key_eq_mask(h->mask, a, b);
}

/*
 * An entry perf found again (a second sample of a folded stack is one):
 * every key was compared, srcline and srcfile computed.
 */
static void src_seen_all(const struct ember_hist *h, struct ember_hist_entry *e)
{
	if (h->mask & EMBER_HIST_KEY(EMBER_HIST_DIM_SRCLINE))
		e->src_seen |= EMBER_HIST_SEEN_SRCLINE;
	if (h->mask & EMBER_HIST_KEY(EMBER_HIST_DIM_SRCFILE))
		e->src_seen |= EMBER_HIST_SEEN_SRCFILE;
	if (h->mask & EMBER_HIST_KEY(EMBER_HIST_DIM_TRACE))
		e->src_seen |= EMBER_HIST_SEEN_TRACE;
}

/*
 * perf computes srcline and srcfile lazily, when hist_entry__cmp() gets
 * to them: it compares the keys in sort order and stops at the first
 * that differs. The EMBER_HIST_SEEN_* bits of the lazy keys it reaches for a, b.
 */
static uint8_t reached_src(const struct ember_hist *h, const struct ember_hist_entry *a,
			   const struct ember_hist_entry *b)
{
	uint8_t bits = 0;

	for (int i = 0; i < h->layout.nr_sort; i++) {
		enum ember_hist_dim d = h->layout.sort[i];

		if (ember_hist_dim__is_value(d))
			continue;
		if (d == EMBER_HIST_DIM_SRCLINE)
			bits |= EMBER_HIST_SEEN_SRCLINE;
		else if (d == EMBER_HIST_DIM_SRCFILE)
			bits |= EMBER_HIST_SEEN_SRCFILE;
		else if (d == EMBER_HIST_DIM_TRACE)
			bits |= EMBER_HIST_SEEN_TRACE;
		if (!key_eq_mask(EMBER_HIST_KEY(d), a, b))
			break;
	}
	return bits;
}

struct entry_probe {
	const struct ember_hist *h;
	const struct ember_hist_entry *k;
};

static inline bool entry_eq(const struct hashtab_slot *slot, const void *key)
{
	const struct entry_probe *p = key;
	const struct hist_entry *e = (const struct hist_entry *)(uintptr_t)slot->val;

	return key_eq(p->h, &e->pub, p->k);
}

static struct hist_entry *findnew(struct ember_hist *h, const struct ember_hist_entry *k)
{
	struct entry_probe p = { h, k };
	uint64_t hash = hist__key_hash(h, k);
	struct hashtab_slot *s;
	struct hist_entry *e;

	if (hashtab__reserve(&h->entries, 1))
		return NULL;
	s = hashtab__slot(&h->entries, hash, entry_eq, &p);
	if (s->val) {
		e = (struct hist_entry *)(uintptr_t)s->val;
		/* perf found it comparing every key, the lazy ones computed */
		src_seen_all(h, &e->pub);
		return e;
	}
	/* an entry ember_hist__decay() removed is taken again before new memory */
	e = h->free_entries;
	if (e)
		h->free_entries = e->next_free;
	else
		e = arena__new(&h->entry_mem, struct hist_entry);
	if (!e)
		return NULL;
	*e = (struct hist_entry){ .pub = *k };
	e->seq = h->nr_entries++;
	hashtab__fill(&h->entries, s, hash, (uintptr_t)e);
	return e;
}

static void stat_add(struct ember_hist_stat *st, uint8_t cpumode, uint64_t period, uint64_t nr)
{
	st->period += period;
	st->nr_events += nr;
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL:
		st->period_sys += period;
		break;
	case PERF_RECORD_MISC_USER:
		st->period_us += period;
		break;
	case PERF_RECORD_MISC_GUEST_KERNEL:
		st->period_guest_sys += period;
		break;
	case PERF_RECORD_MISC_GUEST_USER:
		st->period_guest_us += period;
		break;
	}
}

static int grow_buffers(struct ember_hist *h, uint32_t n)
{
	if (n + 1 <= h->cursor_alloc)
		return 0;
	h->cursor_alloc = (n + 1) * 2;
	free(h->cursor);
	free(h->cache);
	h->cursor = malloc(h->cursor_alloc * sizeof(*h->cursor));
	h->cache = malloc(h->cursor_alloc * sizeof(*h->cache));
	if (!h->cursor || !h->cache) {
		h->cursor_alloc = 0;
		return -ENOMEM;
	}
	return 0;
}

/* The first symbol of the chain (display order) matching the parent pattern. */
static const char *find_parent(struct ember_hist *h, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		const struct ember_hist_frame *f = h->cursor[i];

		if (f->sym && f->sym_name && !regexec(&h->parent_re, f->sym_name, 0, NULL, 0))
			return hist__intern(h, f->sym_name);
	}
	return NULL;
}

/* Whether the printer will show anything of e's callchain (the second of two passes). */
/* Whether the printer will show anything of e's callchain (the second of two passes). */
static bool wants_chain(const struct ember_hist *h, const struct ember_hist_entry *e)
{
	return hist__entry_period(h, e) >= h->chain_min_period &&
	       hist__shows(h, e, h->filter_relative, h->min_percent);
}

static int append_chain(struct ember_hist *h, struct hist_entry *e, uint32_t from, uint32_t n,
			const struct ember_hist_sample *s)
{
	if (!h->opts.use_callchain)
		return 0;
	if (n - from > e->max_depth)
		e->max_depth = n - from;
	if (h->pass == HIST_PASS_ENTRIES ||
	    (h->pass == HIST_PASS_CHAINS && !wants_chain(h, &e->pub)))
		return 0;
	if (!e->chain) {
		e->chain = hist_chains__new_root(h->chains);
		if (!e->chain)
			return -ENOMEM;
	}
	return hist_chains__append(h->chains, e->chain, h->cursor + from, n - from, s->period,
				   s->nr_samples);
}

static int memo_push(struct ember_hist *h, struct hist_entry *e, uint32_t from)
{
	if (h->nr_memo == h->alloc_memo) {
		size_t alloc = h->alloc_memo ? h->alloc_memo * 2 : 4096;
		struct hist_memo *m = realloc(h->memo, alloc * sizeof(*m));

		if (!m)
			return -ENOMEM;
		h->memo = m;
		h->alloc_memo = alloc;
	}
	h->memo[h->nr_memo++] = (struct hist_memo){ e, from };
	return 0;
}

/* The second pass: the chains of the entries the first pass counted for this sample. */
static int add_memo_chains(struct ember_hist *h, const struct ember_hist_sample *s, uint32_t n)
{
	for (; h->memo_pos < h->nr_memo; h->memo_pos++) {
		const struct hist_memo *m = &h->memo[h->memo_pos];
		int err;

		if (!m->e) {
			h->memo_pos++;
			return 0;
		}
		err = append_chain(h, m->e, m->from, n, s);
		if (err)
			return err;
	}
	return 0;
}

int hist__add(struct ember_hist *h, const struct ember_hist_sample *s)
{
	uint32_t n = s->nr_chain, i, ncache = 0;
	const char *parent = NULL;
	struct ember_hist_entry k;
	struct hist_entry *he;
	const struct ember_hist_frame *self = s->self;
	struct ember_hist_sample cs = *s;
	uint8_t seen;
	char level;
	int err;

	if (grow_buffers(h, n))
		return -ENOMEM;
	/* the cursor: the chain in display order */
	for (i = 0; i < n; i++)
		h->cursor[i] = h->opts.chain.order == EMBER_CALLCHAIN_CALLER ?
				       s->chain[n - 1 - i] : s->chain[i];
	if (h->pass == HIST_PASS_CHAINS && h->memo)
		return add_memo_chains(h, s, n);
	cs.comm = hist__intern(h, s->comm);
	if (h->have_re)
		parent = find_parent(h, n);
	if (!parent && (h->mask & EMBER_HIST_KEY(EMBER_HIST_DIM_PARENT)) && h->opts.exclude_other)
		cs.filtered |= EMBER_HIST_FILTER_PARENT;

	key_fill(h, &k, &cs, self, self->addr, self->level, parent);
	k.dso_name = hist__intern(h, k.dso_name);
	he = findnew(h, &k);
	if (!he)
		return -ENOMEM;
	if (s->nr_samples > 1)
		src_seen_all(h, &he->pub);
	if (h->pass != HIST_PASS_CHAINS) {
		stat_add(&he->pub.self, self->cpumode, s->period, s->nr_samples);
		if (h->opts.children)
			stat_add(&he->pub.acc, self->cpumode, s->period, s->nr_samples);
		h->stats.nr_samples += s->nr_samples;
		/*
		 * perf counts by the entry's flag, not the sample's: with
		 * --children an entry first made for a chain frame carries
		 * the flag of the sample that made it
		 */
		if (!he->pub.filtered)
			h->stats.nr_non_filtered_samples += s->nr_samples;
		if (h->opts.use_callchain) {
			h->stats.callchain_period += s->period;
			if (!cs.filtered)
				h->stats.callchain_non_filtered_period += s->period;
		}
	}
	err = append_chain(h, he, 0, n, s);
	if (!err && h->pass == HIST_PASS_ENTRIES && h->opts.use_callchain)
		err = memo_push(h, he, 0);
	if (err)
		return err;
	if (!h->opts.children)
		return h->pass == HIST_PASS_ENTRIES && h->opts.use_callchain ? memo_push(h, NULL, 0)
									     : 0;

	/*
	 * --children: every function of the chain gets the period as its
	 * children's, once per sample (recursion counts once), with the
	 * rest of the chain from it on as its callchain.
	 */
	h->cache[ncache++] = he;
	level = self->level;
	for (i = 0; i < n; i++) {
		const struct ember_hist_frame *f = h->cursor[i];
		uint8_t cpumode = self->cpumode;
		uint32_t j;

		/* perf keeps the level of the previous address for one without a map */
		if (f->sym || f->dso) {
			level = f->level;
			cpumode = f->cpumode;
		}
		key_fill(h, &k, &cs, f, f->ip, level, parent);
		k.dso_name = hist__intern(h, k.dso_name);
		seen = 0;
		/*
		 * perf compares a chain frame with the entries the sample
		 * added so far without its time (0): sorted by time, none
		 * matches, and each frame adds the period again
		 */
		for (j = (h->mask & EMBER_HIST_KEY(EMBER_HIST_DIM_TIME)) ? ncache : 0; j < ncache;
		     j++) {
			if (h->mask & SRC_KEYS) {
				uint8_t b = reached_src(h, &h->cache[j]->pub, &k);

				h->cache[j]->pub.src_seen |= b;
				seen |= b;
			}
			if (key_eq(h, &h->cache[j]->pub, &k))
				break;
		}
		if (j < ncache)
			continue;
		he = findnew(h, &k);
		if (!he)
			return -ENOMEM;
		he->pub.src_seen |= seen;
		if (s->nr_samples > 1)
			src_seen_all(h, &he->pub);
		if (h->pass != HIST_PASS_CHAINS)
			stat_add(&he->pub.acc, cpumode, s->period, s->nr_samples);
		h->cache[ncache++] = he;
		err = append_chain(h, he, i, n, s);
		if (!err && h->pass == HIST_PASS_ENTRIES && h->opts.use_callchain)
			err = memo_push(h, he, i);
		if (err)
			return err;
	}
	return h->pass == HIST_PASS_ENTRIES && h->opts.use_callchain ? memo_push(h, NULL, 0) : 0;
}

int ember_hist__add(struct ember_hist *h, const struct ember_hist_sample *s)
{
	struct ember_hist_sample whole;

	if (!s->sz)
		return -EINVAL;
	if (s->sz >= sizeof(whole))
		return hist__add(h, s);
	hist_opts_copy(&whole, sizeof(whole), s, s->sz);
	return hist__add(h, &whole);
}

void hist__begin_entries(struct ember_hist *h)
{
	h->pass = HIST_PASS_ENTRIES;
}

void hist__begin_chains(struct ember_hist *h, bool filter_relative, double min_percent)
{
	struct hashtab_slot *s;

	/* the totals the resort will find: the thresholds are of them */
	h->stats.total_period = h->stats.total_non_filtered_period = 0;
	hashtab__for_each(&h->entries, s) {
		const struct hist_entry *e = (const struct hist_entry *)(uintptr_t)s->val;

		h->stats.total_period += e->pub.self.period;
		if (!e->pub.filtered)
			h->stats.total_non_filtered_period += e->pub.self.period;
	}
	h->filter_relative = filter_relative;
	h->min_percent = min_percent;
	h->chain_min_period = ember_hist__callchain_min_hit(h, filter_relative);
	h->pass = HIST_PASS_CHAINS;
	h->memo_pos = 0;
}

const struct ember_hist_opts *ember_hist__opts(const struct ember_hist *h)
{
	return &h->opts;
}

const struct ember_hist_stats *ember_hist__stats(const struct ember_hist *h)
{
	return &h->stats;
}

size_t ember_hist__nr_entries(const struct ember_hist *h)
{
	return h->nr_sorted;
}

const struct ember_hist_entry *ember_hist__entry(const struct ember_hist *h, size_t i)
{
	return i < h->nr_sorted ? &h->sorted[i]->pub : NULL;
}

const struct ember_callchain_node *ember_hist_entry__callchain(const struct ember_hist_entry *e)
{
	const struct chain_node *root = hist_entry__of(e)->chain;

	return root ? &root->pub : NULL;
}
