// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The placeholders perf renames: per thread seen under ":TID", the comm
 * its first COMM gave it. Few threads are ever in here (those sampled
 * before the recording knew their name), so a small open table will do.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include "core/hash.h"
#include "hist/comms.h"

struct comm_slot {
	const void *thread;
	const char *placeholder;
	const char *name;	/* NULL until the thread's first COMM */
};

struct hist_comms {
	struct comm_slot *slots;
	size_t mask, nr;
};

struct hist_comms *hist_comms__new(void)
{
	return calloc(1, sizeof(struct hist_comms));
}

void hist_comms__delete(struct hist_comms *c)
{
	if (!c)
		return;
	free(c->slots);
	free(c);
}

static struct comm_slot *find(const struct hist_comms *c, const void *thread)
{
	size_t i;

	if (!c->slots)
		return NULL;
	for (i = hash_mix64((uintptr_t)thread) & c->mask; c->slots[i].thread; i = (i + 1) & c->mask)
		if (c->slots[i].thread == thread)
			return &c->slots[i];
	return NULL;
}

static int grow(struct hist_comms *c)
{
	size_t nmask = c->mask ? c->mask * 2 + 1 : 63, i;
	struct comm_slot *ns = calloc(nmask + 1, sizeof(*ns));

	if (!ns)
		return -ENOMEM;
	for (i = 0; c->slots && i <= c->mask; i++) {
		size_t j;

		if (!c->slots[i].thread)
			continue;
		for (j = hash_mix64((uintptr_t)c->slots[i].thread) & nmask; ns[j].thread;
		     j = (j + 1) & nmask)
			;
		ns[j] = c->slots[i];
	}
	free(c->slots);
	c->slots = ns;
	c->mask = nmask;
	return 0;
}

int hist_comms__placeholder(struct hist_comms *c, const void *thread, const char *comm)
{
	size_t i;

	if (find(c, thread))
		return 0;
	if ((c->nr + 1) * 2 > c->mask && grow(c))
		return -ENOMEM;
	for (i = hash_mix64((uintptr_t)thread) & c->mask; c->slots[i].thread; i = (i + 1) & c->mask)
		;
	c->slots[i] = (struct comm_slot){ .thread = thread, .placeholder = comm };
	c->nr++;
	return 0;
}

void hist_comms__set(struct hist_comms *c, const void *thread, const char *comm)
{
	struct comm_slot *s = find(c, thread);

	if (s && !s->name)
		s->name = comm;
}

const char *hist_comms__get(const struct hist_comms *c, const void *thread, const char *comm)
{
	const struct comm_slot *s = c && c->nr ? find(c, thread) : NULL;

	return s && s->name && s->placeholder == comm ? s->name : comm;
}
