// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The collapser: stackcollapse-perf.pl's main loop as a state machine fed
 * one line at a time. The state is the script's: the current root name
 * ($pname, maybe unset), its period, the frames seen since the header
 * (@stack, where each frame is unshifted: see struct rev_ids), and the event
 * filter. The script's quirks are kept on purpose, since the output must
 * match it byte for byte: a header skipped by the event filter leaves the
 * previous root in place, a root of "0" is false, a sample without its
 * blank line is never counted.
 *
 * Stacks are counted by the ids of their names' components (see table.h),
 * and a frame line seen before (the same text after its address) takes
 * its ids from the frame cache: most lines of a profile repeat, and
 * parsing and tidying them again was most of the cost.
 *
 * What remains is mostly waiting for memory: the caches and tables are
 * larger than the processor's caches. So what a line will need is asked
 * for ahead of its turn where it can be known: the frame records the
 * next two lines are predicted to be, the next sample's first frame line
 * (found at this sample's header), and a sample's stack, whose lookup is
 * done two samples late.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <ember/collapse.h>
#include "collapse/count.h"
#include "collapse/inline.h"
#include "collapse/parse.h"
#include "collapse/sbuf.h"
#include "collapse/scan.h"
#include "collapse/table.h"
#include "collapse/tidy.h"

/*
 * @stack's components, filled from the end: unshift is a copy below the
 * ones there, and the buffer from top on is the stack root side first,
 * as it is joined, with no per-frame bookkeeping.
 */
struct rev_ids {
	uint32_t *v;
	size_t top, alloc;	/* v[top..alloc) in use */
};

/*
 * __feed() indexes up to LINE_BATCH lines at once (index_lines()), and
 * more once fewer than HINT_LINES are left: hint_next_sample() looks no
 * further ahead than the lines indexed.
 */
#define LINE_BATCH 2048
#define HINT_LINES 256

/* A sample's stack (ids, root first) waiting to be added to the table. */
struct pending_stack {
	struct id_vec key;
	uint64_t hash;
	struct pnum count;
	bool pending;
};

/* --srcline: a frame whose pieces wait for the lines after it. */
struct pending {
	bool active;
	struct sbuf data;	/* copies of pc, mod and the symbol */
	struct span pc, mod;
	struct piece_iter it;
	size_t idx;
	bool unknown;
};

/*
 * The last header's event and period (see read_event()): the text they
 * were read from (the line's end from ev.from on), where they are in it,
 * and the period as a number.
 */
struct event_memo {
	struct sbuf text;
	size_t name_off, name_len, period_off, period_len;
	bool has_period;
	struct pnum period;
};

/*
 * A header's root (pname and its id) depends only on the line's bytes up
 * to the blank after its pid/tid (collapse_parse_header() reads no
 * further). A system-wide profile's samples come from a few threads at a
 * time: the last few such prefixes, most recent first, give the root for
 * a compare instead of a parse, a tidy and a lookup.
 */
#define ROOT_MEMO 4
#define ROOT_MEMO_PREFIX 56

struct root_memo {
	uint32_t len;		/* of prefix, its last byte the blank; 0: unused */
	uint32_t root;
	bool live, live_java;	/* what pname_changed() made of its pname */
	char prefix[ROOT_MEMO_PREFIX];
};

struct ember_collapse {
	struct ember_collapse_opts opts;
	struct tidy_opts tidy;
	uint64_t lineno;	/* lines read (st.lines is taken from it) */
	struct sbuf partial;	/* an unfinished line from __feed() */

	struct sbuf pname;
	bool pname_set;
	/*
	 * pname_true() and, if so, whether the root is a Java one: every
	 * frame line asks, so they are kept at each change of pname.
	 */
	bool live, live_java;
	struct pnum period;
	uint32_t root;		/* pname's id in roots */

	struct sbuf filter;
	bool defaulted, warned;
	struct event_memo ev_memo;

	struct rev_ids stack;	/* the components of @stack's frames */
	struct id_vec split;	/* the components of a frame being named */
	struct sbuf cur;	/* the frame being named */
	/*
	 * The last two samples' stacks, added to the table two samples late:
	 * their slots and records, seldom in the cache, are asked for
	 * meanwhile (see end_sample()). The older is stacks[older].
	 */
	struct pending_stack stacks[2];
	unsigned older;
	struct pending pend;

	/* --inline and --srcline read more than the frame line: no frame cache */
	bool use_cache;
	/*
	 * Whether a __feed() is under way (the lines below are its buffer's,
	 * the line being read is lines[next_end - 1]), and the first frame
	 * line of the next sample found in it: its key and hash (see
	 * hint_next_sample()).
	 */
	bool in_feed;
	const char *hint_key;
	size_t hint_len;
	uint64_t hint_hash;
	/*
	 * The next lines in the __feed() buffer, as index_lines() found
	 * them: lines[next_end] is the one after the line being read, and so on
	 * up to lines[nends - 1].
	 */
	index_lines_fn *index_lines;
	struct line_ix lines[LINE_BATCH];
	unsigned nends, next_end;
	/*
	 * No blank line among lines[next_end..blank_at): where the search
	 * for the next one goes on (see hint_next_sample()).
	 */
	unsigned blank_at;
	uint32_t prev_frame;	/* the cache record of the last frame line, 0 if none */
	uint32_t prev2_frame;	/* and of the one before it */
	struct name_table names;
	struct root_table roots;
	struct frame_cache frames;
	struct stack_table table;
	struct inliner *inl;
	struct ember_collapse_stats st;
	struct root_memo memo[ROOT_MEMO];
	uint8_t memo_order[ROOT_MEMO];	/* memo's entries, the most recent first */
};

static void diag(struct ember_collapse *c, enum ember_collapse_diag kind, const char *t, size_t n)
{
	if (c->opts.diag)
		c->opts.diag(c->opts.diag_ctx, kind, c->lineno, t, n);
}

struct ember_collapse *ember_collapse__new(const struct ember_collapse_opts *opts)
{
	struct ember_collapse *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	if (opts) {
		/* Copy only the fields the caller's struct has (sz), so the ABI can grow. */
		size_t n = opts->sz && opts->sz < sizeof(c->opts) ? opts->sz : sizeof(c->opts);

		memcpy(&c->opts, opts, n);
	}
	c->opts.sz = sizeof(c->opts);
	c->tidy = (struct tidy_opts){ .kernel = c->opts.annotate_kernel,
				      .jit = c->opts.annotate_jit,
				      .addrs = c->opts.include_addrs };
	if (c->opts.event_filter && sbuf_adds(&c->filter, c->opts.event_filter))
		goto fail;
	c->opts.event_filter = NULL;
	if (c->opts.show_inline && !(c->inl = inliner__new(c->opts.show_context)))
		goto fail;
	c->use_cache = !c->inl && !c->opts.srcline;
	c->index_lines = index_lines_pick();
	for (int i = 0; i < ROOT_MEMO; i++)
		c->memo_order[i] = i;
	return c;
fail:
	ember_collapse__delete(c);
	errno = ENOMEM;
	return NULL;
}

void ember_collapse__delete(struct ember_collapse *c)
{
	if (!c)
		return;
	sbuf_free(&c->partial);
	sbuf_free(&c->pname);
	sbuf_free(&c->filter);
	sbuf_free(&c->ev_memo.text);
	root_table_free(&c->roots);
	free(c->stack.v);
	id_vec_free(&c->split);
	sbuf_free(&c->cur);
	id_vec_free(&c->stacks[0].key);
	id_vec_free(&c->stacks[1].key);
	sbuf_free(&c->pend.data);
	name_table_free(&c->names);
	frame_cache_free(&c->frames);
	stack_table_free(&c->table);
	inliner__delete(c->inl);
	free(c);
}

/* Perl truth of $pname: defined, not "" and not "0". */
static bool pname_true(const struct ember_collapse *c)
{
	return c->pname_set && c->pname.len && !(c->pname.len == 1 && c->pname.buf[0] == '0');
}

static bool is_java(const struct ember_collapse *c)
{
	return c->pname.len >= 4 && !memcmp(c->pname.buf, "java", 4);
}

static void pname_changed(struct ember_collapse *c)
{
	c->live = pname_true(c);
	c->live_java = c->live && is_java(c);
}

/* Room for n more ids below top, the ones in use moved to the new end. 0 or -ENOMEM. */
static int rev_ids_grow(struct rev_ids *r, size_t n)
{
	size_t used = r->alloc - r->top, alloc = r->alloc ? r->alloc : 256;
	uint32_t *v;

	while (alloc - used < n) {
		if (alloc > (size_t)-1 / 2 / sizeof(*v))
			return -ENOMEM;
		alloc *= 2;
	}
	v = malloc(alloc * sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (used)
		memcpy(v + alloc - used, r->v + r->top, used * sizeof(*v));
	free(r->v);
	r->v = v;
	r->top = alloc - used;
	r->alloc = alloc;
	return 0;
}

/* unshift @stack, one element: the frame whose components are ids[0..n). */
static inline int push_ids(struct ember_collapse *c, const uint32_t *ids, size_t n)
{
	struct rev_ids *r = &c->stack;

	if (n > r->top && rev_ids_grow(r, n))
		return -ENOMEM;
	r->top -= n;
	if (n == 1)
		r->v[r->top] = ids[0];
	else
		memcpy(r->v + r->top, ids, n * sizeof(*ids));
	return 0;
}

/* unshift @stack, the frame named in c->cur; its components are left in c->split. */
static int push_seg(struct ember_collapse *c)
{
	c->split.nr = 0;
	return name_table_split(&c->names, c->cur.buf, c->cur.len, &c->split) ?:
	       push_ids(c, c->split.v, c->split.nr);
}

static void clear_stack(struct ember_collapse *c)
{
	c->stack.top = c->stack.alloc;
}

/* Adds a pending stack to the table. */
static int add_stack(struct ember_collapse *c, struct pending_stack *ps)
{
	if (!ps->pending)
		return 0;
	ps->pending = false;
	return stack_table_add(&c->table, ps->key.v, ps->key.nr, ps->hash, &ps->count);
}

/* Adds the pending stacks, the older first (a sum of doubles depends on the order). */
static int flush_stacks(struct ember_collapse *c)
{
	return add_stack(c, &c->stacks[c->older]) ?: add_stack(c, &c->stacks[!c->older]);
}

/*
 * A blank line: remember_stack(join(";", $pname, @stack), $m_period).
 * The lookup costs two cache misses (the slot, then the record) when
 * done at once. It is done two samples later instead: the slot is asked
 * for now, the record (named by the slot, come meanwhile) at the next
 * sample's end, and both are in the cache at the one after.
 */
static int end_sample(struct ember_collapse *c)
{
	struct pending_stack *ps = &c->stacks[c->older], *younger = &c->stacks[!c->older];
	const uint32_t *root_ids;
	size_t nroot;
	int err;

	if (!c->live)
		return 0;
	c->prev_frame = c->prev2_frame = 0;
	err = add_stack(c, ps);
	if (younger->pending)
		stack_table_prefetch(&c->table, younger->hash, 2);
	ps->key.nr = 0;
	root_ids = root_table_ids(&c->roots, c->root, &nroot);
	err = err ?: id_vec_add(&ps->key, root_ids, nroot);
	if (!err && c->stack.top < c->stack.alloc)
		err = id_vec_add(&ps->key, c->stack.v + c->stack.top,
				 c->stack.alloc - c->stack.top);
	if (err)
		return err;
	ps->hash = stack_table_hash(ps->key.v, ps->key.nr);
	ps->count = c->period;
	ps->pending = true;
	c->older = !c->older;
	stack_table_prefetch(&c->table, ps->hash, 1);
	c->st.samples++;
	clear_stack(c);
	c->pname_set = false;
	pname_changed(c);
	return 0;
}

/*
 * collapse_parse_event(), and the period (*period, 1 if none). Most
 * headers end alike (the same period and event): a line that ends with
 * the text the last match read gives the same answer, taken from the
 * memo for the cost of a compare instead of a backward scan and a
 * number's conversion.
 */
static bool read_event(struct ember_collapse *c, const char *l, size_t n,
		       struct collapse_event *ev, struct pnum *period)
{
	struct event_memo *m = &c->ev_memo;
	size_t t = m->text.len;

	if (t && n >= t && !memcmp(l + n - t, m->text.buf, t)) {
		const char *p = l + n - t;

		ev->name = (struct span){ p + m->name_off, m->name_len };
		ev->period = m->has_period ? (struct span){ p + m->period_off, m->period_len } :
					     (struct span){ NULL, 0 };
		*period = m->period;
		return true;
	}
	sbuf_reset(&m->text);
	if (!collapse_parse_event(l, n, ev))
		return false;
	if (ev->period.p && !(ev->period.len == 1 && ev->period.p[0] == '0'))
		pnum_from_digits(period, ev->period.p, ev->period.len);
	else
		*period = (struct pnum){ .u = 1 };
	/* out of memory: no memo, and the next header is read in full */
	if (sbuf_add(&m->text, l + ev->from, n - ev->from))
		return true;
	m->name_off = ev->name.p - (l + ev->from);
	m->name_len = ev->name.len;
	m->has_period = ev->period.p;
	m->period_off = ev->period.p ? (size_t)(ev->period.p - (l + ev->from)) : 0;
	m->period_len = ev->period.len;
	m->period = *period;
	return true;
}

/*
 * A header's event: false when the event filter skips it (the sample
 * keeps the last root), else its period set.
 */
static int header_event(struct ember_collapse *c, const char *l, size_t n)
{
	struct collapse_event ev;
	struct pnum period = { .u = 1 };

	c->prev_frame = c->prev2_frame = 0;
	if (read_event(c, l, n, &ev, &period)) {
		if (!c->filter.len) {
			/* By default only the first event type: mixing cycles and instructions misleads. */
			if (sbuf_add(&c->filter, ev.name.p, ev.name.len))
				return -ENOMEM;
			c->defaulted = true;
		} else if (ev.name.len != c->filter.len || memcmp(ev.name.p, c->filter.buf, ev.name.len)) {
			if (c->defaulted && !c->warned) {
				diag(c, EMBER_COLLAPSE_FILTERING, ev.name.p, ev.name.len);
				c->warned = true;
			}
			c->st.filtered++;
			return 0;
		}
	}
	c->period = period;
	return 1;
}

/* Whether a and b have their first n bytes equal: a prefix is some 20 bytes, memcmp costs more. */
static inline bool prefix_eq(const char *a, const char *b, size_t n)
{
	uint64_t x, y;

	if (n < 8)
		return !memcmp(a, b, n);
	for (size_t i = 0; i + 8 < n; i += 8) {
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			return false;
	}
	memcpy(&x, a + n - 8, 8);
	memcpy(&y, b + n - 8, 8);
	return x == y;
}

/* The memo entry whose prefix starts the line l, moved to the front; -1 if none. */
static int root_memo_find(struct ember_collapse *c, const char *l, size_t n)
{
	for (int i = 0; i < ROOT_MEMO; i++) {
		int e = c->memo_order[i];
		const struct root_memo *m = &c->memo[e];

		if (m->len && m->len <= n && prefix_eq(l, m->prefix, m->len)) {
			memmove(c->memo_order + 1, c->memo_order, i);
			c->memo_order[0] = e;
			return e;
		}
	}
	return -1;
}

/* Remembers the root of a header parsed in full (its prefix ends at h->end), in the oldest entry. */
static void root_memo_add(struct ember_collapse *c, const char *l, const struct collapse_header *h)
{
	int e = c->memo_order[ROOT_MEMO - 1];
	struct root_memo *m = &c->memo[e];

	if (h->end >= ROOT_MEMO_PREFIX)
		return;
	memcpy(m->prefix, l, h->end + 1);
	m->len = h->end + 1;
	m->root = c->root;
	m->live = c->live;
	m->live_java = c->live_java;
	memmove(c->memo_order + 1, c->memo_order, ROOT_MEMO - 1);
	c->memo_order[0] = e;
}

/* A header whose root the memo (entry e) gives. */
static int header_memo(struct ember_collapse *c, const char *l, size_t n, int e)
{
	const struct root_memo *m = &c->memo[e];

	if (!header_event(c, l, n))
		return 0;
	/*
	 * c->pname keeps the text of the last root parsed in full: only
	 * pname_changed() reads it, and its answers are the memo's.
	 */
	c->root = m->root;
	c->pname_set = true;
	c->live = m->live;
	c->live_java = m->live_java;
	return 0;
}

static int header(struct ember_collapse *c, const char *l, size_t n,
		  const struct collapse_header *h)
{
	static const struct span qmark = { "?", 1 };
	struct span pid = h->num1, tid = h->num2;
	int err;

	if (!header_event(c, l, n))
		return 0;
	/* if (not $tid) { $tid = $pid; $pid = "?" } */
	if (!tid.p || (tid.len == 1 && tid.p[0] == '0')) {
		tid = pid;
		pid = qmark;
	}
	sbuf_reset(&c->pname);
	err = tidy_root(c->opts.include_pid, c->opts.include_tid, h->comm, pid, tid, &c->pname);
	err = err ?: root_table_intern(&c->roots, &c->names, c->pname.buf, c->pname.len, &c->root);
	c->pname_set = !err;
	pname_changed(c);
	if (!err)
		root_memo_add(c, l, h);
	return err;
}

/*
 * Names the pieces of a frame from p->it on, until one needs a source
 * line (--srcline: returns with p->active set) or all are done (the
 * frame is pushed).
 */
static int advance_frame(struct ember_collapse *c, struct pending *p, const char *srcline,
			 size_t srclen)
{
	struct span piece;
	int err;

	if (srcline && sbuf_grow(&c->cur, 0) == 0) {
		err = tidy_srcline(srcline, srclen, &c->cur);
		if (err)
			return err;
	}
	p->active = false;
	while (piece_next(&p->it, &piece)) {
		if (p->idx && (err = sbuf_addc(&c->cur, ';')))
			return err;
		/* a frame is named only while the root is live: live_java is is_java() */
		err = tidy_piece(&c->tidy, c->live_java, piece, p->idx, p->pc, p->mod, &c->cur,
				 &p->unknown);
		if (err)
			return err;
		p->idx++;
		if (c->opts.srcline && !p->unknown) {
			p->active = true;
			return 0;
		}
	}
	return p->idx ? push_seg(c) : 0;
}

static int frame(struct ember_collapse *c, const struct collapse_frame *f)
{
	struct span func = f->func;
	struct pending *p = &c->pend;
	int err;

	sbuf_reset(&c->cur);
	if (c->inl && !collapse_mod_no_inline(f->mod.p, f->mod.len)) {
		bool unreadable = false;

		err = inliner__resolve(c->inl, f->pc, f->func, f->mod, &c->cur, &unreadable);
		if (err)
			return err;
		if (unreadable)
			diag(c, EMBER_COLLAPSE_NO_DEBUGINFO, f->mod.p, f->mod.len);
		if (c->cur.len && strcmp(c->cur.buf, "??") && strcmp(c->cur.buf, "??:??:0"))
			return push_seg(c);
		sbuf_reset(&c->cur);
	}
	func.len = collapse_strip_offset(func.p, func.len);
	if (func.len && func.p[0] == '(')
		return 0;	/* a process name */

	p->idx = 0;
	p->unknown = false;
	if (c->opts.srcline) {
		/* The pieces wait for later lines: keep copies of what they point into. */
		sbuf_reset(&p->data);
		err = sbuf_add(&p->data, f->pc.p, f->pc.len);
		err = err ?: sbuf_add(&p->data, f->mod.p, f->mod.len);
		err = err ?: sbuf_add(&p->data, func.p, func.len);
		if (err)
			return err;
		p->pc = (struct span){ p->data.buf, f->pc.len };
		p->mod = (struct span){ p->data.buf + f->pc.len, f->mod.len };
		func.p = p->data.buf + f->pc.len + f->mod.len;
	} else {
		p->pc = f->pc;
		p->mod = f->mod;
	}
	piece_iter_init(&p->it, func.p, func.len);
	return advance_frame(c, p, NULL, 0);
}

/*
 * A frame line met for the first time, whose names depend only on the
 * text after its address (key): named as frame() would, then cached.
 */
static int new_frame(struct ember_collapse *c, const struct collapse_frame *f, const char *key,
		     size_t klen, uint64_t hash, bool java)
{
	struct span func = f->func, piece;
	struct piece_iter it;
	bool unknown = false;
	size_t idx = 0;
	int err;

	sbuf_reset(&c->cur);
	func.len = collapse_strip_offset(func.p, func.len);
	if (func.len && func.p[0] == '(')
		return frame_cache_add(&c->frames, key, klen, hash, java, NULL, 0, &c->prev_frame);
	piece_iter_init(&it, func.p, func.len);
	while (piece_next(&it, &piece)) {
		if (idx && (err = sbuf_addc(&c->cur, ';')))
			return err;
		err = tidy_piece(&c->tidy, java, piece, idx, f->pc, f->mod, &c->cur, &unknown);
		if (err)
			return err;
		idx++;
	}
	if (!idx)
		return frame_cache_add(&c->frames, key, klen, hash, java, NULL, 0, &c->prev_frame);
	err = push_seg(c);
	return err ?: frame_cache_add(&c->frames, key, klen, hash, java, c->split.v, c->split.nr,
				      &c->prev_frame);
}

/* A frame line found to be the cached record ref. */
static inline int cached_frame(struct ember_collapse *c, uint32_t ref)
{
	struct frame_cache *fc = &c->frames;
	const struct frame_rec *r = frame_rec(fc, ref);
	uint32_t nids = r->nids & ~FRAME_REC_JAVA;

	/*
	 * The records the next two lines are tried against, as last time,
	 * are rarely in the cache: ask for them now. (The next one, asked
	 * for only a line ahead, had not come yet by its turn, most of the
	 * time; the one after will have.)
	 */
	if (c->prev2_frame)
		frame_rec(fc, c->prev2_frame)->next2 = ref;
	c->prev2_frame = c->prev_frame;
	c->prev_frame = ref;
	if (r->next)
		__builtin_prefetch(frame_rec(fc, r->next));
	if (r->next2)
		__builtin_prefetch(frame_rec(fc, r->next2));
	if (!c->live || !nids)
		return 0;
	return push_ids(c, frame_rec_ids(r), nids);
}

/*
 * The record predicted for the frame line at l (key start k), if the
 * line is it, else 0: the one that came after the last line last time,
 * else the one before that (then made the first guess).
 */
static inline uint32_t predicted_frame(const struct ember_collapse *c, const char *l, size_t n,
				       size_t k)
{
	const struct frame_cache *fc = &c->frames;
	struct frame_rec *prev;
	uint32_t pred, alt;

	if (!c->prev_frame) {
		pred = fc->first;
		return pred && frame_rec_is(frame_rec(fc, pred), l + k, n - k, c->live_java) ? pred : 0;
	}
	prev = frame_rec(fc, c->prev_frame);
	pred = prev->next;
	if (pred && frame_rec_is(frame_rec(fc, pred), l + k, n - k, c->live_java))
		return pred;
	alt = prev->alt;
	if (!alt || !frame_rec_is(frame_rec(fc, alt), l + k, n - k, c->live_java))
		return 0;
	prev->alt = pred;
	prev->next = alt;
	return alt;
}

/* Records that ref came after the frame line prev (0: first of a sample). */
static inline void set_next(struct frame_cache *fc, uint32_t prev, uint32_t ref)
{
	struct frame_rec *r;

	if (!prev) {
		fc->first = ref;
		return;
	}
	r = frame_rec(fc, prev);
	r->alt = r->next;
	r->next = ref;
}

/*
 * A line that is not a header: a frame, or unrecognised. The names of a
 * frame line depend on the text after its address, except when the
 * address is part of the name (--addrs and [unknown]) or the regular
 * expression backtracks into it (a symbol right after the address that
 * starts with '('); only the other lines are cached, keyed by that text
 * and whether the root is a Java one.
 */
static int frame_line(struct ember_collapse *c, const char *l, size_t n, size_t key_at,
		      bool guessed)
{
	struct frame_cache *fc = &c->frames;
	bool live = c->live, java = false;
	struct collapse_frame f;
	size_t k = 0;
	uint64_t hash = 0;
	uint32_t ref;

	if (c->use_cache) {
		if (key_at == LINE_NO_ADDR)
			goto slow;
		k = key_at;
		java = c->live_java;
		ref = guessed ? 0 : predicted_frame(c, l, n, k);
		if (!ref) {
			hash = l + k == c->hint_key && n - k == c->hint_len ?
				       c->hint_hash :
				       hash_bytes(l + k, n - k);
			ref = frame_cache_find(fc, l + k, n - k, hash, java);
			if (ref)
				set_next(fc, c->prev_frame, ref);
		}
		if (ref)
			return cached_frame(c, ref);
	}
slow:
	if (!collapse_parse_frame(l, n, &f)) {
		c->st.unrecognized++;
		diag(c, EMBER_COLLAPSE_UNRECOGNIZED, l, n);
		return 0;
	}
	if (!live)
		return 0;
	if (c->use_cache && f.func.p == l + k &&
	    !(c->opts.include_addrs && collapse_contains(f.func.p, f.func.len, "[unknown]"))) {
		uint32_t prev = c->prev_frame;
		int err = new_frame(c, &f, l + k, n - k, hash, java);

		if (!err && c->prev_frame)
			set_next(fc, prev, c->prev_frame);
		c->prev2_frame = c->prev_frame ? prev : 0;
		return err;
	}
	c->prev_frame = c->prev2_frame = 0;
	return frame(c, &f);
}

/*
 * The first frame line of a sample is seldom the one predicted (leaves
 * vary), so it is looked up in the frame cache: two cache misses, its
 * slot and then its record. At a header the next sample is usually in
 * the buffer already: its first frame line, found past this sample's
 * lines and the next header, is hashed now and its slot asked for, its
 * record at this sample's blank line (stage 2), so that the lookup
 * finds both in the cache.
 */
static void hint_next_sample(struct ember_collapse *c)
{
	const char *p, *nl, *prev;
	unsigned i = c->next_end;
	size_t k;

	c->hint_key = NULL;
	if (!c->use_cache || !c->in_feed)
		return;
	p = c->lines[i - 1].end + 1;	/* the next line's start */
	/*
	 * Past the next blank line (this sample's end). The search goes on
	 * where the last one stopped, so each line is looked at once: the
	 * look-ahead stays linear on any input. (Whatever line it ends at,
	 * the hint is only a hint: its key and hash are of that line.)
	 */
	if (c->blank_at > i)
		i = c->blank_at;
	prev = i == c->next_end ? p - 1 : c->lines[i - 1].end;
	for (; i < c->nends; i++) {
		nl = c->lines[i].end;
		if (nl == prev + 1)
			break;
		prev = nl;
	}
	c->blank_at = i++;
	if (i > c->nends)
		return;
	/* past the next header */
	if (c->nends - i < 2)
		return;
	p = c->lines[i].end + 1;
	nl = c->lines[i + 1].end;
	k = c->lines[i + 1].key_at;
	if (k == LINE_NO_ADDR)
		return;
	c->hint_key = p + k;
	c->hint_len = nl - p - k;
	c->hint_hash = hash_bytes(c->hint_key, c->hint_len);
	frame_cache_prefetch(&c->frames, c->hint_hash, 1);
}

/* A line, whose key start (see line_key_at()) is given. */
static int line(struct ember_collapse *c, const char *l, size_t n, size_t key_at)
{
	struct collapse_header h;
	int err;

	c->lineno++;
	if (c->pend.active)
		return advance_frame(c, &c->pend, l, n);	/* the script's $_ = <> */
	if (n && l[0] == '#')
		return 0;
	if (!n) {
		err = end_sample(c);
		if (c->hint_key)
			frame_cache_prefetch(&c->frames, c->hint_hash, 2);
		return err;
	}
	/* a header never starts with a blank, and most lines are frames: no call for them */
	if (!cl_is_space(l[0])) {
		int e = root_memo_find(c, l, n);

		if (e >= 0 || collapse_parse_header(l, n, &h)) {
			err = e >= 0 ? header_memo(c, l, n, e) : header(c, l, n, &h);
			hint_next_sample(c);
			return err;
		}
	}
	return frame_line(c, l, n, key_at, false);
}

int ember_collapse__line(struct ember_collapse *c, const char *l, size_t n)
{
	return line(c, l, n, line_key_at(l, n));
}

int ember_collapse__feed(struct ember_collapse *c, const void *buf, size_t len)
{
	const char *p = buf, *end = p + len, *scan = p;
	unsigned refill_at = 0;
	int err = 0;

	c->nends = c->next_end = c->blank_at = 0;
	c->in_feed = true;
	for (;;) {
		const struct line_ix *ix;
		const char *nl;
		uint32_t ref;

		if (c->next_end >= refill_at) {
			if (scan < end) {
				/* the ends not taken yet to the front, more after them */
				unsigned left = c->nends - c->next_end;

				memmove(c->lines, c->lines + c->next_end, left * sizeof(*c->lines));
				c->blank_at = c->blank_at > c->next_end ? c->blank_at - c->next_end : 0;
				c->next_end = 0;
				c->nends = left + c->index_lines(scan, end, c->lines + left,
								 LINE_BATCH - left, &scan);
				/* a search that stopped before the end left more than HINT_LINES */
				refill_at = scan < end ? c->nends - HINT_LINES : c->nends;
			}
			if (c->next_end == c->nends)
				break;
		}
		ix = &c->lines[c->next_end++];
		nl = ix->end;
		if (c->partial.len) {
			/* the line started in the last buffer: its key start is not known */
			err = sbuf_add(&c->partial, p, nl - p);
			err = err ?: ember_collapse__line(c, c->partial.buf, c->partial.len);
			sbuf_reset(&c->partial);
		} else if (c->use_cache && nl > p && cl_is_space(p[0]) &&
			   ix->key_at != LINE_NO_ADDR) {
			/*
			 * Most lines: a frame line (it starts with a blank, so it
			 * is no header, comment or blank line), most often the
			 * one predicted, taken here without a call; else looked
			 * up, as line() would, without guessing again. (The cache
			 * is off when --srcline may have a frame waiting for its
			 * lines.)
			 */
			c->lineno++;
			ref = predicted_frame(c, p, nl - p, ix->key_at);
			err = ref ? cached_frame(c, ref) : frame_line(c, p, nl - p, ix->key_at, true);
		} else {
			err = line(c, p, nl - p, ix->key_at);
		}
		if (err)
			break;
		p = nl + 1;
	}
	if (!err && p < end)
		err = sbuf_add(&c->partial, p, end - p);
	/* the buffer is the caller's again: no hint may point into it */
	c->in_feed = false;
	c->hint_key = NULL;
	c->nends = c->next_end = 0;
	return err;
}

int ember_collapse__end_file(struct ember_collapse *c)
{
	int err = 0;

	if (c->partial.len) {
		err = ember_collapse__line(c, c->partial.buf, c->partial.len);
		sbuf_reset(&c->partial);
	}
	return err ?: flush_stacks(c);
}

int ember_collapse__foreach(struct ember_collapse *c, ember_collapse_fn fn, void *ctx)
{
	struct sbuf text = { 0 };
	int ret = flush_stacks(c);
	size_t *idx;

	if (ret)
		return ret;
	idx = stack_table_sorted(&c->table, &c->names);
	if (!idx)
		return errno ? -errno : 0;
	for (size_t i = 0; i < c->table.nr && !ret; i++) {
		char num[PNUM_TEXT_MAX];

		sbuf_reset(&text);
		ret = stack_table_text(&c->table, &c->names, idx[i], &text) ?: sbuf_grow(&text, 0);
		if (ret)
			break;
		pnum_format(&stack_table_rec(&c->table, idx[i])->count, num);
		ret = fn(ctx, text.buf, text.len, num);
	}
	free(idx);
	sbuf_free(&text);
	return ret;
}

static int write_one(void *ctx, const char *stack, size_t len, const char *count)
{
	FILE *fp = ctx;

	if (fwrite(stack, 1, len, fp) != len || fputc(' ', fp) == EOF || fputs(count, fp) == EOF ||
	    fputc('\n', fp) == EOF)
		return -EIO;
	return 0;
}

int ember_collapse__write(struct ember_collapse *c, FILE *fp)
{
	return ember_collapse__foreach(c, write_one, fp);
}

void ember_collapse__stats(const struct ember_collapse *c, struct ember_collapse_stats *st)
{
	*st = c->st;
	st->lines = c->lineno;
	st->stacks = c->table.nr;
	/* the pending stacks that are new, once each */
	for (unsigned i = 0; i < 2; i++) {
		const struct pending_stack *ps = &c->stacks[i], *other = &c->stacks[!i];

		if (ps->pending && !stack_table_has(&c->table, ps->key.v, ps->key.nr, ps->hash) &&
		    !(i && other->pending && other->key.nr == ps->key.nr &&
		      !memcmp(other->key.v, ps->key.v, ps->key.nr * sizeof(*ps->key.v))))
			st->stacks++;
	}
	st->inline_lookups = c->inl ? inliner__lookups(c->inl) : 0;
}

size_t ember_collapse__root_name(const struct ember_collapse_opts *opts, const char *comm,
				 const char *pid, const char *tid, char *buf, size_t size)
{
	struct sbuf sb = { 0 };
	struct span sp = { "?", 1 }, st = { tid ? tid : "", tid ? strlen(tid) : 0 };
	size_t len;

	if (pid)
		sp = (struct span){ pid, strlen(pid) };
	/* the script's "not $tid": no tid, or "0", takes the pid's place */
	if (!pid || !st.len || (st.len == 1 && st.p[0] == '0')) {
		st = pid ? sp : st;
		sp = (struct span){ "?", 1 };
	}
	if (tidy_root(opts && opts->include_pid, opts && opts->include_tid,
		      (struct span){ comm, strlen(comm) }, sp, st, &sb)) {
		sbuf_free(&sb);
		if (size)
			buf[0] = '\0';
		return 0;
	}
	len = sb.len;
	if (size) {
		size_t n = len < size ? len : size - 1;

		memcpy(buf, sb.buf, n);
		buf[n] = '\0';
	}
	sbuf_free(&sb);
	return len;
}

long ember_collapse__frame_names(const struct ember_collapse_opts *opts, const char *root,
				 const char *pc, const char *sym, const char *dso, char *buf,
				 size_t size)
{
	struct tidy_opts t = { opts && opts->annotate_kernel, opts && opts->annotate_jit,
			       opts && opts->include_addrs };
	struct span spc = { pc, strlen(pc) }, mod = { dso, strlen(dso) }, piece;
	bool java = root && !strncmp(root, "java", 4), unknown = false;
	struct sbuf sb = { 0 };
	struct piece_iter it;
	size_t n = collapse_strip_offset(sym, strlen(sym)), idx = 0;
	long len;

	if (size)
		buf[0] = '\0';
	if (n && sym[0] == '(')
		return -1;
	piece_iter_init(&it, sym, n);
	while (piece_next(&it, &piece)) {
		if ((idx && sbuf_addc(&sb, ';')) ||
		    tidy_piece(&t, java, piece, idx, spc, mod, &sb, &unknown)) {
			sbuf_free(&sb);
			return -1;
		}
		idx++;
	}
	if (!idx)
		return -1;
	len = sb.len;
	if (size) {
		size_t m = sb.len < size ? sb.len : size - 1;

		memcpy(buf, sb.buf, m);
		buf[m] = '\0';
	}
	sbuf_free(&sb);
	return len;
}
