// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/probe on the kernel: the names -F lists from a kallsyms file (types
 * T/W/D/B of either case, no module's, bad lines skipped) and from an ELF
 * file's .text; a definition's kprobe places from kallsyms written as perf
 * writes them (_text+OFF, a return probe FUNC+0, address order, aliases,
 * globs, offsets past the end, --max-probes, hidden addresses) and back
 * (-l's names); places
 * found in an ELF file named by their symbols; and the lines made of them.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ember/probe.h>
#include "test.h"

/* A made-up kallsyms: _text, functions, an alias, data, a module's, bad lines. */
static const char kallsyms_text[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81000100 t early_fn\n"
	"ffffffff81000200 T vfs_read\n"
	"ffffffff81000200 T vfs_read_alias\n"
	"ffffffff81000280 W vfs_readv\n"
	"ffffffff81000300 T vfs_write\n"
	"ffffffff81000400 r ro_data\n"
	"ffffffff81000500 D some_data\n"
	"ffffffff81000600 b some_bss\n"
	"ffffffffc0000000 t mod_fn\t[some_mod]\n"
	"not a line\n"
	"ffffffff81000700 T\n"
	"ffffffff81000800 T last_fn";

static int write_kallsyms(char *path, const char *text)
{
	int fd = mkstemp(path);
	ssize_t len = (ssize_t)strlen(text);

	if (fd < 0)
		return -1;
	if (write(fd, text, (size_t)len) != len) {
		close(fd);
		unlink(path);
		return -1;
	}
	close(fd);
	return 0;
}

struct names {
	char buf[1024];
	int nr;
};

static int collect(const char *name, void *arg)
{
	struct names *n = arg;

	strncat(n->buf, name, sizeof(n->buf) - strlen(n->buf) - 2);
	strcat(n->buf, " ");
	n->nr++;
	return 0;
}

static int stop_at_second(const char *name, void *arg)
{
	return ++*(int *)arg == 2 ? 42 : 0;
}

TEST(probe_kernel_names_kallsyms)
{
	char path[] = "/tmp/ember-unit-kallsyms.XXXXXX";
	struct names n = { "", 0 };
	int calls = 0;

	if (write_kallsyms(path, kallsyms_text))
		SKIP("cannot write a file in /tmp");
	CHECK_EQ(ember_probe__kernel_names(NULL, path, collect, &n), 0);
	CHECK_STR(n.buf, "_text early_fn vfs_read vfs_read_alias vfs_readv vfs_write some_data "
			 "some_bss last_fn ");
	CHECK_EQ(ember_probe__kernel_names(NULL, path, stop_at_second, &calls), 42);
	unlink(path);
	CHECK_EQ(ember_probe__kernel_names(NULL, path, collect, &n), -ENOENT);
}

TEST(probe_kernel_names_elf)
{
	struct names n = { "", 0 };
	char path[PATH_MAX];

	if (!unit_workload_path("probed", path, sizeof(path)))
		SKIP("no workloads/probed next to unit-tests (make)");
	/* .text's functions are listed; data (in .data and .bss) is not */
	CHECK_EQ(ember_probe__kernel_names(path, NULL, collect, &n), 0);
	CHECK(strstr(n.buf, " probed_add ") != NULL);
	CHECK(strstr(n.buf, "main ") != NULL);
	CHECK(strstr(n.buf, " sink ") == NULL);
	/* not an ELF file */
	CHECK_EQ(ember_probe__kernel_names("/proc/self/status", NULL, collect, &n), -ENODATA);
}

/* Resolve spec in the kallsyms at path. */
static int kresolve(const char *spec, const char *path, struct ember_probe_trace *out,
		    size_t max)
{
	struct ember_probe_def def;
	int n;

	if (ember_probe_def__parse(&def, spec))
		return -1000;
	n = ember_probe__resolve_kprobe(&def, path, out, max);
	ember_probe_def__exit(&def);
	return n;
}

TEST(probe_kernel_resolve)
{
	char path[] = "/tmp/ember-unit-kallsyms.XXXXXX";
	static struct ember_probe_trace out[8];
	struct ember_probe_def def;
	char line[256];

	if (write_kallsyms(path, kallsyms_text))
		SKIP("cannot write a file in /tmp");
	CHECK_EQ(kresolve("vfs_read", path, out, 8), 1);
	CHECK(!out[0].uprobe && !out[0].retprobe);
	CHECK_STR(out[0].target, "_text");
	CHECK_EQ(out[0].offset, 0x200);
	CHECK_STR(out[0].event, "vfs_read");
	strcpy(out[0].group, "probe");
	CHECK(ember_probe_trace__format(&out[0], line, sizeof(line), NULL) > 0);
	CHECK_STR(line, "p:probe/vfs_read _text+512");

	/* a glob: address order, the alias at an address taken left out, data never */
	CHECK_EQ(ember_probe_def__parse(&def, "vfs_* %di:u64"), 0);
	CHECK_EQ(ember_probe__resolve_kprobe(&def, path, out, 8), 3);
	CHECK_STR(out[0].event, "vfs_read");
	CHECK_STR(out[1].event, "vfs_readv");
	CHECK_EQ(out[1].offset, 0x280);
	CHECK_STR(out[2].event, "vfs_write");
	CHECK_EQ(out[2].nr_args, 1);
	CHECK_STR(out[2].args[0].value, "%di");
	CHECK_STR(out[2].args[0].type, "u64");
	ember_probe_def__exit(&def);
	CHECK_EQ(kresolve("some_data", path, out, 8), -ENOENT);
	CHECK_EQ(kresolve("mod_fn", path, out, 8), -ENOENT);
	CHECK_EQ(kresolve("nosuch", path, out, 8), -ENOENT);

	/* a return probe: its function, which the place owns */
	CHECK_EQ(kresolve("vfs_write%return $retval", path, out, 8), 1);
	CHECK(out[0].retprobe);
	CHECK_STR(out[0].target, "vfs_write");
	strcpy(out[0].group, "probe");
	strcpy(out[0].event, "vfs_write__return");
	CHECK(ember_probe_trace__format(&out[0], line, sizeof(line), NULL) > 0);
	CHECK_STR(line, "r:probe/vfs_write__return vfs_write+0 $retval");
	ember_probe_trace__exit(&out[0]);

	/* offsets: up to the next symbol's address, not past it */
	CHECK_EQ(kresolve("vfs_readv+128", path, out, 8), 1);
	CHECK_EQ(out[0].offset, 0x300);
	CHECK_EQ(kresolve("vfs_readv+129", path, out, 8), -ERANGE);
	/* more places than --max-probes: refused, not cut */
	CHECK_EQ(kresolve("vfs_*", path, out, 2), -E2BIG);

	/* and back, as perf -l names a place: the symbol holding it, the first alias */
	{
		char fn[64];
		uint64_t off = 1;

		CHECK_EQ(ember_probe__kernel_point(path, "_text", 0x200, fn, sizeof(fn), &off), 0);
		CHECK_STR(fn, "vfs_read");
		CHECK_EQ(off, 0);
		CHECK_EQ(ember_probe__kernel_point(path, "_text", 0x284, fn, sizeof(fn), &off), 0);
		CHECK_STR(fn, "vfs_readv");
		CHECK_EQ(off, 4);
		CHECK_EQ(ember_probe__kernel_point(path, "vfs_write", 0, fn, sizeof(fn), &off), 0);
		CHECK_STR(fn, "vfs_write");
		CHECK_EQ(off, 0);
		CHECK_EQ(ember_probe__kernel_point(path, "nosuch", 0, fn, sizeof(fn), &off), -ENOENT);
	}
	unlink(path);

	/* kallsyms with its addresses hidden (kptr_restrict): nothing to write against */
	strcpy(path, "/tmp/ember-unit-kallsyms.XXXXXX");
	if (write_kallsyms(path, "0000000000000000 T _text\n0000000000000000 T vfs_read\n"))
		SKIP("cannot write a file in /tmp");
	CHECK_EQ(kresolve("vfs_read", path, out, 8), -EACCES);
	unlink(path);
	CHECK_EQ(kresolve("vfs_read", path, out, 8), -ENOENT);
}

TEST(probe_kernel_places)
{
	static struct ember_probe_trace out[4];
	struct ember_probe_def def;
	char path[PATH_MAX], line[512];
	uint64_t start;

	if (!unit_workload_path("probed", path, sizeof(path)))
		SKIP("no workloads/probed next to unit-tests (make)");
	CHECK_EQ(ember_probe_def__parse(&def, "probed_name+4"), 0);
	CHECK_EQ(ember_probe__resolve_uprobe(&def, path, out, 4), 1);
	start = out[0].offset - 4;
	/* named by the symbol holding the place, as perf names an offline kernel's */
	CHECK_EQ(ember_probe__kernel_places(path, false, out, 1), 0);
	CHECK(!out[0].uprobe);
	CHECK_STR(out[0].target, "probed_name");
	CHECK_EQ(out[0].offset, 4);
	strcpy(out[0].group, "probe");
	CHECK(ember_probe_trace__format(&out[0], line, sizeof(line), NULL) > 0);
	CHECK_STR(line, "p:probe/probed_name probed_name+4");
	ember_probe_trace__exit(&out[0]);
	/* against _text: the workload has none */
	CHECK_EQ(ember_probe__resolve_uprobe(&def, path, out, 4), 1);
	CHECK_EQ(ember_probe__kernel_places(path, true, out, 1), -ENOENT);
	CHECK_EQ(out[0].offset, start + 4);
	ember_probe_def__exit(&def);
}
