// SPDX-License-Identifier: GPL-2.0-only
/*
 * What symtab__index() makes of overlapping symbols on its copy of perf's
 * symbol rb-tree (perf's first-on-the-path answer); the tree's own shapes
 * are tests/unit/test-core-rbtree.c's.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include "symbol/symbol.h"
#include "test.h"

static void add(struct symtab *t, uint64_t start, uint64_t len, const char *name)
{
	symtab__add(t, start, len, STB_GLOBAL, STT_FUNC, name, strlen(name));
}

static const char *find(struct symtab *t, uint64_t addr)
{
	const struct ember_symbol *s = symtab__find(t, addr);

	return s ? s->name : "(none)";
}

TEST(symbol_tree_index_nested)
{
	struct symtab tab = { 0 };

	/* outer first: the root, and it holds every address of inner too. */
	add(&tab, 0x1000, 0x100, "outer");
	add(&tab, 0x1010, 0x10, "inner");
	symtab__sort(&tab);
	CHECK_EQ(symtab__index(&tab), 0);
	CHECK_STR(find(&tab, 0x1015), "outer");
	CHECK_STR(find(&tab, 0x1050), "outer");
	CHECK_STR(find(&tab, 0x1100), "(none)");
	/* Kept: from inner on, where the plain lookup says inner, then nothing. */
	CHECK_EQ(tab.nr_spans, 1);
	if (tab.nr_spans == 1) {
		CHECK_EQ(tab.spans[0].start, 0x1010);
		CHECK_EQ(tab.spans[0].end, 0x1100);
	}
	symtab__exit(&tab);

	/* inner first: perf finds inner inside it, and past it turns right, missing outer. */
	add(&tab, 0x1010, 0x10, "inner");
	add(&tab, 0x1000, 0x100, "outer");
	symtab__sort(&tab);
	CHECK_EQ(symtab__index(&tab), 0);
	CHECK_STR(find(&tab, 0x1005), "outer");
	CHECK_STR(find(&tab, 0x1010), "inner");
	CHECK_STR(find(&tab, 0x101f), "inner");
	CHECK_STR(find(&tab, 0x1020), "(none)");
	CHECK_STR(find(&tab, 0x10ff), "(none)");
	/* Which is what the plain lookup says too: nothing to keep. */
	CHECK_EQ(tab.nr_spans, 0);
	symtab__exit(&tab);
}

