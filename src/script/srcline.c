// SPDX-License-Identifier: GPL-2.0-only
/*
 * Source lines for perf script -F srcline. perf (without libbfd) asks
 * `addr2line -e DSO` about map__rip_2objdump(map, addr), addr being the
 * map-relative address, and prints "file:line"; without an answer (no
 * line table, a "[kernel.kallsyms]"-like or /tmp/perf-PID.map dso) it
 * prints "SHORT_NAME[ADDR]". The lookups go to lib/symbol/srcline.c and
 * each answer is kept per (dso, address): a profile asks about the same
 * few addresses again and again.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/array.h"
#include "core/hash.h"
#include "core/hashtab.h"
#include "script/srcline.h"

/* The answers for one (dso, address). */
struct sl_entry {
	const struct ember_dso *dso;
	uint64_t addr;
	char *val;	/* file:line, or the fallback when addr2line knew nothing */
	char *fallback; /* "dso[addr]" */
	uint32_t dso_idx;
	bool failed;
};

/*
 * perf gives up on a dso's source lines after A2L_FAIL_LIMIT failed
 * lookups in a row from its first (one success and it never does): from
 * then on every address of it prints the fallback. Its lookups are not
 * cached, so each one printed counts.
 */
#define A2L_FAIL_LIMIT 123

struct sl_dso {
	const struct ember_dso *dso;
	unsigned int fails; /* perf's a2l_fails: 1 at first, 0 after a success */
	bool off;
};

struct script_srclines {
	struct ember_srclines *lines;
	struct sl_entry *entries;
	size_t nr, alloc;
	struct hashtab index;	/* entry + 1 by (dso, address) */
	struct sl_dso *dsos;
	size_t nr_dsos;
	bool full_path;
};

struct script_srclines *script_srclines__new(bool full_path)
{
	struct script_srclines *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->full_path = full_path;
	c->lines = ember_srclines__new();
	if (!c->lines) {
		script_srclines__delete(c);
		return NULL;
	}
	return c;
}

void script_srclines__delete(struct script_srclines *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nr; i++) {
		free(c->entries[i].val);
		free(c->entries[i].fallback);
	}
	free(c->entries);
	hashtab__exit(&c->index);
	free(c->dsos);
	ember_srclines__delete(c->lines);
	free(c);
}

/* perf's dso__name(): the file addr2line is asked about, NULL for none. */
static const char *a2l_path(struct ember_dso *dso)
{
	const char *name = ember_dso__symsrc_path(dso);

	if (!name || !*name)
		name = ember_dso__name(dso);
	if (!name || name[0] == '[' || !strncmp(name, "/tmp/perf-", 10))
		return NULL;
	return name;
}

struct sl_key {
	const struct script_srclines *c;
	const struct ember_dso *dso;
	uint64_t addr;
};

static bool sl_eq(const struct hashtab_slot *slot, const void *key)
{
	uint64_t val = slot->val;
	const struct sl_key *k = key;
	const struct sl_entry *e = &k->c->entries[val - 1];

	return e->dso == k->dso && e->addr == k->addr;
}

/* Fills sl's answers for al; -ENOMEM or 0. */
static int srcline_of(struct script_srclines *c, const struct ember_addr_location *al,
		      struct sl_entry *sl)
{
	struct ember_dso *dso = al->dso;
	const char *path = a2l_path(dso), *file;
	uint64_t addr = ember_dso__objdump_addr(dso, al->ip, al->addr, al->addr);
	unsigned int line;
	int r = 0;

	if (path)
		r = ember_srclines__find(c->lines, path, addr, &file, &line);
	if (r < 0)
		return r;
	if (asprintf(&sl->fallback, "%s[%" PRIx64 "]", ember_dso__short_name(dso), addr) < 0) {
		sl->fallback = NULL;
		return -ENOMEM;
	}
	if (r > 0) {
		const char *base = file ? file : "??";

		if (!c->full_path && strrchr(base, '/'))
			base = strrchr(base, '/') + 1;
		if (asprintf(&sl->val, "%s:%u", base, line) < 0) {
			sl->val = NULL;
			return -ENOMEM;
		}
		return 0;
	}
	sl->failed = true;
	sl->val = strdup(sl->fallback);
	return sl->val ? 0 : -ENOMEM;
}

static int dso_state(struct script_srclines *c, const struct ember_dso *dso, uint32_t *idx)
{
	struct sl_dso *d;

	for (size_t i = 0; i < c->nr_dsos; i++) {
		if (c->dsos[i].dso == dso) {
			*idx = (uint32_t)i;
			return 0;
		}
	}
	d = realloc(c->dsos, (c->nr_dsos + 1) * sizeof(*d));
	if (!d)
		return -ENOMEM;
	c->dsos = d;
	d[c->nr_dsos] = (struct sl_dso){.dso = dso, .fails = 1};
	*idx = (uint32_t)c->nr_dsos++;
	return 0;
}

int script_srclines__print(struct script_srclines *c, struct outbuf *ob,
			   const struct ember_addr_location *al)
{
	struct sl_key k = { c, al->dso, al->addr };
	uint64_t h = hash_mix64((uintptr_t)al->dso ^ hash_mix64(al->addr));
	struct hashtab_slot *s;
	struct sl_entry *sl;
	struct sl_dso *d;
	const char *val;

	if (!al->map || !al->dso)
		return 0;
	if (hashtab__reserve(&c->index, 1))
		return -ENOMEM;
	s = hashtab__slot(&c->index, h, sl_eq, &k);
	if (s->val) {
		sl = &c->entries[s->val - 1];
	} else {
		if (array__reserve((void **)&c->entries, &c->alloc, c->nr, sizeof(*sl)))
			return -ENOMEM;
		sl = &c->entries[c->nr];
		memset(sl, 0, sizeof(*sl));
		if (dso_state(c, al->dso, &sl->dso_idx) || srcline_of(c, al, sl)) {
			free(sl->val);
			free(sl->fallback);
			return -ENOMEM;
		}
		sl->dso = al->dso;
		sl->addr = al->addr;
		hashtab__fill(&c->index, s, h, ++c->nr);
	}
	d = &c->dsos[sl->dso_idx];
	if (d->off) {
		val = sl->fallback;
	} else if (sl->failed) {
		if (d->fails && ++d->fails > A2L_FAIL_LIMIT)
			d->off = true;
		val = sl->val;
	} else {
		d->fails = 0;
		val = sl->val;
	}
	/* perf leaves addr2line's "??:0" out */
	if (strcmp(val, "??:0")) {
		outbuf__putn(ob, "\n  ", 3);
		outbuf__puts(ob, val);
	}
	return 0;
}
