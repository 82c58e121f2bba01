// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/probe's places from DWARF on the probelines workload (built next to
 * this binary, so its layout is known): an inline function's two copies
 * under one name, a lazy pattern's lines in line-table order named after
 * their functions, a line that only shares the entry's address refused
 * with perf's hint, nothing found (silently with arguments, as perf),
 * a return probe left to the symbols,
 * an address named back as perf -l names it, -L's lines of a function,
 * and a point shown as perf shows it.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ember/probe.h>
#include "test.h"

static char msg[1024];

static int resolve(const char *spec, const char *path, struct ember_probe_trace *out, size_t max)
{
	struct ember_probe_def def;
	int n;

	if (ember_probe_def__parse(&def, spec))
		return -1000;
	n = ember_probe__resolve_dwarf(&def, path, NULL, out, max, msg, sizeof(msg));
	ember_probe_def__exit(&def);
	return n;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && !strcmp(s + a - b, tail);
}

TEST(probe_dwarf_places)
{
	static struct ember_probe_trace out[8];
	struct ember_probe_point pt;
	char path[PATH_MAX], text[256];
	uint64_t at_line4;

	if (!unit_workload_path("probelines", path, sizeof(path))) {
		t->skip_reason = "no workloads/probelines next to unit-tests (make)";
		return;
	}
	/* the inline function: its two copies, one name, no out-of-line copy */
	CHECK_EQ(resolve("probe_twice", path, out, 8), 2);
	CHECK_STR(out[0].event, "probe_twice");
	CHECK_STR(out[1].event, "probe_twice");
	CHECK(out[0].offset != out[1].offset);
	CHECK(out[0].uprobe && !out[0].retprobe);
	CHECK_STR(out[0].target, path);

	/* sink's lines: both copies' and each caller's own, in the line table's order */
	CHECK_EQ(resolve("probelines.c;sink*", path, out, 8), 4);
	CHECK_STR(out[0].event, "probe_twice");
	CHECK_STR(out[1].event, "probe_first");
	CHECK_STR(out[2].event, "probe_twice");
	CHECK_STR(out[3].event, "probe_second");
	/* --max-probes: more places are a refusal */
	CHECK_EQ(resolve("probelines.c;sink*", path, out, 3), -ERANGE);
	CHECK_STR(msg, "Too many( > 3) probe point found.\n");

	/* "sink += r;" is probe_first's fourth line, an address of its own */
	CHECK_EQ(resolve("probe_first:4", path, out, 8), 1);
	CHECK_STR(out[0].event, "probe_first");
	at_line4 = out[0].offset;
	CHECK_EQ(ember_probe__dwarf_point(path, at_line4, &pt, msg, sizeof(msg)), 1);
	CHECK_STR(pt.function, "probe_first");
	CHECK(pt.has_line && pt.line == 4 && !pt.has_offset);
	CHECK(ends_with(pt.file, "tests/workloads/probelines.c"));
	ember_probe_point__format(&pt, false, text, sizeof(text));
	CHECK_STR(text, "probe_first:4@tests/workloads/probelines.c");
	/* past a line's start: the offset from the entry */
	CHECK_EQ(ember_probe__dwarf_point(path, at_line4 + 1, &pt, msg, sizeof(msg)), 1);
	CHECK(pt.has_offset && !pt.has_line && pt.offset > 1);

	/* its first line starts where the function does: perf's hint instead */
	CHECK_EQ(resolve("probe_first:1", path, out, 8), -ENOENT);
	CHECK_STR(msg, "This line is sharing the address with other lines.\n"
		       "Please try to probe at probe_first:0 instead.\n");
	CHECK_EQ(resolve("nosuch", path, out, 8), -ENODEV);
	CHECK_STR(msg, "Probe point 'nosuch' not found.\n");
	CHECK_EQ(resolve("probelines.c:12", path, out, 8), -ENODEV);
	CHECK_STR(msg, "Probe point '@probelines.c:12' not found.\n");
	/* with arguments, nothing found is perf's silent error: no retry at the symbol */
	CHECK_EQ(resolve("nosuch %di", path, out, 8), -ENOENT);
	CHECK_STR(msg, "");
	CHECK_EQ(resolve("probelines.c:12 v", path, out, 8), -ENOENT);
	CHECK_STR(msg, "");
	/* variables at a line: the copies' places, named after the inlined function */
	CHECK_EQ(resolve("probelines.c:17 v", path, out, 8), 2);
	CHECK_STR(out[0].event, "probe_twice");
	CHECK_STR(out[1].event, "probe_twice");
	/* return probes and addresses go by the symbol table, as perf 6.1's */
	CHECK_EQ(resolve("probe_first%return", path, out, 8), -ENODATA);
	CHECK_EQ(resolve("0x1149", path, out, 8), -ENODATA);
	CHECK(resolve("probe_first", "/nonexistent/binary", out, 8) < 0);
}

