/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A dso's symbol table: a sorted array with perf's fix-ups (zero-size
 * symbols extended to the next one, one symbol kept per address) and an
 * O(log n) lookup that matches perf's symbols__find().
 *
 * perf keeps the symbols in a red-black tree and its lookup returns the
 * first symbol on the search path that holds the address, so where
 * symbols overlap (a zero-size _init stretched over the PLT entries,
 * nested or re-JITted symbols) the answer depends on the tree's shape.
 * The table remembers the order perf would have inserted and erased its
 * symbols in; symtab__index() replays that history on a copy of perf's
 * tree (core/rbtree.h, in symbol-index.c), when and only when symbols overlap, and
 * keeps just the address ranges where perf's answer is not the plain
 * lookup's (the last symbol starting at or before the address).
 */
#ifndef EMBER_LIB_SYMBOL_H
#define EMBER_LIB_SYMBOL_H

#include <stdbool.h>
#include <stdint.h>
#include <ember/symbol.h>
#include "symbol/demangle.h"
#include "core/arena.h"

struct ember_symbol {
	uint64_t start;
	uint64_t end;		/* exclusive; == start: matches start only */
	/*
	 * In the table's pool; read it with symbol__name(): while demangle is
	 * set it is still the mangled name, which symbol__name() swaps for
	 * the demangled one the first time it is asked for.
	 */
	const char *name;
	uint32_t seq;		/* insertion order (perf's tree order among equal starts) */
	uint8_t binding;	/* STB_* */
	uint8_t type;		/* STT_* */
	uint8_t demangle;	/* enum demangle_mode still to apply to name, or DEMANGLE_NONE */
	/* name was malloc'd by symbol__name(), freed with the table */
	uint8_t name_owned : 1;
	/* name ends in "@plt", to be put back after the part before it is demangled */
	uint8_t plt_suffix : 1;
};

/* A symbol perf's tree dropped: which, and how many had been inserted by then. */
struct symtab_erased {
	uint64_t start;
	uint32_t seq;
	uint32_t when;
};

/*
 * An address range inside overlapping symbols where perf's answer is not
 * symtab__find_last()'s, and perf's answer.
 */
struct symtab_span {
	uint64_t start, end;	/* [start, end) */
	uint32_t idx;		/* index into syms, or SYMTAB_NONE */
};

#define SYMTAB_NONE UINT32_MAX

struct symtab {
	struct ember_symbol *syms;
	size_t nr;
	size_t nr_sorted;	/* syms[0, nr_sorted) are sorted and searchable */
	size_t alloc;
	struct arena names;
	uint32_t nr_added;	/* symbols ever added: the next one's seq */
	/* The erase history, until symtab__index() has used it. */
	struct symtab_erased *erased;
	size_t nr_erased, alloc_erased;
	/* Set by symtab__index() when symbols overlap, sorted by start. */
	struct symtab_span *spans;
	size_t nr_spans;
	/*
	 * Set by symtab__index(): the start of every SYMTAB_BLOCK-th symbol,
	 * for syms[0, blocks_for): a lookup's first steps stay in this small
	 * array, not in a big table's cache lines.
	 */
	uint64_t *block_start;
	size_t nr_blocks, blocks_for;
};

#define SYMTAB_BLOCK 16

/* Makes room for more symbols to be added without moving the table; 0 or -ENOMEM. */
int symtab__reserve(struct symtab *t, size_t more);
/* Appends a symbol [start, start + len) named name[0, namelen); 0 or -ENOMEM. */
int symtab__add(struct symtab *t, uint64_t start, uint64_t len, uint8_t binding, uint8_t type,
		const char *name, size_t namelen);
/*
 * Appends a symbol named name itself, not a copy: name must live as long
 * as t (in t's pool, from arena__alloc(&t->names, ...)). 0 or -ENOMEM.
 */
int symtab__add_ref(struct symtab *t, uint64_t start, uint64_t len, uint8_t binding, uint8_t type,
		    const char *name);
/*
 * Appends perf's PLT symbol "name@plt" for [start, start + len), demangled
 * (with mode) when its name is first asked for; 0 or -ENOMEM.
 */
int symtab__add_plt(struct symtab *t, uint64_t start, uint64_t len, const char *name,
		    enum demangle_mode mode);
/*
 * Marks the symbol symtab__add() just added as to be demangled with mode
 * when its name is first asked for (if it then looks mangled): loading a
 * binary then costs no demangling, nor reading, of the names no sample
 * lands in.
 */
void symtab__demangle_last_lazily(struct symtab *t, enum demangle_mode mode);
/*
 * The symbol's name as shown (demangled if it was marked so). Not
 * thread-safe for a symbol still to be demangled: tables loaded lazily
 * (ELF files) are only read on the thread that loaded them.
 */
const char *symbol__name_demangle(const struct ember_symbol *sym);
/* Inline: asked for each sample resolved, and nearly always already final. */
static inline const char *symbol__name(const struct ember_symbol *sym)
{
	return sym->demangle == DEMANGLE_NONE ? sym->name : symbol__name_demangle(sym);
}
/* Sorts by start, keeping insertion order among equal starts (perf's rb-tree order). */
void symtab__sort(struct symtab *t);
/*
 * perf's symbols__fixup_end(): a zero-size symbol ends where the next one
 * starts; for kallsyms, not across a kernel/module boundary (names with a
 * '[' are module symbols), and the last one gets a page.
 */
void symtab__fixup_end(struct symtab *t, bool is_kallsyms);
/*
 * perf's symbols__fixup_duplicate(): one symbol per start address, the
 * best named; remembers which were erased, in perf's order.
 */
void symtab__fixup_duplicate(struct symtab *t);
/*
 * Call once the table is complete (sorted, nothing more to add): where
 * symbols overlap, works out which one perf's tree lookup returns for
 * each address, then drops the insert/erase history. 0 or -ENOMEM (the
 * lookup then falls back to the last symbol starting at or before addr).
 */
int symtab__index(struct symtab *t);
/* Builds t's block_start for its sorted symbols (symtab__index() calls it); on ENOMEM there is none. */
void symtab__index_blocks(struct symtab *t);
/*
 * The symbol covering addr, as perf's symbols__find() returns it, or
 * NULL; only the sorted part is searched.
 */
const struct ember_symbol *symtab__find(const struct symtab *t, uint64_t addr);
/* The last symbol starting at or before addr if it holds addr, else NULL: perf's answer without overlaps. */
const struct ember_symbol *symtab__find_last(const struct symtab *t, uint64_t addr);
/* Frees the table's symbols and names; the table is empty afterwards. */
void symtab__exit(struct symtab *t);

#endif
