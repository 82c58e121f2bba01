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
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ember/symbol.h>
#include "hist/comms.h"
#include "hist/srcline.h"
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
	struct ember_srclines *s = ember_srclines__new();
	uint64_t vaddr = probe_vaddr();
	const char *file = NULL;
	unsigned int line = 0;

	CHECK(s != NULL);
	CHECK(vaddr != 0);
	if (!s || !vaddr)
		goto out;
	CHECK_EQ(ember_srclines__find(s, "/proc/self/exe", vaddr, &file, &line), 1);
	CHECK_STR(base(file), "test-report-srcline.c");
	/* the entry is the declaration's line, the brace's, or (optimised) the body's */
	CHECK(line >= PROBE_LINE && line <= PROBE_LINE + 2);
	/* again, from the open file */
	CHECK_EQ(ember_srclines__find(s, "/proc/self/exe", vaddr, &file, &line), 1);
	/* addr2line's "??:0": outside every section, or no file */
	CHECK_EQ(ember_srclines__find(s, "/proc/self/exe", 0x7fffffff0000ull, &file, &line), 0);
	CHECK_EQ(ember_srclines__find(s, "/nonexistent/ember-srcline", 0x1000, &file, &line), 0);
out:
	ember_srclines__delete(s);
}

TEST(srcline_report_strings)
{
	struct hist_srclines *c = hist_srclines__new();
	struct ember_dso *dso = ember_dso__open("/proc/self/exe", NULL);
	uint64_t vaddr = probe_vaddr();
	struct ember_hist_frame f = { 0 };
	char want[80];

	CHECK(c != NULL);
	CHECK(dso != NULL);
	if (!c || !dso || !vaddr)
		goto out;
	/* no map */
	CHECK_STR(hist_srclines__get(c, &f, 0x1234, false), "??:0");
	CHECK_STR(hist_srclines__get(c, &f, 0x1234, true), "");

	/* the probe: its file and line; PIE and fixed executables alike */
	f.dso = dso;
	f.addr = ember_dso__vaddr_to_addr(dso, vaddr);
	f.ip = f.addr;
	{
		const char *got = hist_srclines__get(c, &f, f.addr, false);

		CHECK(got && !strncmp(got, "test-report-srcline.c:", 22));
		/* cached: the same string */
		CHECK(got == hist_srclines__get(c, &f, f.addr, false));
	}
	CHECK_STR(hist_srclines__get(c, &f, f.addr, true), "test-report-srcline.c");

	/* nothing known at the address: perf's "sym+OFF" (decimal), file part "" */
	f.sym = &f;
	f.sym_name = "probe";
	f.sym_start = 0x7fffffff0000ull - 100;
	CHECK_STR(hist_srclines__get(c, &f, 0x7fffffff0000ull, false), "probe+100");
	CHECK_STR(hist_srclines__get(c, &f, 0x7fffffff0000ull, true), "");
	/* and without a symbol "dso[hexaddr]" */
	f.sym = NULL;
	f.ip = f.addr = 0x7fffffff0010ull;
	snprintf(want, sizeof(want), "%s[7fffffff0010]", ember_dso__short_name(dso));
	CHECK_STR(hist_srclines__get(c, &f, f.addr, false), want);
out:
	ember_dso__delete(dso);
	hist_srclines__delete(c);
}

/* The keys beyond the common ones: perf's names and prefixes, the ones it drops or refuses. */
TEST(report_layout_perf_keys)
{
	struct ember_hist_layout_opts o = { .sz = sizeof(o), .sort_order = "src,tr,tim,addr" };
	struct ember_hist_layout l;
	char bad[64] = "";

	CHECK_EQ(ember_hist_layout__setup(&l, &o, bad, sizeof(bad)), 0);
	/* perf's table order decides a prefix: srcline before srcfile, transaction before trace */
	CHECK_EQ(l.sort[1], EMBER_HIST_DIM_SRCLINE);
	CHECK_EQ(l.sort[2], EMBER_HIST_DIM_TRANSACTION);
	CHECK_EQ(l.sort[3], EMBER_HIST_DIM_TIME);
	CHECK_EQ(l.sort[4], EMBER_HIST_DIM_ADDR);
	CHECK_EQ(ember_hist_dim__find("trace"), EMBER_HIST_DIM_TRACE);
	CHECK_EQ(ember_hist_dim__find("srcfile"), EMBER_HIST_DIM_SRCFILE);
	CHECK_EQ(ember_hist_dim__find("cgroup_id"), EMBER_HIST_DIM_CGROUP_ID);
	/* p_stage_cyc exists on powerpc only: perf drops it elsewhere */
	o.sort_order = "p_stage_cyc,comm";
	CHECK_EQ(ember_hist_layout__setup(&l, &o, bad, sizeof(bad)), 0);
	CHECK_EQ(l.nr_sort, 2);
	CHECK_EQ(l.sort[1], EMBER_HIST_DIM_COMM);
	/* branch-stack and memory keys: known, refused with a reason */
	o.sort_order = "dso_from";
	CHECK_EQ(ember_hist_layout__setup(&l, &o, bad, sizeof(bad)), -EINVAL);
	CHECK_STR(bad, "dso_from");
	CHECK(ember_hist_dim__unsupported("dso_from") != NULL);
	CHECK(ember_hist_dim__unsupported("dcache") != NULL);
	CHECK(ember_hist_dim__unsupported("nosuchkey") == NULL);
	CHECK(ember_hist_dim__unsupported("") == NULL);
}

/* perf renames a thread's ":TID" placeholder with the comm its first COMM gives. */
TEST(report_comm_override)
{
	struct hist_comms *c = hist_comms__new();
	static const char ph[] = ":42", first[] = "worker", later[] = "worker2", other[] = "x";
	static int many[200];
	int t1, t2;

	CHECK(c != NULL);
	if (!c)
		return;
	/* nothing known: as recorded */
	CHECK(hist_comms__get(c, &t1, ph) == ph);
	CHECK_EQ(hist_comms__placeholder(c, &t1, ph), 0);
	CHECK(hist_comms__get(c, &t1, ph) == ph);
	hist_comms__set(c, &t1, first);
	hist_comms__set(c, &t1, later);
	/* the first COMM names the placeholder's samples; later samples keep theirs */
	CHECK(hist_comms__get(c, &t1, ph) == first);
	CHECK(hist_comms__get(c, &t1, later) == later);
	/* a thread never seen under its placeholder is not renamed */
	hist_comms__set(c, &t2, other);
	CHECK(hist_comms__get(c, &t2, ph) == ph);
	for (int i = 0; i < 200; i++)
		CHECK_EQ(hist_comms__placeholder(c, &many[i], ph), 0);
	CHECK(hist_comms__get(c, &t1, ph) == first);
	hist_comms__delete(c);
}
