// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/probe's resolver on the probed workload (built next to this
 * binary): a function at its symbol's file offset, +OFF and its bound,
 * a glob's places in address order named after their symbols, a PLT
 * entry, --max-probes as a refusal, an address as abs_ADDR, no match.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ember/probe.h>
#include <ember/symbol.h>
#include "test.h"

/* The symbol's start (a file offset) and size, looked up by name; 0 when absent. */
static uint64_t sym_start(struct ember_dso *dso, const char *name, uint64_t *size)
{
	const struct ember_symbol *s;

	for (size_t i = 0; (s = ember_dso__symbol(dso, i)) != NULL; i++) {
		if (strcmp(ember_symbol__name(s), name))
			continue;
		if (size)
			*size = ember_symbol__end(s) - ember_symbol__start(s);
		return ember_symbol__start(s);
	}
	return 0;
}

/* Resolve spec in path; out gets up to max places. */
static int resolve(const char *spec, const char *path, struct ember_probe_trace *out, size_t max)
{
	struct ember_probe_def def;
	int n;

	if (ember_probe_def__parse(&def, spec))
		return -1000;
	n = ember_probe__resolve_uprobe(&def, path, out, max);
	ember_probe_def__exit(&def);
	return n;
}

TEST(probe_resolve_workload)
{
	static struct ember_probe_trace out[4];
	struct ember_symbol_opts opts = { .sz = sizeof(opts), .kallsyms = "" };
	uint64_t add, name, take, plt, size = 0;
	struct ember_dso *dso;
	char path[PATH_MAX];

	if (!unit_workload_path("probed", path, sizeof(path))) {
		t->skip_reason = "no workloads/probed next to unit-tests (make)";
		return;
	}
	dso = ember_dso__open(path, &opts);
	CHECK(dso != NULL);
	if (!dso)
		return;
	add = sym_start(dso, "probed_add", &size);
	name = sym_start(dso, "probed_name", NULL);
	take = sym_start(dso, "probed_take", NULL);
	plt = sym_start(dso, "strlen@plt", NULL);
	CHECK(add && name && take && size);

	CHECK_EQ(resolve("probed_add", path, out, 4), 1);
	CHECK_EQ(out[0].offset, add);
	CHECK(out[0].uprobe && !out[0].retprobe);
	CHECK_STR(out[0].target, path);
	CHECK_STR(out[0].event, "probed_add");

	CHECK_EQ(resolve("probed_take%return", path, out, 4), 1);
	CHECK(out[0].retprobe);
	CHECK_EQ(out[0].offset, take);

	/* +OFF up to the function's size, not past it (perf's bound) */
	CHECK_EQ(resolve("probed_add+4", path, out, 4), 1);
	CHECK_EQ(out[0].offset, add + 4);
	CHECK_EQ(resolve("probed_add+100000", path, out, 4), -ERANGE);

	/* a glob: every function, in address order, named after each */
	CHECK_EQ(resolve("probed_*", path, out, 4), 3);
	CHECK_STR(out[0].event, "probed_add");
	CHECK_STR(out[1].event, "probed_name");
	CHECK_STR(out[2].event, "probed_take");
	CHECK(out[0].offset < out[1].offset && out[1].offset < out[2].offset);
	CHECK_EQ(resolve("probed_*", path, out, 2), -E2BIG);

	/* the arguments point into the definition, passed as they are */
	CHECK_EQ(resolve("probed_add a=%di:s32 +8(%si)", path, out, 4), 1);
	CHECK_EQ(out[0].nr_args, 2);

	/* a PLT entry, by the name it calls (the "@plt" cut as a version) */
	if (plt) {
		CHECK_EQ(resolve("strlen", path, out, 4), 1);
		CHECK_EQ(out[0].offset, plt);
	}

	CHECK_EQ(resolve("0x1234", path, out, 4), 1);
	CHECK_EQ(out[0].offset, 0x1234);
	CHECK_STR(out[0].event, "abs_1234");

	CHECK_EQ(resolve("nosuch_function", path, out, 4), -ENOENT);
	/* data objects are not functions */
	CHECK_EQ(resolve("sink", path, out, 4), -ENOENT);
	CHECK(resolve("probed_add", "/nonexistent/binary", out, 4) < 0);
	ember_dso__delete(dso);
}
