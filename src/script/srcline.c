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
#include "script/srcline.h"
#include "symbol/srcline.h"

struct sl_slot {
	const struct ember_dso *dso; /* NULL: free slot */
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
	struct srclines *lines;
	struct sl_slot *slots;
	size_t mask, nr;
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
	c->mask = 255;
	c->slots = calloc(c->mask + 1, sizeof(*c->slots));
	c->lines = srclines__new();
	if (!c->slots || !c->lines) {
		script_srclines__delete(c);
		return NULL;
	}
	return c;
}

void script_srclines__delete(struct script_srclines *c)
{
	if (!c)
		return;
	for (size_t i = 0; c->slots && i <= c->mask; i++) {
		free(c->slots[i].val);
		free(c->slots[i].fallback);
	}
	free(c->slots);
	free(c->dsos);
	srclines__delete(c->lines);
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

static size_t slot_of(const struct ember_dso *dso, uint64_t addr, size_t mask)
{
	uint64_t h = (uintptr_t)dso * 31 + addr * 0x9e3779b97f4a7c15ULL;

	return (h ^ h >> 29) & mask;
}

/* Fills sl's answers for al; -ENOMEM or 0. */
static int srcline_of(struct script_srclines *c, const struct ember_addr_location *al,
		      struct sl_slot *sl)
{
	struct ember_dso *dso = al->dso;
	const char *path = a2l_path(dso), *file;
	uint64_t addr = srclines__objdump_addr(dso, al->ip, al->addr, al->addr);
	unsigned int line;
	int r = 0;

	if (path)
		r = srclines__find(c->lines, path, addr, &file, &line);
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

static int grow(struct script_srclines *c)
{
	size_t mask = c->mask * 2 + 1;
	struct sl_slot *slots = calloc(mask + 1, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i <= c->mask; i++) {
		struct sl_slot *o = &c->slots[i];
		size_t j;

		if (!o->dso)
			continue;
		j = slot_of(o->dso, o->addr, mask);
		while (slots[j].dso)
			j = (j + 1) & mask;
		slots[j] = *o;
	}
	free(c->slots);
	c->slots = slots;
	c->mask = mask;
	return 0;
}

int script_srclines__print(struct script_srclines *c, struct outbuf *ob,
			   const struct ember_addr_location *al)
{
	struct sl_slot *sl;
	struct sl_dso *d;
	const char *val;
	size_t i;

	if (!al->map || !al->dso)
		return 0;
	i = slot_of(al->dso, al->addr, c->mask);
	for (;; i = (i + 1) & c->mask) {
		sl = &c->slots[i];
		if (!sl->dso || (sl->dso == al->dso && sl->addr == al->addr))
			break;
	}
	if (!sl->dso) {
		if (c->nr * 4 >= c->mask * 3) {
			if (grow(c))
				return -ENOMEM;
			return script_srclines__print(c, ob, al);
		}
		if (dso_state(c, al->dso, &sl->dso_idx) || srcline_of(c, al, sl)) {
			free(sl->val);
			free(sl->fallback);
			memset(sl, 0, sizeof(*sl));
			return -ENOMEM;
		}
		sl->dso = al->dso;
		sl->addr = al->addr;
		c->nr++;
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
