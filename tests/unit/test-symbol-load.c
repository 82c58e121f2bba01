// SPDX-License-Identifier: GPL-2.0-only
/*
 * What loading a binary's symbols skips (demangling at load time) and
 * keeps (perf's answers): checked against demangling everything eagerly.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "symbol/symbol.h"
#include "test.h"

static size_t underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* perf's choice between aliases a and b (a first) by their demangled names: 1 when b wins. */
static int eager_choice(const char *a, const char *b)
{
	char *da = demangle_sym(a, DEMANGLE_NAME), *db = demangle_sym(b, DEMANGLE_NAME);
	const char *na = da ? da : a, *nb = db ? db : b;
	int win;

	if (underscores(na) != underscores(nb))
		win = underscores(nb) < underscores(na);
	else
		win = strlen(nb) > strlen(na);
	free(da);
	free(db);
	return win;
}

/* Constructor and destructor variants at one address, and look-alikes that must be demangled. */
TEST(symbol_load_ctor_variants_pick_as_demangled)
{
	static const char *const pairs[][2] = {
		{ "_ZN1AC1Ev", "_ZN1AC2Ev" },
		{ "_ZN1AC2Ev", "_ZN1AC1Ev" },
		{ "_ZN1AD0Ev", "_ZN1AD1Ev" },
		{ "_ZN1AD2Ev", "_ZN1AD1Ev" },
		{ "_ZNK2ns1KC1ERKS0_", "_ZNK2ns1KC2ERKS0_" },
		{ "_ZNSt8ios_base4InitC1Ev", "_ZNSt8ios_base4InitC2Ev" },
		{ "_ZNSsC1Ev", "_ZNSsC2Ev" },
		{ "_ZNS0_1BC1Ev", "_ZNS0_1BC2Ev" },
		{ "_ZN5clang7tooling13FileMatchTrieC1Ev", "_ZN5clang7tooling13FileMatchTrieC2Ev" },
		{ "_ZN4llvm11SmallVectorIiLj4EEC2Ev", "_ZN4llvm11SmallVectorIiLj4EEC1Ev" },
		{ "_ZN1AC1IiEET_", "_ZN1AC2IiEET_" },
		{ "_ZNSt11_Deque_baseIbSaIbEED1Ev", "_ZNSt11_Deque_baseIbSaIbEED2Ev" },
		{ "_ZN4llvm15AnalysisManagerINS_13LazyCallGraph3SCCEJRS1_EEC1EOS4_",
		  "_ZN4llvm15AnalysisManagerINS_13LazyCallGraph3SCCEJRS1_EEC2EOS4_" },
		{ "_ZN9int_rangeILj3EEC2ERK6irange", "_ZN9int_rangeILj3EEC1ERK6irange" },
		{ "_ZN1XIPKNS_1YEJEEC1Ev", "_ZN1XIPKNS_1YEJEEC2Ev" },
		/* a complex type, not a constructor: "C1a" is _Complex a */
		{ "_ZN1XIC1aEC1Ev", "_ZN1XIC2abEC1Ev" },
		{ "_ZN1XIC1aE1fEv", "_ZN1XIC2aE1fEv" },
		/* identifiers with C1/C2 inside: different names, demangled to compare */
		{ "_ZN3XC14funcEv", "_ZN3XC24funcEv" },
		{ "_ZN2XC4funcEv", "_ZN2XD4funcEv" },
		{ "_ZN1AC1Ev", "_ZN1AC4Ev" },
		{ "_Z1fC1aE", "_Z1fC2aE" },
		{ "_ZN1AC1E", "_ZN1AC2E" },
		{ "_ZN11__gnu_cxx1AC1Ev", "_ZN11__gnu_cxx1AC2Ev" },
		{ "_ZN1a1b1c1d1e1fEv", "_Z15abcdefghijklmnov" },
		{ "_ZN2ab1cC1Ev", "_ZN2ab1cC2Ev" },
		{ "_ZN9__A__B__1cC1Ev", "_ZN9__A__B__1cC2Ev" },
	};
	int bad = 0;

	if (!demangle__available()) {
		SKIP("built without libiberty");
		return;
	}
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		const char *a = pairs[i][0], *b = pairs[i][1];
		struct symtab tab = { 0 };
		char *want = demangle_sym(eager_choice(a, b) ? b : a, DEMANGLE_NAME);
		const char *w = want ? want : (eager_choice(a, b) ? b : a);

		symtab__add(&tab, 0x1000, 0x10, STB_GLOBAL, STT_FUNC, a, strlen(a));
		symtab__demangle_last_lazily(&tab, DEMANGLE_NAME);
		symtab__add(&tab, 0x1000, 0x10, STB_GLOBAL, STT_FUNC, b, strlen(b));
		symtab__demangle_last_lazily(&tab, DEMANGLE_NAME);
		symtab__sort(&tab);
		symtab__fixup_end(&tab, false);
		symtab__fixup_duplicate(&tab);
		CHECK_EQ(tab.nr, 1);
		if (tab.nr != 1 || strcmp(symbol__name(&tab.syms[0]), w)) {
			fprintf(stderr, "  %s vs %s: kept %s, want %s\n", a, b,
				tab.nr ? symbol__name(&tab.syms[0]) : "-", w);
			bad++;
		}
		free(want);
		symtab__exit(&tab);
	}
	CHECK_EQ(bad, 0);
}

