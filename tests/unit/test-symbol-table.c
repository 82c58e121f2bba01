// SPDX-License-Identifier: GPL-2.0-only
/* The symbol table's fix-ups and lookup, against what perf's symbol.c does. */
#include <elf.h>
#include <string.h>
#include "symbol/symbol.h"
#include "test.h"

static void add(struct symtab *t, uint64_t start, uint64_t len, int bind, const char *name)
{
	symtab__add(t, start, len, bind, STT_FUNC, name, strlen(name));
}

static const char *find(struct symtab *t, uint64_t addr)
{
	const struct ember_symbol *s = symtab__find(t, addr);

	return s ? s->name : "(none)";
}

TEST(symbol_table_lookup_bounds)
{
	struct symtab tab = { 0 };

	add(&tab, 0x2000, 0x10, STB_GLOBAL, "b");
	add(&tab, 0x1000, 0x100, STB_GLOBAL, "a");
	add(&tab, 0x3000, 0x20, STB_LOCAL, "c");
	symtab__sort(&tab);
	symtab__fixup_end(&tab, false);
	symtab__fixup_duplicate(&tab);
	CHECK_EQ(tab.nr, 3);
	/* start, middle, last byte, one past the end, gaps */
	CHECK_STR(find(&tab, 0x1000), "a");
	CHECK_STR(find(&tab, 0x1080), "a");
	CHECK_STR(find(&tab, 0x10ff), "a");
	CHECK_STR(find(&tab, 0x1100), "(none)");
	CHECK_STR(find(&tab, 0xfff), "(none)");
	CHECK_STR(find(&tab, 0x2000), "b");
	CHECK_STR(find(&tab, 0x200f), "b");
	CHECK_STR(find(&tab, 0x2010), "(none)");
	CHECK_STR(find(&tab, 0x301f), "c");
	CHECK_STR(find(&tab, 0x3020), "(none)");
	CHECK_STR(find(&tab, ~0ULL), "(none)");
	symtab__exit(&tab);
	CHECK_STR(find(&tab, 0x1000), "(none)");
}

TEST(symbol_table_zero_size_extends)
{
	struct symtab tab = { 0 };

	add(&tab, 0x1000, 0, STB_GLOBAL, "zero"); /* extends to 0x1040 */
	add(&tab, 0x1040, 0x10, STB_GLOBAL, "sized");
	add(&tab, 0x2003, 0, STB_GLOBAL, "last"); /* last: to the next page + a page */
	symtab__sort(&tab);
	symtab__fixup_end(&tab, false);
	CHECK_EQ(tab.syms[0].end, 0x1040);
	CHECK_EQ(tab.syms[2].end, 0x4000);
	CHECK_STR(find(&tab, 0x103f), "zero");
	CHECK_STR(find(&tab, 0x1040), "sized");
	CHECK_STR(find(&tab, 0x3fff), "last");
	symtab__exit(&tab);
}

TEST(symbol_table_zero_size_unfixed_matches_start_only)
{
	struct symtab tab = { 0 };

	/* No fix-up (perf-PID.map symbols): a zero-size symbol is its start only. */
	add(&tab, 0x1000, 0, STB_GLOBAL, "point");
	symtab__sort(&tab);
	CHECK_STR(find(&tab, 0x1000), "point");
	CHECK_STR(find(&tab, 0x1001), "(none)");
	symtab__exit(&tab);
}

TEST(symbol_table_kallsyms_module_boundary)
{
	struct symtab tab = { 0 };

	add(&tab, 0xffffffff81000000ULL, 0, STB_GLOBAL, "_stext");
	add(&tab, 0xffffffff81000100ULL, 0, STB_GLOBAL, "last_kernel");
	add(&tab, 0xffffffffc0000000ULL, 0, STB_GLOBAL, "mod_fn\t[mod]");
	add(&tab, 0xffffffffc0000040ULL, 0, STB_GLOBAL, "mod_fn2\t[mod]");
	symtab__sort(&tab);
	symtab__fixup_end(&tab, true);
	CHECK_EQ(tab.syms[0].end, 0xffffffff81000100ULL);
	/* Not across the kernel → module gap: up to the second page boundary. */
	CHECK_EQ(tab.syms[1].end, 0xffffffff81002000ULL);
	CHECK_EQ(tab.syms[2].end, 0xffffffffc0000040ULL);
	CHECK_EQ(tab.syms[3].end, 0xffffffffc0002000ULL);
	symtab__exit(&tab);
}

TEST(symbol_table_duplicates_choose_best)
{
	struct symtab tab = { 0 };

	/* Same address: sized beats zero-size, global beats weak and local, fewer _ wins. */
	add(&tab, 0x100, 0, STB_GLOBAL, "zero_sized");
	add(&tab, 0x100, 8, STB_LOCAL, "sized_local");
	add(&tab, 0x200, 8, STB_WEAK, "weak");
	add(&tab, 0x200, 8, STB_LOCAL, "local");
	add(&tab, 0x300, 8, STB_LOCAL, "local3");
	add(&tab, 0x300, 8, STB_GLOBAL, "global3");
	add(&tab, 0x400, 8, STB_GLOBAL, "__under");
	add(&tab, 0x400, 8, STB_GLOBAL, "_under");
	add(&tab, 0x500, 8, STB_GLOBAL, "short");
	add(&tab, 0x500, 8, STB_GLOBAL, "longer_name");
	add(&tab, 0x600, 8, STB_GLOBAL, "first");
	add(&tab, 0x600, 8, STB_GLOBAL, "secnd");
	symtab__sort(&tab);
	symtab__fixup_end(&tab, false);
	symtab__fixup_duplicate(&tab);
	CHECK_EQ(tab.nr, 6);
	CHECK_STR(find(&tab, 0x100), "sized_local");
	CHECK_STR(find(&tab, 0x200), "local");
	CHECK_STR(find(&tab, 0x300), "global3");
	CHECK_STR(find(&tab, 0x400), "_under");
	CHECK_STR(find(&tab, 0x500), "longer_name");
	CHECK_STR(find(&tab, 0x600), "first");
	symtab__exit(&tab);
}

TEST(symbol_table_nested)
{
	struct symtab tab = { 0 };

	/*
	 * Nested symbols answer as perf's tree walk does (symtab__index()):
	 * outer, inserted first, is the root and holds inner's addresses too.
	 */
	add(&tab, 0x1000, 0x100, STB_GLOBAL, "outer");
	add(&tab, 0x1010, 0x10, STB_GLOBAL, "inner");
	symtab__sort(&tab);
	CHECK_EQ(symtab__index(&tab), 0);
	CHECK_STR(find(&tab, 0x1015), "outer");
	CHECK_STR(find(&tab, 0x1050), "outer");
	symtab__exit(&tab);
}

TEST(symbol_table_many)
{
	struct symtab tab = { 0 };
	char name[32];
	int bad = 0;

	for (int i = 0; i < 100000; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		add(&tab, 0x400000 + (uint64_t)(99999 - i) * 16, 12, STB_GLOBAL, name);
	}
	symtab__sort(&tab);
	symtab__fixup_end(&tab, false);
	symtab__fixup_duplicate(&tab);
	for (int i = 0; i < 100000; i++) {
		const struct ember_symbol *s = symtab__find(&tab, 0x400000 + (uint64_t)i * 16 + 11);

		snprintf(name, sizeof(name), "f%d", 99999 - i);
		bad += !s || strcmp(s->name, name) ||
		       symtab__find(&tab, 0x400000 + (uint64_t)i * 16 + 12) != NULL;
	}
	CHECK_EQ(bad, 0);
	symtab__exit(&tab);
}
