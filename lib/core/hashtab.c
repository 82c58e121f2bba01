// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/hashtab.h"

#define HASHTAB_MIN_SLOTS 16
#define HASHTAB_NARROW sizeof(struct hashtab_slot32)

/* The home slot index of slot s's item in a table of mask + 1 slots (of stride bytes). */
static inline size_t home_of(const void *s, size_t stride, size_t mask)
{
	if (stride == HASHTAB_NARROW)
		return ((const struct hashtab_slot32 *)s)->hash & mask;
	return ((const struct hashtab_slot *)s)->hash & mask;
}

/* Slot src's bytes to dst: the two plain widths without a call to memcpy. */
static inline void copy_slot(void *dst, const void *src, size_t stride)
{
	if (stride == HASHTAB_NARROW)
		*(struct hashtab_slot32 *)dst = *(const struct hashtab_slot32 *)src;
	else if (stride == sizeof(struct hashtab_slot))
		*(struct hashtab_slot *)dst = *(const struct hashtab_slot *)src;
	else
		memcpy(dst, src, stride);
}

/* Whether slot s holds a value. */
static inline bool full(const void *s, size_t stride)
{
	if (stride == HASHTAB_NARROW)
		return ((const struct hashtab_slot32 *)s)->val;
	return ((const struct hashtab_slot *)s)->val;
}

/*
 * Every slot of t moved to slots (nslots of them, zeroed), by its stored
 * hash: called with a constant stride for the plain widths, so that the
 * loop tests and copies those as words.
 */
__attribute__((always_inline))
static inline void rehash(const struct hashtab *t, unsigned char *slots, size_t nslots,
			  size_t stride)
{
	for (size_t i = 0; t->slots && i <= t->mask; i++) {
		const unsigned char *s = t->slots + i * stride;
		size_t j;

		if (!full(s, stride))
			continue;
		for (j = home_of(s, stride, nslots - 1); full(slots + j * stride, stride);
		     j = (j + 1) & (nslots - 1))
			;
		copy_slot(slots + j * stride, s, stride);
	}
}

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
	if (nslots > SIZE_MAX / stride ||
	    (stride == HASHTAB_NARROW && nslots - 1 > UINT32_MAX))	/* homes from 32 bits */
		return -ENOMEM;
	slots = calloc(nslots, stride);
	if (!slots)
		return -ENOMEM;
	if (stride == HASHTAB_NARROW)
		rehash(t, slots, nslots, HASHTAB_NARROW);
	else if (stride == sizeof(struct hashtab_slot))
		rehash(t, slots, nslots, sizeof(struct hashtab_slot));
	else
		rehash(t, slots, nslots, stride);
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

void hashtab__remove(struct hashtab *t, void *s)
{
	size_t hole = ((unsigned char *)s - t->slots) / t->stride, i = hole;

	/*
	 * Each later slot of the run moves into the hole unless its home lies
	 * cyclically in (hole, i]: a probe from there would not pass the hole.
	 */
	for (;;) {
		unsigned char *si;
		size_t home;

		i = (i + 1) & t->mask;
		si = t->slots + i * t->stride;
		if (!full(si, t->stride))
			break;
		home = home_of(si, t->stride, t->mask);
		if (((i - home) & t->mask) >= ((i - hole) & t->mask)) {
			copy_slot(t->slots + hole * t->stride, si, t->stride);
			hole = i;
		}
	}
	memset(t->slots + hole * t->stride, 0, t->stride);
	t->nr--;
}
