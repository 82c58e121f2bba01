// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perf.data samples folded as `perf script | stackcollapse-perf.pl` folds
 * them, from the structured sample instead of its text: the same root
 * frame, the same names, the same counts. The rules are stackcollapse's,
 * applied to what perf script would have printed for each callchain
 * entry ("SYM+0xOFF (DSO)", "[unknown] (DSO)"):
 *
 *   - the offset goes; a name starting with '(' is skipped;
 *   - a name splits on "->" (old perf's inline chains), later parts "_[i]";
 *   - "[unknown]" becomes "[basename of the dso]" ("[unknown]" without map),
 *     "[dso <addr>]" with include_addrs;
 *   - ';' becomes ':', everything from the first '(' (but "(anonymous
 *     namespace)") is cut unless the name looks like a Go method
 *     "pkg.(*T).M", quotes are dropped; when the root starts with "java",
 *     a leading 'L' of a name with '/' goes;
 *   - "_[k]" on frames whose dso starts with '[' or ends in "vmlinux"
 *     (--kernel), "_[j]" on /tmp/perf-PID.map (--jit).
 *
 * These are the rules include/ember/collapse.h spells out for `ember
 * collapse` of perf script text: both must print the same lines.
 *
 * Names are cached per (symbol, dso, kind): a sample costs one probe per
 * callchain entry.
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ember/session.h>

#include "collapse/inline.h"
#include "collapse/parse.h"
#include "core/hash.h"
#include "event/event-names.h"
#include "symbol/dso.h"
#include "sample-fold.h"

#define DEFAULT_MAX_STACK 127

struct ember_flame_fold *ember_flame_fold__new(struct ember_flame *fl,
						       const struct ember_flame_fold_opts *opts)
{
	struct ember_flame_fold *c;

	if (!fl || (opts && opts->sz && opts->sz < offsetof(struct ember_flame_fold_opts, event) +
							  sizeof(opts->event))) {
		errno = EINVAL;
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->fl = fl;
	/* A caller built against an older header passes a shorter struct. */
	if (opts && opts->sz)
		memcpy(&c->opts, opts, opts->sz < sizeof(c->opts) ? opts->sz : sizeof(c->opts));
	c->opts.sz = sizeof(c->opts);
	if (!c->opts.max_stack)
		c->opts.max_stack = DEFAULT_MAX_STACK;
	if (c->opts.event) {
		c->event = strdup(c->opts.event);
		c->event_given = true;
		if (!c->event)
			goto fail;
	}
	c->names.stride = sizeof(struct hashtab_slot) + sizeof(struct entry_key);
	c->opts.event = NULL;
	if (c->opts.inline_frames && !(c->inliner = inliner__new(false)))
		goto fail;
	/* A flame chart merges with the previous stack only: no leaf is reusable there. */
	if (!fl->flamechart && !(c->raw = flame_rawstacks__new()))
		goto fail;
	if (!(c->ipf = flame_ipframes__new()))
		goto fail;
	return c;
fail:
	ember_flame_fold__delete(c);
	errno = ENOMEM;
	return NULL;
}

void ember_flame_fold__delete(struct ember_flame_fold *c)
{
	if (!c)
		return;
	for (uint32_t i = 0; i < c->nr_attr_names; i++)
		free(c->attr_names[i]);
	free(c->attr_names);
	free(c->event);
	hashtab__exit(&c->names);
	free(c->ids);
	free(c->stack);
	free(c->buf);
	flame_rawstacks__delete(c->raw);
	flame_ipframes__delete(c->ipf);
	free(c->entries);
	inliner__delete(c->inliner);
	sbuf_free(&c->chain);
	free(c);
}

const char *ember_flame_fold__event(const struct ember_flame_fold *c)
{
	return c ? c->event : NULL;
}

uint64_t ember_flame_fold__nr_other_event(const struct ember_flame_fold *c)
{
	return c ? c->nr_other : 0;
}

uint64_t ember_flame_fold__nr_no_debuginfo(const struct ember_flame_fold *c)
{
	return c ? c->nr_no_debuginfo : 0;
}

static int buf_reserve(struct ember_flame_fold *c, size_t n)
{
	if (n <= c->alloc_buf)
		return 0;
	size_t alloc = c->alloc_buf ? c->alloc_buf : 256;

	while (alloc < n)
		alloc *= 2;
	char *grown = realloc(c->buf, alloc);

	if (!grown)
		return -ENOMEM;
	c->buf = grown;
	c->alloc_buf = alloc;
	return 0;
}

/* Perl's m/\.\(.*\)\./: a Go method like "net/http.(*Client).Do". */
static bool go_method(const char *s, size_t len)
{
	for (size_t i = 0; i + 1 < len; i++) {
		if (s[i] != '.' || s[i + 1] != '(')
			continue;
		for (size_t j = i + 2; j + 1 < len; j++)
			if (s[j] == ')' && s[j + 1] == '.')
				return true;
		return false;
	}
	return false;
}

/* stackcollapse-perf.pl's tidy_generic and tidy_java on s (in place); returns the new length. */
static size_t tidy(char *s, size_t len, bool java)
{
	static const char anon[] = "anonymous namespace)";
	size_t o = 0;

	for (size_t i = 0; i < len; i++)
		if (s[i] == ';')
			s[i] = ':';
	if (!go_method(s, len)) {
		for (size_t i = 0; i < len; i++) {
			if (s[i] == '(' && (len - i - 1 < sizeof(anon) - 1 ||
					    memcmp(s + i + 1, anon, sizeof(anon) - 1))) {
				len = i;
				break;
			}
		}
	}
	for (size_t i = 0; i < len; i++)
		if (s[i] != '"' && s[i] != '\'')
			s[o++] = s[i];
	len = o;
	if (java && len && s[0] == 'L' && memchr(s, '/', len)) {
		memmove(s, s + 1, len - 1);
		len--;
	}
	return len;
}

/* Perl's m:/tmp/perf-\d+\.map: and m:/jitted-\d+-\d+\.so: anywhere in mod. */
static bool digits_then(const char *p, const char *rest, const char **end)
{
	const char *q = p;

	while (*q >= '0' && *q <= '9')
		q++;
	if (q == p || strncmp(q, rest, strlen(rest)))
		return false;
	if (end)
		*end = q + strlen(rest);
	return true;
}

static bool perf_map_dso(const char *mod)
{
	for (const char *p = strstr(mod, "/tmp/perf-"); p; p = strstr(p + 1, "/tmp/perf-"))
		if (digits_then(p + 10, ".map", NULL))
			return true;
	return false;
}

/* JIT code for colours: perf-PID.map symbols and perf inject --jit's jitted-*.so. */
static bool jit_dso(const char *mod)
{
	if (perf_map_dso(mod))
		return true;
	for (const char *p = strstr(mod, "/jitted-"); p; p = strstr(p + 1, "/jitted-")) {
		const char *q;

		if (digits_then(p + 8, "-", &q) && digits_then(q, ".so", NULL))
			return true;
	}
	return false;
}

/* Perl's $mod =~ m/(^\[|vmlinux$)/ && $mod !~ /unknown/. */
static bool kernel_dso(const char *mod)
{
	size_t len = strlen(mod);

	return (mod[0] == '[' || (len >= 7 && !strcmp(mod + len - 7, "vmlinux"))) &&
	       !strstr(mod, "unknown");
}

/* What the entry's dso name says, searched once per (dso, name). */
static const struct dso_props *dso_props(struct ember_flame_fold *c,
					 const struct ember_addr_location *al)
{
	uint64_t k = ((uintptr_t)al->dso ^ (uintptr_t)al->dso_name * 0x9e3779b97f4a7c15ULL) *
		     0xff51afd7ed558ccdULL;
	struct dso_props *p = &c->dso_props[k >> 58 & (DSO_PROPS - 1)];

	if (!p->set || p->dso != al->dso || p->name != al->dso_name) {
		p->dso = al->dso;
		p->name = al->dso_name;
		p->set = true;
		p->odd = al->dso_name && strstr(al->dso_name, " (");
		p->jit = al->dso_name && jit_dso(al->dso_name);
	}
	return p;
}

static int ids_push(struct ember_flame_fold *c, uint32_t id)
{
	if (c->nr_ids == c->alloc_ids) {
		size_t alloc = c->alloc_ids ? c->alloc_ids * 2 : 1024;
		uint32_t *grown = realloc(c->ids, alloc * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		c->ids = grown;
		c->alloc_ids = alloc;
	}
	c->ids[c->nr_ids++] = id;
	return 0;
}

/*
 * --inline applies to the entry: a user dso stackcollapse-perf.pl would ask
 * addr2line about. An unwound frame's inline level is one already, printed
 * by perf script with "(inlined)" for its dso, which addr2line cannot read.
 */
static bool inline_applies(const struct ember_flame_fold *c,
			   const struct ember_addr_location *al)
{
	return c->inliner && al->dso_name && !al->inlined &&
	       al->cpumode != PERF_RECORD_MISC_KERNEL &&
	       al->cpumode != PERF_RECORD_MISC_GUEST_KERNEL && !strstr(al->dso_name, " (") &&
	       !collapse_mod_no_inline(al->dso_name, strlen(al->dso_name));
}

/*
 * The entry's inline chain, as `stackcollapse-perf.pl --inline` puts it in
 * place of the frame: addr2line's functions outermost first, asked about
 * the address and "SYM+0xOFF" perf script prints. Returns the frames
 * added (0: DWARF knows nothing, keep the plain frame), or -errno.
 */
static int inline_frames(struct ember_flame_fold *c, const struct ember_addr_location *al,
			 enum ember_flame_kind cpu_kind)
{
	struct sbuf *ch = &c->chain;
	char pc[24], *raw = NULL;
	bool unreadable = false;
	size_t start = 0;
	int n, err, nr = 0;

	n = snprintf(pc, sizeof(pc), "%" PRIx64, al->addr);
	if (al->sym_name && asprintf(&raw, "%s+0x%" PRIx64, al->sym_name, al->sym_off) < 0)
		return -ENOMEM;
	sbuf_reset(ch);
	err = inliner__resolve(c->inliner, (struct span){ pc, n },
			       raw ? (struct span){ raw, strlen(raw) } : (struct span){ "[unknown]", 9 },
			       (struct span){ al->dso_name, strlen(al->dso_name) }, ch, &unreadable);
	free(raw);
	if (err)
		return err;
	if (unreadable)
		c->nr_no_debuginfo++;
	if (!ch->len || (ch->len == 2 && !memcmp(ch->buf, "??", 2)) ||
	    (ch->len == 7 && !memcmp(ch->buf, "??:??:0", 7)))
		return 0;
	/* The folded line splits the chain at ';': so do we, the physical function first. */
	for (size_t i = 0; i <= ch->len; i++) {
		int id;

		if (i < ch->len && ch->buf[i] != ';')
			continue;
		if (i > start) {
			id = ember_flame__frame(c->fl, ch->buf + start, i - start,
						nr ? EMBER_FLAME_INLINE : cpu_kind);
			if (id < 0)
				return id;
			err = ids_push(c, id);
			if (err)
				return err;
			nr++;
		}
		start = i + 1;
	}
	return nr;
}

/*
 * The frames of one callchain entry, interned, appended to c->ids;
 * returns how many (0: the entry is skipped), or -errno.
 */
static int entry_frames(struct ember_flame_fold *c, const struct ember_addr_location *al,
			enum ember_flame_kind cpu_kind, bool java)
{
	const char *mod = al->dso_name ? al->dso_name : "[unknown]";
	const char *raw = al->sym_name ? al->sym_name : "[unknown]";
	char *text = NULL;
	size_t rawlen, start = 0;
	int nr = 0, err = 0;

	if (inline_applies(c, al)) {
		nr = inline_frames(c, al, cpu_kind);
		if (nr)
			return nr;
	}

	/*
	 * A dso name holding " (" (a deleted file: "/x (deleted)") makes the
	 * script split perf script's "SYM+0xOFF (DSO)" at its last " (":
	 * rebuild that text and split it the same way.
	 */
	if (al->dso_name && strstr(al->dso_name, " (")) {
		char *cut, *close;
		int n;

		if (al->sym_name)
			n = asprintf(&text, "%s+0x%" PRIx64 " (%s)", al->sym_name, al->sym_off,
				     al->dso_name);
		else
			n = asprintf(&text, "[unknown] (%s)", al->dso_name);
		if (n < 0)
			return -ENOMEM;
		for (cut = strstr(text, " ("); strstr(cut + 1, " ("); cut = strstr(cut + 1, " ("))
			;
		close = strrchr(text, ')');
		*close = '\0';
		*cut = '\0';
		mod = cut + 2;
		raw = text;
		/* The offset perf printed: "+0x" and lowercase hex at the end. */
		char *plus = strrchr(text, '+');

		if (plus && plus[1] == '0' && plus[2] == 'x' && plus[3] &&
		    strspn(plus + 3, "0123456789abcdef") == strlen(plus + 3))
			*plus = '\0';
	}
	rawlen = strlen(raw);
	if (raw[0] == '(')
		goto out;
	/* Perl's split drops trailing empty fields: "a->" is one frame. */
	while (rawlen >= 2 && !memcmp(raw + rawlen - 2, "->", 2))
		rawlen -= 2;
	for (size_t i = 0; rawlen && i <= rawlen; i++) {
		enum ember_flame_kind kind;
		const char *piece = raw + start;
		size_t plen, len;
		int id;

		if (i < rawlen && !(raw[i] == '-' && i + 1 < rawlen && raw[i + 1] == '>'))
			continue;
		plen = i - start;
		start = i + 2;
		if (plen == 9 && !memcmp(piece, "[unknown]", 9)) {
			const char *base = strcmp(mod, "[unknown]") ? strrchr(mod, '/') : NULL;
			const char *name = strcmp(mod, "[unknown]") ? (base ? base + 1 : mod)
								    : "unknown";

			err = buf_reserve(c, strlen(name) + 48);
			if (err)
				goto out;
			if (c->opts.include_addrs)
				/* perf script prints the map-relative address (al->addr). */
				len = snprintf(c->buf, c->alloc_buf, "[%s <%" PRIx64 ">]", name,
					       al->addr);
			else
				len = snprintf(c->buf, c->alloc_buf, "[%s]", name);
		} else {
			err = buf_reserve(c, plen + 8);
			if (err)
				goto out;
			memcpy(c->buf, piece, plen);
			len = plen;
		}
		len = tidy(c->buf, len, java);

		/* The annotation Perl would add, and the kind that colours the frame. */
		if (nr > 0) {
			if (!memmem(c->buf, len, "_[i]", 4)) {
				memcpy(c->buf + len, "_[i]", 4);
				len += 4;
			}
			kind = EMBER_FLAME_INLINE;
		} else if (c->opts.annotate_kernel && kernel_dso(mod)) {
			memcpy(c->buf + len, "_[k]", 4);
			len += 4;
			kind = EMBER_FLAME_KERNEL;
		} else if (c->opts.annotate_jit && perf_map_dso(mod)) {
			if (!memmem(c->buf, len, "_[j]", 4)) {
				memcpy(c->buf + len, "_[j]", 4);
				len += 4;
			}
			kind = EMBER_FLAME_JIT;
		} else {
			kind = cpu_kind;
		}
		id = ember_flame__frame(c->fl, c->buf, len, kind);
		if (id < 0) {
			err = id;
			goto out;
		}
		err = ids_push(c, id);
		if (err)
			goto out;
		nr++;
		i++;
	}
out:
	free(text);
	return err ? err : nr;
}

/* The name cache's hash of (symbol, dso, pc/kind/java) */
static uint64_t name_hash(const uint64_t key[3])
{
	return hash_words(key, 3);
}

static inline bool name_eq(const struct hashtab_slot *slot, const void *key)
{
	const struct entry_key *e = hashtab__payload(slot), *k = key;

	return e->sym == k->sym && e->dso == k->dso && e->pc == k->pc && e->kind == k->kind &&
	       e->java == k->java;
}

/* The cached frames of a callchain entry: *first and *nr into c->ids. */
int flame_fold_entry_lookup(struct ember_flame_fold *c,
				const struct ember_addr_location *al, enum ember_flame_kind kind,
				bool java, uint32_t *first, uint32_t *nr)
{
	/*
	 * The address is part of the name without a symbol with include_addrs,
	 * and the offset may be with a " (" dso (see entry_frames()).
	 */
	bool odd_dso = dso_props(c, al)->odd;
	/* With --inline the chain depends on the address, not only on the symbol. */
	uint64_t pc = (!al->sym && c->opts.include_addrs) || (al->sym && odd_dso) ||
				      inline_applies(c, al)
			      ? al->addr
			      : 0;
	/*
	 * A function inlined at an unwound frame shares the frame's symbol:
	 * its name (interned, so one pointer per name) keys it instead.
	 */
	const struct ember_symbol *sym = al->inlined ? (const void *)al->sym_name : al->sym;
	uint64_t key[3] = { (uintptr_t)sym, (uintptr_t)al->dso, pc ^ kind ^ ((uint64_t)java << 8) };
	struct entry_key k = { sym, al->dso, pc, kind, java };
	uint64_t h = name_hash(key), val = hashtab__get(&c->names, h, name_eq, &k);
	struct hashtab_slot *s;
	int n;

	if (val) {
		*first = (uint32_t)(val - 1);
		*nr = (val - 1) >> 32;
		return 0;
	}
	*first = c->nr_ids;
	n = entry_frames(c, al, kind, java);
	if (n < 0)
		return n;
	*nr = n;
	if (hashtab__reserve(&c->names, 1))
		return -ENOMEM;
	s = hashtab__slot(&c->names, h, name_eq, &k);
	memcpy(hashtab__payload(s), &k, sizeof(k));
	hashtab__fill(&c->names, s, h, ((uint64_t)*nr << 32 | *first) + 1);
	return 0;
}

static bool is_space(char ch)
{
	return ch == ' ' || (ch >= '\t' && ch <= '\r');
}

/*
 * stackcollapse-perf.pl takes the process name from the sample's header
 * line with the regex ^(\S.+?)\s+(\d+)[/]*(\d+)*\s+ (Perl). For a comm of two or more
 * characters without blanks that is the comm; for others (one letter,
 * blanks inside, a tid of -1) it is whatever the regex makes of the line perf script
 * prints, rebuilt here: "comm tid [cpu] secs.usecs: period ".
 * Returns the length of the name in line, or 0 when the regex fails (the
 * sample is then dropped, as stackcollapse-perf.pl drops it).
 */
static size_t perl_comm(const char *line, size_t len)
{
	if (!len || is_space(line[0]))
		return 0;
	for (size_t l = 2; l < len; l++) {
		size_t j = l;

		if (!is_space(line[j]))
			continue;
		while (j < len && is_space(line[j]))
			j++;
		if (j == len || line[j] < '0' || line[j] > '9')
			continue;
		while (j < len && line[j] >= '0' && line[j] <= '9')
			j++;
		while (j < len && line[j] == '/')
			j++;
		while (j < len && line[j] >= '0' && line[j] <= '9')
			j++;
		if (j < len && is_space(line[j]))
			return l;
	}
	return 0;
}

static size_t root_slot_of(const char *comm, uint32_t pid, uint32_t tid)
{
	return hash_mix64((uint64_t)pid << 32 ^ tid ^ (uintptr_t)comm) & (ROOT_SLOTS - 1);
}

/* The root frame, "comm" or "comm-PID" or "comm-PID/TID", spaces made '_'; 0 or -errno, 1: drop. */
static int root_frame(struct ember_flame_fold *c, const struct ember_session_sample *ss,
		      bool has_period, uint64_t printed_period, uint32_t *id, bool *java)
{
	const struct ember_sample *sample = ss->sample;
	/*
	 * The samples of one thread share the root. The comm string lives as
	 * long as the machine, and a new comm is a new string.
	 */
	struct root_slot *slot = &c->roots[root_slot_of(ss->al.comm, sample->pid, sample->tid)];
	const char *comm;
	size_t clen, len, need;
	bool simple;
	int ret;

	if (ss->al.comm && slot->comm == ss->al.comm && slot->pid == sample->pid &&
	    slot->tid == sample->tid) {
		*id = slot->root;
		*java = slot->java;
		c->last_root_set = true;
		return 0;
	}
	comm = ss->al.comm ? ss->al.comm : ":-1";
	clen = strlen(comm);
	/* perf prints the tid with %5d: -1 (an exiting task) is no run of digits. */
	simple = clen >= 2 && (int32_t)sample->tid >= 0;
	for (size_t i = 0; simple && i < clen; i++)
		if (is_space(comm[i]))
			simple = false;
	need = clen + 128;
	ret = buf_reserve(c, need);
	if (ret)
		return ret;
	if (simple) {
		memcpy(c->buf, comm, clen);
		len = clen;
	} else {
		uint64_t st = ss->attr->attr.sample_type;
		size_t n = snprintf(c->buf, need, "%s %5d ", comm, (int32_t)sample->tid);

		if (st & PERF_SAMPLE_CPU)
			n += snprintf(c->buf + n, need - n, "[%03u] ", sample->cpu);
		if (st & PERF_SAMPLE_TIME)
			n += snprintf(c->buf + n, need - n, "%5" PRIu64 ".%06" PRIu64 ": ",
				      sample->time / 1000000000, sample->time % 1000000000 / 1000);
		if (has_period)
			n += snprintf(c->buf + n, need - n, "%10" PRIu64 " ", printed_period);
		n += snprintf(c->buf + n, need - n, "event: ");
		len = perl_comm(c->buf, n < need ? n : need - 1);
		if (!len)
			return 1;
	}
	if (c->opts.include_tid)
		len += snprintf(c->buf + len, need - len, "-%u/%u", sample->pid, sample->tid);
	else if (c->opts.include_pid)
		len += snprintf(c->buf + len, need - len, "-%u", sample->pid);
	for (size_t i = 0; i < len; i++)
		if (c->buf[i] == ' ')
			c->buf[i] = '_';
	/* Perl's false: a root of "0" loses the sample. */
	if (len == 1 && c->buf[0] == '0')
		return 1;
	*java = len >= 4 && !memcmp(c->buf, "java", 4);
	ret = ember_flame__frame(c->fl, c->buf, len, EMBER_FLAME_USER);
	if (ret < 0)
		return ret;
	*id = ret;
	/* Odd comms depend on the sample's time and period: only plain ones are kept. */
	c->last_root_set = simple && ss->al.comm;
	if (c->last_root_set) {
		slot->comm = ss->al.comm;
		slot->pid = sample->pid;
		slot->tid = sample->tid;
		slot->root = *id;
		slot->java = *java;
	}
	return 0;
}

/* The event's name as perf script prints it, made once per attr. */
static const char *attr_name(struct ember_flame_fold *c, const struct ember_data_attr *attr)
{
	if (attr->name)
		return attr->name;
	if (attr->idx >= c->nr_attr_names) {
		uint32_t nr = attr->idx + 1;
		char **grown = realloc(c->attr_names, nr * sizeof(*grown));

		if (!grown)
			return NULL;
		memset(grown + c->nr_attr_names, 0, (nr - c->nr_attr_names) * sizeof(*grown));
		c->attr_names = grown;
		c->nr_attr_names = nr;
	}
	if (!c->attr_names[attr->idx]) {
		char buf[256];

		ember_event_names__attr_name(&attr->attr, buf, sizeof(buf));
		c->attr_names[attr->idx] = strdup(buf);
	}
	return c->attr_names[attr->idx];
}

/* "cpu-clock" matches "cpu-clock:ppp": the modifiers may be left out. */
static bool event_matches(const char *want, const char *name)
{
	size_t n = strlen(want);

	if (!strcmp(want, name))
		return true;
	if (strncmp(want, name, n) || name[n] != ':')
		return false;
	return strspn(name + n + 1, "ukhpPGHISDWe") == strlen(name + n + 1);
}

enum ember_flame_kind flame_fold_cpumode_kind(struct ember_flame_fold *c,
						  const struct ember_addr_location *al)
{
	if (al->cpumode == PERF_RECORD_MISC_KERNEL || al->cpumode == PERF_RECORD_MISC_GUEST_KERNEL)
		return EMBER_FLAME_KERNEL;
	if (!al->dso_name)
		return EMBER_FLAME_USER;
	return dso_props(c, al)->jit ? EMBER_FLAME_JIT : EMBER_FLAME_USER;
}

/*
 * The words a sample's folded stack depends on: its root frame (comm,
 * pid and tid as the options print them), the sample's cpumode and
 * whether its callchain is used, the thread, the generation of the maps
 * its addresses resolve in, its ip and its callchain as recorded. Two
 * samples with equal words fold to the same stack. 0 when the sample is
 * not worth a key (no thread, a root that depends on time or period, a
 * chain too long).
 */
static size_t raw_key(struct ember_flame_fold *c, const struct ember_session_sample *ss,
		      uint32_t root, bool callchain)
{
	const struct ember_sample *sm = ss->sample;
	size_t nchain = callchain ? sm->callchain_nr : 0, n = 0;

	if (!ss->thread || !c->last_root_set || RAW_KEY_HEAD + nchain > FLAME_RAW_KEY_MAX ||
	    (nchain && !sm->callchain))
		return 0;
	c->key[n++] = (uint64_t)root | (uint64_t)ss->al.cpumode << 32 | (uint64_t)callchain << 40;
	c->key[n++] = (uintptr_t)ss->thread;
	c->key[n++] = ember_thread__maps_gen(ss->thread);
	c->key[n++] = (uint64_t)sm->pid << 32 | sm->tid;
	c->key[n++] = sm->ip;
	if (nchain)
		memcpy(&c->key[n], sm->callchain, nchain * sizeof(*c->key));
	return n + nchain;
}

/*
 * The sample's own ip, resolved. A session opened with lazy_sample_ip
 * leaves that to us (level 0): most samples are folded from their
 * callchain, or found in the raw stacks, without it.
 */
static const struct ember_addr_location *sample_location(struct ember_flame_fold *c,
							 const struct ember_session_sample *ss)
{
	if (ss->al.level || !ss->thread)
		return &ss->al;
	ember_thread__resolve(ss->thread, ss->al.cpumode, ss->al.ip, &c->al);
	return &c->al;
}

/*
 * Whether attr's samples are drawn: 1 kept, 0 another event's, or
 * -ENOMEM. The verdict on an attr holds while its name does (a pipe's
 * EVENT_UPDATE may rename it): the kept event is set by the first
 * sample and never changes after.
 */
static int event_kept(struct ember_flame_fold *c, const struct ember_data_attr *attr,
		      bool tracepoint)
{
	if (attr != c->last_attr || attr->name != c->last_attr_name) {
		const char *name = attr_name(c, attr);
		bool kept = true;

		if (!name)
			return -ENOMEM;
		if (c->event_given) {
			kept = event_matches(c->event, name);
		} else if (!tracepoint) {
			if (!c->event) {
				c->event = strdup(name);
				if (!c->event)
					return -ENOMEM;
			} else {
				kept = !strcmp(c->event, name);
			}
		}
		c->last_attr = attr;
		c->last_attr_name = attr->name;
		c->last_attr_kept = kept;
	}
	return c->last_attr_kept;
}

/*
 * The frames of a chain the session resolves (or, without callchains,
 * of the sampled function alone) pushed onto the stack, root first.
 * Returns the chain's entries (0 for a chain perf drops) or a negative
 * errno.
 */
static int session_chain_frames(struct ember_flame_fold *c, struct ember_session *s,
				const struct ember_session_sample *ss, bool callchain, bool java,
				size_t *nr)
{
	const struct ember_addr_location *chain;
	int n, err;

	if (callchain) {
		n = ember_session__callchain_max(s, ss, c->opts.max_stack, &chain);
		if (n == -ENOMEM)
			return n;
		if (n < 0)
			n = 0;	/* an unknown context marker: perf drops the chain */
	} else {
		/* No callchains recorded: the sampled function alone. */
		chain = sample_location(c, ss);
		n = 1;
	}
	/* Leaf first in the chain, root first in the stack. */
	for (int i = n - 1; i >= 0; i--) {
		uint32_t first, cnt;

		if (!keep_frame(c, chain[i].cpumode))
			continue;
		err = flame_fold_entry_lookup(
		    c, &chain[i], flame_fold_cpumode_kind(c, &chain[i]), java, &first, &cnt);
		if (err)
			return err;
		for (uint32_t k = 0; k < cnt; k++) {
			err = stack_push(c, nr, c->ids[first + k]);
			if (err)
				return err;
		}
	}
	return n;
}

/*
 * The raw key in c->key[0, nkey) now names leaf, for the next sample with
 * these words, under the maps generation the resolution ended in (looking
 * up may have made the kernel's maps): the hash is made again when it moved.
 */
static void remember_stack(struct ember_flame_fold *c, const struct ember_thread *thread,
			   size_t nkey, uint64_t hash, uint32_t leaf)
{
	uint64_t gen = ember_thread__maps_gen(thread);

	if (gen != c->key[2]) {
		c->key[2] = gen;
		hash = hash_words(c->key, nkey);
	}
	flame_rawstacks__add(c->raw, c->key, nkey, hash, leaf);
}

int ember_flame_fold__sample(struct ember_flame_fold *c, struct ember_session *s,
				 const struct ember_session_sample *ss, enum ember_flame_side side)
{
	const struct ember_data_attr *attr = ss->attr;
	const struct ember_sample *sample = ss->sample;
	bool tracepoint, java = false;
	uint64_t period = 1, printed = 0;
	size_t nr = 0, nkey = 0;
	uint64_t hash = 0;
	uint32_t root, leaf;
	bool callchain;
	int n, err;

	if (!c || !s || !ss || !attr || !sample)
		return -EINVAL;
	/*
	 * perf script ends a tracepoint's header line with its fields, so
	 * stackcollapse-perf.pl finds neither period nor event there: each
	 * counts 1 and passes its event filter. Other events print
	 * "PERIOD EVENT:" (PERIOD when sampled).
	 */
	tracepoint = attr->attr.type == PERF_TYPE_TRACEPOINT;
	err = event_kept(c, attr, tracepoint);
	if (err <= 0) {
		c->nr_other += !err;
		return err;
	}
	/* Without PERIOD sampled, perf script prints the attr's fixed period. */
	if (!tracepoint) {
		printed = attr->attr.sample_type & PERF_SAMPLE_PERIOD ? sample->period
			  : attr->attr.freq ? 0 : attr->attr.sample_period;
		if (printed)
			period = printed;
	}
	if (c->opts.count_samples)
		period = 1;

	if (c->opts.frames != EMBER_FLAME_FRAMES_ALL && !keep_frame(c, ss->al.cpumode))
		return 0;

	err = root_frame(c, ss, !tracepoint, printed, &root, &java);
	if (err)
		return err < 0 ? err : 0;
	callchain = attr->attr.sample_type & PERF_SAMPLE_CALLCHAIN;
	if (c->raw && (nkey = raw_key(c, ss, root, callchain))) {
		int64_t node;

		hash = hash_words(c->key, nkey);
		node = flame_rawstacks__find(c->raw, c->key, nkey, hash);

		if (node >= 0) {
			err = flame_add_leaf(c->fl, (uint32_t)node, (double)period, 1, side);
			return err ? err : 1;
		}
	}
	err = stack_push(c, &nr, root);
	if (err)
		return err;

	/*
	 * a plain chain from its words and the frame cache, any other through
	 * the session (which gives unwound frames their inline functions)
	 */
	if (callchain && ss->thread && flame_chain_is_plain(sample) &&
	    ss->callchain_recorded >= sample->callchain_nr)
		n = flame_chain_frames(c, ss, java, &nr);
	else
		n = session_chain_frames(c, s, ss, callchain, java, &nr);
	if (n < 0)
		return n;
	if (c->opts.frames != EMBER_FLAME_FRAMES_ALL && nr == 1)
		return 0;
	err = flame_add_path(c->fl, c->stack, nr, (double)period, 1, side, &leaf);
	if (err)
		return err;
	/* A chain voided by an unknown context marker is not kept: the session counts each. */
	if (nkey && (n > 0 || !callchain || !sample->callchain_nr))
		remember_stack(c, ss->thread, nkey, hash, leaf);
	return 1;
}
