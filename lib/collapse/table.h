/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Distinct stacks and their counts: an open-addressing hash table over a key arena. */
#ifndef EMBER_LIB_COLLAPSE_TABLE_H
#define EMBER_LIB_COLLAPSE_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include "collapse/count.h"
#include "collapse/sbuf.h"

struct stack_entry {
	uint64_t hash;
	size_t off, len;	/* the key in the arena */
	struct pnum count;
};

struct stack_table {
	struct stack_entry *v;	/* entries, in insertion order */
	size_t nr, alloc;
	uint32_t *slots;	/* 0: empty, else index + 1 into v */
	size_t nslots;
	struct sbuf keys;
};

/* Adds count to the key's total (a new key starts at 0). 0 or -ENOMEM. */
int stack_table_add(struct stack_table *t, const char *key, size_t len, const struct pnum *count);
/*
 * The entries sorted by key bytes, as Perl's sort { $a cmp $b }: a
 * malloc'd array of indexes into t->v (the caller frees it), NULL with
 * errno set on failure (or when empty, with errno 0).
 */
size_t *stack_table_sorted(const struct stack_table *t);
void stack_table_free(struct stack_table *t);

#endif