TEST(symbol_tree_index_init_over_plt)
{
	struct symtab tab = { 0 };

	/*
	 * A zero-size _init stretched over the PLT (to _start), then PLT
	 * entries inserted after the fix-ups, as perf does. An object before
	 * _init makes _init the root: tag(B) _init(R) → _start rotates left:
	 * _init(B) over tag(R) and _start(R). a@plt: colour flip under
	 * _start; b@plt: rotations under _init's right. _init, at the root,
	 * is found first for every PLT address (perf's "_init+0x30").
	 */
	symtab__add(&tab, 0x37c, 0x20, STB_LOCAL, STT_OBJECT, "tag", 3);
	add(&tab, 0x1000, 0, "_init");
	add(&tab, 0x1070, 0x22, "_start");
	symtab__sort(&tab);
	symtab__fixup_end(&tab, false);
	symtab__fixup_duplicate(&tab);
	CHECK_EQ(tab.syms[1].end, 0x1070);
	add(&tab, 0x1030, 0x10, "a@plt");
	add(&tab, 0x1040, 0x10, "b@plt");
	symtab__sort(&tab);
	CHECK_EQ(symtab__index(&tab), 0);
	CHECK_STR(find(&tab, 0x1000), "_init");
	CHECK_STR(find(&tab, 0x1030), "_init");
	CHECK_STR(find(&tab, 0x1045), "_init");
	CHECK_STR(find(&tab, 0x106f), "_init");
	CHECK_STR(find(&tab, 0x1070), "_start");
	CHECK_STR(find(&tab, 0x37c), "tag");
	symtab__exit(&tab);

	/*
	 * _init first: _init(B) _start(R) main → rotate: _start(B) over
	 * _init(R) and main(R). a@plt under _init: colour flip; b@plt:
	 * rotate left at _init: a@plt(B) over _init(R) and b@plt(R); c@plt:
	 * colour flip at a@plt; d@plt: rotate left at b@plt: c@plt(B) over
	 * b@plt(R) and d@plt(R). The PLT entries sit above _init: each is
	 * found by its own name, _init only before the first, and .plt.got
	 * (held by _init alone, off the walk's path) by nothing.
	 */
	add(&tab, 0x1000, 0, "_init");
	add(&tab, 0x1070, 0x22, "_start");
	add(&tab, 0x1159, 0xbc, "main");
	symtab__sort(&tab);
	symtab__fixup_end(&tab, false);
	symtab__fixup_duplicate(&tab);
	add(&tab, 0x1020, 0x10, "a@plt");
	add(&tab, 0x1030, 0x10, "b@plt");
	add(&tab, 0x1040, 0x10, "c@plt");
	add(&tab, 0x1050, 0x10, "d@plt");
	symtab__sort(&tab);
	CHECK_EQ(symtab__index(&tab), 0);
	CHECK_STR(find(&tab, 0x1010), "_init");
	CHECK_STR(find(&tab, 0x1025), "a@plt");
	CHECK_STR(find(&tab, 0x1035), "b@plt");
	CHECK_STR(find(&tab, 0x1048), "c@plt");
	CHECK_STR(find(&tab, 0x1058), "d@plt");
	CHECK_STR(find(&tab, 0x1060), "(none)");
	CHECK_STR(find(&tab, 0x106f), "(none)");
	CHECK_STR(find(&tab, 0x1070), "_start");
	CHECK_STR(find(&tab, 0x1160), "main");
	symtab__exit(&tab);
}

TEST(symbol_tree_index_erased_duplicates)
{
	struct symtab tab = { 0 };

	/* Duplicates erased by the fix-up still shaped the tree before they went. */
	add(&tab, 0x100, 0x100, "big");
	add(&tab, 0x180, 0x10, "dup_a");
	add(&tab, 0x180, 0x10, "dup_bb");
	add(&tab, 0x300, 0x10, "far");
	symtab__sort(&tab);
	symtab__fixup_end(&tab, false);
	symtab__fixup_duplicate(&tab);
	CHECK_EQ(tab.nr, 3);
	CHECK_EQ(tab.nr_erased, 1);
	CHECK_EQ(symtab__index(&tab), 0);
	/*
	 * big(B) dup_a(R) → dup_bb: rotate left at big: dup_a(B) over big(R)
	 * and dup_bb(R); far under dup_bb: colour flip. Erasing dup_a (the
	 * root, loser to the longer name) moves its successor dup_bb up, so
	 * the walk past dup_bb turns right and misses big.
	 */
	CHECK_STR(find(&tab, 0x185), "dup_bb");
	CHECK_STR(find(&tab, 0x1a0), "(none)");
	CHECK_STR(find(&tab, 0x105), "big");
	symtab__exit(&tab);
}

TEST(symbol_tree_index_no_overlap_no_spans)
{
	struct symtab tab = { 0 };

	add(&tab, 0x100, 0x10, "a");
	add(&tab, 0x110, 0x10, "b");
	add(&tab, 0x200, 0, "c");
	symtab__sort(&tab);
	symtab__fixup_end(&tab, false);
	CHECK_EQ(symtab__index(&tab), 0);
	CHECK_EQ(tab.nr_spans, 0);
	CHECK(tab.spans == NULL);
	CHECK(tab.erased == NULL);
	CHECK_STR(find(&tab, 0x10f), "a");
	CHECK_STR(find(&tab, 0x110), "b");
	CHECK_STR(find(&tab, 0x120), "(none)");
	symtab__exit(&tab);
}
