// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The placeholders perf renames: per thread seen under ":TID", the comm
 * its first COMM gave it. Few threads are ever in here (those sampled
 * before the recording knew their name): lib/core's table, names in the slots.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include "core/hash.h"
#include "core/hashtab.h"
#include "hist/comms.h"

/* A thread's names, in its slot (the thread is the value, hash_mix64() of it the hash). */
struct comm_names {
	const char *placeholder;
	const char *name;	/* NULL until the thread's first COMM */
};

struct hist_comms {
	struct hashtab threads;
};

struct hist_comms *hist_comms__new(void)
{
	struct hist_comms *c = calloc(1, sizeof(*c));

	if (c)
		c->threads.stride = sizeof(struct hashtab_slot) + sizeof(struct comm_names);
	return c;
}

void hist_comms__delete(struct hist_comms *c)
{
	if (!c)
		return;
	hashtab__exit(&c->threads);
	free(c);
}

static struct comm_names *find(const struct hist_comms *c, const void *thread)
{
	/* the pointer's hash is a bijection of it: no equality */
	struct hashtab_slot *s = hashtab__find(&c->threads, hash_mix64((uintptr_t)thread),
					       hashtab__eq_hash, NULL);

	return s ? hashtab__payload(s) : NULL;
}

int hist_comms__placeholder(struct hist_comms *c, const void *thread, const char *comm)
{
	uint64_t h = hash_mix64((uintptr_t)thread);
	struct hashtab_slot *s;

	if (hashtab__reserve(&c->threads, 1))
		return -ENOMEM;
	s = hashtab__slot(&c->threads, h, hashtab__eq_hash, NULL);
	if (s->val)
		return 0;
	*(struct comm_names *)hashtab__payload(s) = (struct comm_names){ .placeholder = comm };
	hashtab__fill(&c->threads, s, h, (uintptr_t)thread);
	return 0;
}

void hist_comms__set(struct hist_comms *c, const void *thread, const char *comm)
{
	struct comm_names *s = find(c, thread);

	if (s && !s->name)
		s->name = comm;
}

const char *hist_comms__get(const struct hist_comms *c, const void *thread, const char *comm)
{
	const struct comm_names *s = c && c->threads.nr ? find(c, thread) : NULL;

	return s && s->name && s->placeholder == comm ? s->name : comm;
}
