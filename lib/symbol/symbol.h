/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A dso's symbol table: a sorted array with perf's fix-ups (zero-size
 * symbols extended to the next one, one symbol kept per address) and an
 * O(log n) lookup that matches perf's symbols__find().
 */
#ifndef EMBER_LIB_SYMBOL_H
#define EMBER_LIB_SYMBOL_H

#include <stdbool.h>
#include <stdint.h>
#include <ember/symbol.h>
#include "symbol/strpool.h"

struct ember_symbol {
	uint64_t start;
	uint64_t end;		/* exclusive; == start: matches start only */
	const char *name;	/* in the table's pool */
	uint32_t seq;		/* insertion order, keeps the sort stable */
	uint8_t binding;	/* STB_* */
	uint8_t type;		/* STT_* */
};

struct symtab {
	struct ember_symbol *syms;
	size_t nr;
	size_t nr_sorted;	/* syms[0, nr_sorted) are sorted and searchable */
	size_t alloc;
	struct strpool names;
};

/* Appends a symbol [start, start + len) named name[0, namelen); 0 or -ENOMEM. */
int symtab__add(struct symtab *t, uint64_t start, uint64_t len, uint8_t binding, uint8_t type,
		const char *name, size_t namelen);
/* Sorts by start, keeping insertion order among equal starts (perf's rb-tree order). */
void symtab__sort(struct symtab *t);
/*
 * perf's symbols__fixup_end(): a zero-size symbol ends where the next one
 * starts; for kallsyms, not across a kernel/module boundary (names with a
 * '[' are module symbols), and the last one gets a page.
 */
void symtab__fixup_end(struct symtab *t, bool is_kallsyms);
/* perf's symbols__fixup_duplicate(): one symbol per start address, the best named. */
void symtab__fixup_duplicate(struct symtab *t);
/* The symbol covering addr, or NULL; only the sorted part is searched. */
const struct ember_symbol *symtab__find(const struct symtab *t, uint64_t addr);
/* Frees the table's symbols and names; the table is empty afterwards. */
void symtab__exit(struct symtab *t);

#endif
