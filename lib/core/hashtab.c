// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/hashtab.h"

#define HASHTAB_MIN_SLOTS 16

int hashtab__reserve(struct hashtab *t, size_t more)
{
	size_t nslots = t->slots ? t->mask + 1 : HASHTAB_MIN_SLOTS, need;
	struct hashtab_slot *slots;

	if (more > SIZE_MAX / 4 - t->nr)
		return -ENOMEM;
	need = (t->nr + more) * 2;
	if (t->slots && need <= nslots)
		return 0;
	while (nslots < need)
		nslots *= 2;
	if (nslots > SIZE_MAX / sizeof(*slots))
		return -ENOMEM;
	slots = calloc(nslots, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; t->slots && i <= t->mask; i++) {
		const struct hashtab_slot *s = &t->slots[i];
		size_t j;

		if (!s->val)
			continue;
		for (j = s->hash & (nslots - 1); slots[j].val; j = (j + 1) & (nslots - 1))
			;
		slots[j] = *s;
	}
	free(t->slots);
	t->slots = slots;
	t->mask = nslots - 1;
	return 0;
}

void hashtab__clear(struct hashtab *t)
{
	if (t->slots)
		memset(t->slots, 0, (t->mask + 1) * sizeof(*t->slots));
	t->nr = 0;
}

void hashtab__exit(struct hashtab *t)
{
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

void hashtab__remove(struct hashtab *t, struct hashtab_slot *s)
{
	size_t hole = s - t->slots, i = hole;

	/*
	 * Each later slot of the run moves into the hole unless its home lies
	 * cyclically in (hole, i]: a probe from there would not pass the hole.
	 */
	for (;;) {
		size_t home;

		i = (i + 1) & t->mask;
		if (!t->slots[i].val)
			break;
		home = t->slots[i].hash & t->mask;
		if (((i - home) & t->mask) >= ((i - hole) & t->mask)) {
			t->slots[hole] = t->slots[i];
			hole = i;
		}
	}
	t->slots[hole] = (struct hashtab_slot){ 0 };
	t->nr--;
}
