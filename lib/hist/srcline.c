// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perf report's srcline and srcfile: perf (without libbfd) asks
 * `addr2line -e DSO -i -f` about map__rip_2objdump(he->ip) and prints the
 * first answer's basename:line; when there is none (no .debug_line, a
 * "[kernel.kallsyms]"-like or /tmp/perf-PID.map dso, an address outside
 * the line table), it prints "sym+OFFSET" or "dso[addr]" instead. The
 * questions go to lib/symbol/srcline.c; each answer is kept per (dso,
 * address, key), so each is computed once.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ember/symbol.h>
#include "core/hash.h"
#include "core/hashtab.h"
#include "hist/srcline.h"

#define SRCLINE_UNKNOWN "??:0"

/* What a string is cached under, in its slot (the string, malloc'd, is the value). */
struct sl_key {
	const void *dso;
	uint64_t ip;
	uint64_t sym_start;
	uint8_t kind;		/* enum sl_kind */
};

/* The strings cached: a key's srcline or srcfile, or a callchain entry's srcline. */
enum sl_kind { SL_SRCLINE, SL_SRCFILE, SL_CHAIN };

struct hist_srclines {
	struct ember_srclines *lines;
	struct hashtab cache;	/* by slot_hash() */
};

struct hist_srclines *hist_srclines__new(void)
{
	struct hist_srclines *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->cache.stride = sizeof(struct hashtab_slot) + sizeof(struct sl_key);
	c->lines = ember_srclines__new();
	if (hashtab__reserve(&c->cache, 512) || !c->lines) {
		hist_srclines__delete(c);
		return NULL;
	}
	return c;
}

void hist_srclines__delete(struct hist_srclines *c)
{
	struct hashtab_slot *s;

	if (!c)
		return;
	hashtab__for_each(&c->cache, s)
		free((char *)(uintptr_t)s->val);
	hashtab__exit(&c->cache);
	ember_srclines__delete(c->lines);
	free(c);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* perf's dso__name(): the file addr2line is asked about, NULL for none. */
static const char *a2l_path(struct ember_dso *dso)
{
	const char *name = ember_dso__name(dso), *src = ember_dso__symsrc_path(dso);

	if (!name || name[0] == '[')
		return NULL;
	if (src && *src)
		name = src;
	if (name[0] == '[' || !strncmp(name, "/tmp/perf-", 10))
		return NULL;
	return name;
}

/* perf's __get_srcline() with show_addr; show_sym for the srcline key, not for srcfile's. */
static char *srcline_of(struct hist_srclines *c, const struct ember_hist_frame *f, uint64_t ip,
			bool show_sym)
{
	struct ember_dso *dso = (struct ember_dso *)f->dso;
	const char *path, *file;
	unsigned int line;
	uint64_t addr;
	char *s = NULL;
	int r = 0;

	if (!dso)
		return strdup(SRCLINE_UNKNOWN);
	/*
	 * perf passes the dso-relative address of a sample's own entry, and
	 * the raw ip of a callchain's, so that the latter rarely finds a
	 * line: as perf.
	 */
	addr = ember_dso__objdump_addr(dso, f->ip, f->addr, ip);
	path = a2l_path(dso);
	if (path)
		r = ember_srclines__find(c->lines, path, addr, &file, &line);
	if (r < 0)
		return NULL;
	if (r > 0) {
		/* addr2line says "??" for a file it cannot name */
		if (asprintf(&s, "%s:%u", file ? base_name(file) : "??", line) < 0)
			return NULL;
		return s;
	}
	if (f->sym) {
		if (asprintf(&s, "%s+%" PRIu64, show_sym && f->sym_name ? f->sym_name : "",
			     ip - f->sym_start) < 0)
			return NULL;
	} else if (asprintf(&s, "%s[%" PRIx64 "]", ember_dso__short_name(dso), addr) < 0) {
		return NULL;
	}
	return s;
}

/* perf's hist_entry__get_srcfile(): the srcline up to its ':', "" when it has none. */
static char *srcfile_of(struct hist_srclines *c, const struct ember_hist_frame *f, uint64_t ip)
{
	char *s, *p;

	if (!f->dso)
		return strdup("");
	s = srcline_of(c, f, ip, false);
	if (!s)
		return NULL;
	p = strchr(s, ':');
	if (!strcmp(s, SRCLINE_UNKNOWN) || !p || !*s)
		*s = '\0';
	else
		*p = '\0';
	return s;
}

static uint64_t slot_hash(const void *dso, uint64_t ip, uint64_t sym_start, uint8_t kind)
{
	return hash_mix64((uintptr_t)dso ^ hash_mix64(ip ^ (sym_start << 1)) ^ kind);
}

static inline bool sl_eq(const struct hashtab_slot *slot, const void *key)
{
	const struct sl_key *s = hashtab__payload(slot), *k = key;

	return s->dso == k->dso && s->ip == k->ip && s->sym_start == k->sym_start &&
	       s->kind == k->kind;
}

/* The cached string of kind for frame f at ip, made on a miss; NULL on ENOMEM. */
static const char *lookup(struct hist_srclines *c, const struct ember_hist_frame *f, uint64_t ip,
			  uint8_t kind)
{
	/* the symbol's start: its name and offset are part of a failed lookup's answer */
	uint64_t sym_start = f->sym ? f->sym_start : UINT64_MAX;
	struct sl_key k = { .dso = f->dso, .ip = ip, .sym_start = sym_start, .kind = kind };
	uint64_t h = slot_hash(f->dso, ip, sym_start, kind);
	struct hashtab_slot *s;
	char *val;

	if (hashtab__reserve(&c->cache, 1))
		return NULL;
	s = hashtab__slot(&c->cache, h, sl_eq, &k);
	if (s->val)
		return (const char *)(uintptr_t)s->val;
	val = kind == SL_SRCFILE ? srcfile_of(c, f, ip) : srcline_of(c, f, ip, kind == SL_SRCLINE);
	if (!val)
		return NULL;
	/* the lookups above touch no cache: s still names the free slot */
	memcpy(hashtab__payload(s), &k, sizeof(k));
	hashtab__fill(&c->cache, s, h, (uintptr_t)val);
	return val;
}

const char *hist_srclines__get(void *ctx, const struct ember_hist_frame *f, uint64_t ip, bool file)
{
	return lookup(ctx, f, ip, file ? SL_SRCFILE : SL_SRCLINE);
}

/* perf's callchain_srcline(): get_srcline() of al.addr, no symbol name */
const char *hist_srclines__chain(void *ctx, const struct ember_hist_frame *f)
{
	return lookup(ctx, f, f->addr, SL_CHAIN);
}
