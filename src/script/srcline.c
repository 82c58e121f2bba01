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
	char *val; /* NULL: print nothing */
};

struct script_srclines {
	struct srclines *lines;
	struct sl_slot *slots;
	size_t mask, nr;
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
	for (size_t i = 0; c->slots && i <= c->mask; i++)
		free(c->slots[i].val);
	free(c->slots);
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

static char *srcline_of(struct script_srclines *c, const struct ember_addr_location *al)
{
	struct ember_dso *dso = al->dso;
	const char *path = a2l_path(dso), *file;
	/*
	 * perf's map__rip_2objdump(): an executable linked at fixed
	 * addresses is asked about its link-time address, others about the
	 * map-relative one.
	 */
	bool fixed = al->ip != al->addr && ember_dso__addr_to_vaddr(dso, al->addr) == al->ip;
	uint64_t addr = fixed ? al->ip : al->addr;
	unsigned int line;
	char *s = NULL;
	int r = 0;

	if (path)
		r = srclines__find(c->lines, path, addr, &file, &line);
	if (r < 0)
		return NULL;
	if (r > 0) {
		const char *base = file ? file : "??";

		if (!c->full_path && strrchr(base, '/'))
			base = strrchr(base, '/') + 1;
		if (asprintf(&s, "%s:%u", base, line) < 0)
			return NULL;
		return s;
	}
	if (asprintf(&s, "%s[%" PRIx64 "]", ember_dso__short_name(dso), addr) < 0)
		return NULL;
	return s;
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
		sl->val = srcline_of(c, al);
		if (!sl->val)
			return -ENOMEM;
		sl->dso = al->dso;
		sl->addr = al->addr;
		c->nr++;
	}
	/* perf leaves addr2line's "??:0" out */
	if (sl->val && strcmp(sl->val, "??:0")) {
		outbuf__putn(ob, "\n  ", 3);
		outbuf__puts(ob, sl->val);
	}
	return 0;
}