TEST(probe_dwarf_lines)
{
	struct ember_probe_lines lr;
	char path[PATH_MAX];

	if (!unit_workload_path("probelines", path, sizeof(path))) {
		t->skip_reason = "no workloads/probelines next to unit-tests (make)";
		return;
	}
	/* probe_first is declared on line 20: its entry, then lines 24 and 25 */
	CHECK_EQ(ember_probe__lines(path, "probe_first", NULL, &lr, msg, sizeof(msg)), 0);
	CHECK_STR(lr.function, "probe_first");
	CHECK(ends_with(lr.path, "/tests/workloads/probelines.c"));
	CHECK_EQ(lr.offset, 20);
	CHECK_EQ(lr.start, 20);
	CHECK_EQ(lr.end, INT_MAX);
	CHECK_EQ(lr.nr_lines, 3);
	if (lr.nr_lines == 3) {
		CHECK_EQ(lr.lines[0], 20);
		CHECK_EQ(lr.lines[1], 24);
		CHECK_EQ(lr.lines[2], 25);
	}
	ember_probe_lines__exit(&lr);

	/* a file's range: absolute lines, +NUM lines from the start */
	CHECK_EQ(ember_probe__lines(path, "probelines.c:20+5", NULL, &lr, msg, sizeof(msg)), 0);
	CHECK(!lr.function && lr.offset == 0 && lr.start == 20 && lr.end == 24);
	CHECK(lr.nr_lines == 2 && lr.lines[0] == 20 && lr.lines[1] == 24);
	ember_probe_lines__exit(&lr);

	CHECK_EQ(ember_probe__lines(path, "probe_first:5-3", NULL, &lr, msg, sizeof(msg)), -EINVAL);
	CHECK_STR(msg, "Semantic error :Start line must be smaller than end line.\n");
	CHECK_EQ(ember_probe__lines(path, "probe_*", NULL, &lr, msg, sizeof(msg)), -EINVAL);
	CHECK_EQ(ember_probe__lines(path, "nosuch", NULL, &lr, msg, sizeof(msg)), -ENOENT);
	CHECK_STR(msg, "Specified source line is not found.\n");
	CHECK_EQ(ember_probe__lines(path, "nosuch.c:3", NULL, &lr, msg, sizeof(msg)), -EOPNOTSUPP);
	CHECK_STR(msg, "Debuginfo analysis failed.\n");
}

TEST(probe_point_text)
{
	struct ember_probe_def d;
	struct ember_probe_point pt = { .function = "fn", .line = 3, .offset = 0 };
	char text[256];

	/* perf shows no lazy pattern, and a file's line after it */
	CHECK_EQ(ember_probe_def__parse(&d, "fn;a*"), 0);
	ember_probe_def__point(&d, text, sizeof(text));
	CHECK_STR(text, "fn");
	ember_probe_def__exit(&d);
	CHECK_EQ(ember_probe_def__parse(&d, "src/a.c;x"), 0);
	ember_probe_def__point(&d, text, sizeof(text));
	CHECK_STR(text, "@src/a.c");
	ember_probe_def__exit(&d);
	CHECK_EQ(ember_probe_def__parse(&d, "src/a.c:12"), 0);
	ember_probe_def__point(&d, text, sizeof(text));
	CHECK_STR(text, "@src/a.c:12");
	ember_probe_def__exit(&d);

	/* an offset shows before a line, a line before %return */
	ember_probe_point__format(&pt, true, text, sizeof(text));
	CHECK_STR(text, "fn:3");
	pt.offset = 4;
	ember_probe_point__format(&pt, true, text, sizeof(text));
	CHECK_STR(text, "fn+4");
	pt.offset = 0;
	pt.line = 0;
	strcpy(pt.file, "/a/very/long/directory/name/for/the/sources/file.c");
	ember_probe_point__format(&pt, true, text, sizeof(text));
	/* the last 30 characters, from the first '/' among them */
	CHECK_STR(text, "fn%return@name/for/the/sources/file.c");
}
