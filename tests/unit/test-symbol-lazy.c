// SPDX-License-Identifier: GPL-2.0-only
/* Lazy demangling and the symbol sort, against the eager/qsort results. */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include "symbol/symbol.h"
#include "test.h"

static int by_start_seq(const void *a, const void *b)
{
	const struct ember_symbol *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Many equal starts and a sorted head with a tail merged in, as .symtab then .dynsym. */
TEST(symbol_sort_matches_qsort)
{
	struct symtab tab = { 0 };
	struct ember_symbol *ref;
	unsigned int seed = 1;
	size_t nr;
	int bad = 0;

	for (int i = 0; i < 30000; i++) {
		seed = seed * 1103515245 + 12345;
		symtab__add(&tab, (seed >> 8) % 5000, 4, STB_GLOBAL, STT_FUNC, "f", 1);
	}
	symtab__sort(&tab);
	for (int i = 0; i < 7000; i++) {
		seed = seed * 1103515245 + 12345;
		symtab__add(&tab, (seed >> 8) % 6000, 4, STB_GLOBAL, STT_FUNC, "g", 1);
	}
	nr = tab.nr;
	ref = malloc(nr * sizeof(*ref));
	CHECK(ref != NULL);
	if (!ref)
		return;
	memcpy(ref, tab.syms, nr * sizeof(*ref));
	qsort(ref, nr, sizeof(*ref), by_start_seq);
	symtab__sort(&tab);
	CHECK_EQ(tab.nr, nr);
	for (size_t i = 0; i < nr; i++)
		bad += ref[i].start != tab.syms[i].start || ref[i].seq != tab.syms[i].seq;
	CHECK_EQ(bad, 0);
	free(ref);
	symtab__exit(&tab);
}

TEST(symbol_lazy_demangle)
{
	struct symtab tab = { 0 };
	const char *names[] = { "_ZN2ns1K4spinEv", "main", "_GLOBAL__sub_I_main", "_Znot_mangled" };
	char *want;

	if (!demangle__available()) {
		SKIP("built without libiberty");
		return;
	}
	for (size_t i = 0; i < 4; i++) {
		symtab__add(&tab, 0x1000 + i * 0x10, 0x10, STB_GLOBAL, STT_FUNC, names[i],
			    strlen(names[i]));
		symtab__demangle_last_lazily(&tab, DEMANGLE_NAME);
	}
	CHECK_STR(symbol__name(&tab.syms[0]), "ns::K::spin");
	CHECK_STR(symbol__name(&tab.syms[0]), "ns::K::spin");	/* cached */
	CHECK_STR(symbol__name(&tab.syms[1]), "main");
	CHECK_EQ(tab.syms[1].demangle, DEMANGLE_NONE);	/* not mangled: nothing more to do */
	want = demangle_sym("_GLOBAL__sub_I_main", DEMANGLE_NAME);
	CHECK_STR(symbol__name(&tab.syms[2]), want ? want : "_GLOBAL__sub_I_main");
	free(want);
	CHECK_STR(symbol__name(&tab.syms[3]), "_Znot_mangled");	/* libiberty fails: kept */
	symtab__exit(&tab);
}

/* Aliases at one address: perf picks by the demangled names' lengths, not the mangled ones. */
TEST(symbol_lazy_duplicates_use_demangled_names)
{
	struct symtab tab = { 0 };
	/* mangled, b is the longer (20 > 17); demangled, a is (16 > 15) */
	const char *a = "_ZN1a1b1c1d1e1fEv", *b = "_Z15abcdefghijklmnov";
	char *da, *db;
	const char *best;

	if (!demangle__available()) {
		SKIP("built without libiberty");
		return;
	}
	da = demangle_sym(a, DEMANGLE_NAME);
	db = demangle_sym(b, DEMANGLE_NAME);
	symtab__add(&tab, 0x1000, 0x10, STB_GLOBAL, STT_FUNC, a, strlen(a));
	symtab__demangle_last_lazily(&tab, DEMANGLE_NAME);
	symtab__add(&tab, 0x1000, 0x10, STB_GLOBAL, STT_FUNC, b, strlen(b));
	symtab__demangle_last_lazily(&tab, DEMANGLE_NAME);
	symtab__sort(&tab);
	symtab__fixup_end(&tab, false);
	symtab__fixup_duplicate(&tab);
	CHECK_EQ(tab.nr, 1);
	/* perf's choose_best_symbol(): the longer name wins, ties keep the first */
	best = da && db && strlen(db) > strlen(da) ? db : da;
	CHECK(best == da);
	if (tab.nr == 1 && best)
		CHECK_STR(symbol__name(&tab.syms[0]), best);
	free(da);
	free(db);
	symtab__exit(&tab);
}
