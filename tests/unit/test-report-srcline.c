// SPDX-License-Identifier: GPL-2.0-only
/*
 * Source lines as perf report's srcline/srcfile keys print them, on this
 * very test binary (built with -g): lib/symbol/srcline.c finds a
 * function's file and line in the DWARF line table; report's strings are
 * "file.c:N", its file part, and perf's fallbacks ("??:0" without a map,
 * "sym+OFF" and "dso[addr]" where nothing is known).
 */
#include <dlfcn.h>
#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ember/symbol.h>
#include "report/srcline.h"
#include "symbol/srcline.h"
#include "test.h"

enum { PROBE_LINE = __LINE__ + 2 };
__attribute__((noinline)) int srcline_probe(int x);
__attribute__((noinline)) int srcline_probe(int x)
{
	return x * 3 + 1;
}

/* The probe's address as the ELF file spells it (0 when unknown). */
static uint64_t probe_vaddr(void)
{
	Dl_info info;
	const Elf64_Ehdr *eh;

	if (!dladdr((void *)srcline_probe, &info) || !info.dli_fbase)
		return 0;
	eh = info.dli_fbase;
	/* a PIE's addresses are relative to where it was loaded */
	return eh->e_type == ET_DYN ? (uintptr_t)srcline_probe - (uintptr_t)info.dli_fbase :
				      (uintptr_t)srcline_probe;
}

static const char *base(const char *p)
{
	const char *s = p ? strrchr(p, '/') : NULL;

	return s ? s + 1 : p;
}

TEST(srcline_dwarf_line)
{
	struct srclines *s = srclines__new();
	uint64_t vaddr = probe_vaddr();
	const char *file = NULL;
	unsigned int line = 0;

	CHECK(s != NULL);
	CHECK(vaddr != 0);
	if (!s || !vaddr)
		goto out;
	CHECK_EQ(srclines__find(s, "/proc/self/exe", vaddr, &file, &line), 1);
	CHECK_STR(base(file), "test-report-srcline.c");
	/* the entry is the declaration's line, the brace's, or (optimised) the body's */
	CHECK(line >= PROBE_LINE && line <= PROBE_LINE + 2);
	/* again, from the open file */
	CHECK_EQ(srclines__find(s, "/proc/self/exe", vaddr, &file, &line), 1);
	/* addr2line's "??:0": outside every section, or no file */
	CHECK_EQ(srclines__find(s, "/proc/self/exe", 0x7fffffff0000ull, &file, &line), 0);
	CHECK_EQ(srclines__find(s, "/nonexistent/ember-srcline", 0x1000, &file, &line), 0);
out:
	srclines__delete(s);
}

TEST(srcline_report_strings)
{
	struct rep_srclines *c = rep_srclines__new();
	struct ember_dso *dso = ember_dso__open("/proc/self/exe", NULL);
	uint64_t vaddr = probe_vaddr();
	struct rep_frame f = { 0 };
	char want[80];

	CHECK(c != NULL);
	CHECK(dso != NULL);
	if (!c || !dso || !vaddr)
		goto out;
	/* no map */
	CHECK_STR(rep_srclines__get(c, &f, 0x1234, false), "??:0");
	CHECK_STR(rep_srclines__get(c, &f, 0x1234, true), "");

	/* the probe: its file and line; PIE and fixed executables alike */
	f.dso = dso;
	f.addr = ember_dso__vaddr_to_addr(dso, vaddr);
	f.ip = f.addr;
	{
		const char *got = rep_srclines__get(c, &f, f.addr, false);

		CHECK(got && !strncmp(got, "test-report-srcline.c:", 22));
		/* cached: the same string */
		CHECK(got == rep_srclines__get(c, &f, f.addr, false));
	}
	CHECK_STR(rep_srclines__get(c, &f, f.addr, true), "test-report-srcline.c");

	/* nothing known at the address: perf's "sym+OFF" (decimal), file part "" */
	f.sym = &f;
	f.sym_name = "probe";
	f.sym_start = 0x7fffffff0000ull - 100;
	CHECK_STR(rep_srclines__get(c, &f, 0x7fffffff0000ull, false), "probe+100");
	CHECK_STR(rep_srclines__get(c, &f, 0x7fffffff0000ull, true), "");
	/* and without a symbol "dso[hexaddr]" */
	f.sym = NULL;
	f.ip = f.addr = 0x7fffffff0010ull;
	snprintf(want, sizeof(want), "%s[7fffffff0010]", ember_dso__short_name(dso));
	CHECK_STR(rep_srclines__get(c, &f, f.addr, false), want);
out:
	ember_dso__delete(dso);
	rep_srclines__delete(c);
}