/* perf's "%s%s" of the demangled name and "@plt" into 1024 bytes: cut at 1023. */
static void plt_want(char *buf, const char *name, enum demangle_mode mode)
{
	char *d = demangle_sym(name, mode);
	const char *n = d ? d : name;
	size_t len = strlen(n);

	if (len > 1023)
		len = 1023;
	memcpy(buf, n, len);
	memcpy(buf + len, "@plt", len + 4 > 1023 ? 1023 - len : 4);
	buf[len + 4 > 1023 ? 1023 : len + 4] = '\0';
	free(d);
}

TEST(symbol_load_plt_names_demangled_lazily)
{
	static char names[6][1200];
	enum demangle_mode modes[] = { DEMANGLE_NAME, DEMANGLE_PARAMS, DEMANGLE_NONE };
	char want[1024];
	size_t nr = 0, n;

	if (!demangle__available()) {
		SKIP("built without libiberty");
		return;
	}
	strcpy(names[nr++], "_ZN2ns1K4spinEv");
	strcpy(names[nr++], "malloc");
	/* demangled longer than perf's buffer: cut after demangling */
	n = (size_t)sprintf(names[nr], "_ZN");
	for (int i = 0; i < 160; i++)
		n += (size_t)sprintf(names[nr] + n, "5abcde");
	strcpy(names[nr++] + n, "Ev");
	/* mangled already longer than the buffer: demangled at load */
	n = (size_t)sprintf(names[nr], "_ZN");
	for (int i = 0; i < 175; i++)
		n += (size_t)sprintf(names[nr] + n, "5abcde");
	strcpy(names[nr++] + n, "Ev");
	memset(names[nr], 'x', 1100);
	names[nr++][1100] = '\0';
	strcpy(names[nr++], "_Znot_mangled");

	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		struct symtab tab = { 0 };

		for (size_t i = 0; i < nr; i++)
			CHECK_EQ(symtab__add_plt(&tab, 0x1000 + i * 0x10, 0x10, names[i], modes[m]), 0);
		symtab__sort(&tab);
		CHECK_EQ(tab.nr, nr);
		for (size_t i = 0; i < nr && i < tab.nr; i++) {
			plt_want(want, names[i], modes[m]);
			CHECK_STR(symbol__name(&tab.syms[i]), want);
			CHECK_STR(symbol__name(&tab.syms[i]), want);	/* cached */
			CHECK_EQ(tab.syms[i].binding, STB_GLOBAL);
			CHECK_EQ(tab.syms[i].type, STT_FUNC);
		}
		symtab__exit(&tab);
	}
}

/* The lookup through the block index answers as a linear scan does, equal starts and edges included. */
TEST(symbol_load_block_index_lookup)
{
	struct symtab tab = { 0 };
	unsigned int seed = 7;
	int bad = 0;

	for (int i = 0; i < 5000; i++) {
		seed = seed * 1103515245 + 12345;
		symtab__add(&tab, 0x1000 + (seed >> 8) % 40000, (seed >> 4) % 3 ? 8 : 0, STB_GLOBAL,
			    STT_FUNC, "f", 1);
	}
	symtab__sort(&tab);
	symtab__fixup_end(&tab, false);
	symtab__fixup_duplicate(&tab);
	CHECK_EQ(symtab__index(&tab), 0);
	CHECK(tab.block_start != NULL);
	for (uint64_t addr = 0; addr < 0x1000 + 40100; addr++) {
		const struct ember_symbol *want = NULL, *got = symtab__find_last(&tab, addr);

		for (size_t i = 0; i < tab.nr_sorted && tab.syms[i].start <= addr; i++)
			want = &tab.syms[i];
		if (want && !(addr < want->end || addr == want->start))
			want = NULL;
		bad += got != want;
	}
	CHECK_EQ(bad, 0);
	symtab__exit(&tab);
}
