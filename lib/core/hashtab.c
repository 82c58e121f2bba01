// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/hashtab.h"

#define HASHTAB_MIN_SLOTS 16

int hashtab__grow(struct hashtab *t, size_t more)
{
	size_t nslots = t->slots ? t->mask + 1 : HASHTAB_MIN_SLOTS, need;
	size_t stride = t->stride ? t->stride : sizeof(struct hashtab_slot);
	unsigned char *slots;

	if (more > SIZE_MAX / 4 - t->nr)
		return -ENOMEM;
	need = (t->nr + more) * 2;
	if (t->slots && need <= nslots)
		return 0;
	while (nslots < need)
		nslots *= 2;
	if (nslots > SIZE_MAX / stride)
		return -ENOMEM;
	slots = calloc(nslots, stride);
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; t->slots && i <= t->mask; i++) {
		const struct hashtab_slot *s = hashtab__at(t, i);
		size_t j;

		if (!s->val)
			continue;
		for (j = s->hash & (nslots - 1); ((struct hashtab_slot *)(slots + j * stride))->val;
		     j = (j + 1) & (nslots - 1))
			;
		memcpy(slots + j * stride, s, stride);
	}
	free(t->slots);
	t->slots = slots;
	t->mask = nslots - 1;
	t->stride = stride;
	return 0;
}

void hashtab__clear(struct hashtab *t)
{
	if (t->slots)
		memset(t->slots, 0, (t->mask + 1) * t->stride);
	t->nr = 0;
}

void hashtab__exit(struct hashtab *t)
{
	size_t stride = t->stride;

	free(t->slots);
	memset(t, 0, sizeof(*t));
	t->stride = stride;
}

void hashtab__remove(struct hashtab *t, struct hashtab_slot *s)
{
	size_t hole = ((unsigned char *)s - t->slots) / t->stride, i = hole;

	/*
	 * Each later slot of the run moves into the hole unless its home lies
	 * cyclically in (hole, i]: a probe from there would not pass the hole.
	 */
	for (;;) {
		struct hashtab_slot *si;
		size_t home;

		i = (i + 1) & t->mask;
		si = hashtab__at(t, i);
		if (!si->val)
			break;
		home = si->hash & t->mask;
		if (((i - home) & t->mask) >= ((i - hole) & t->mask)) {
			memcpy(hashtab__at(t, hole), si, t->stride);
			hole = i;
		}
	}
	memset(hashtab__at(t, hole), 0, t->stride);
	t->nr--;
}
