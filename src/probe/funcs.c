// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember probe -F: the symbols of the -x binary perf probe lists (its
 * functions, objects and labels, the name@plt entries), or without -x the
 * kernel's (a vmlinux's .text, else kallsyms), by name, each that one of
 * the filters matches: -F's own ("!_* & !*@plt" when bare) and
 * --filter's, ORed as perf does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ember/probe.h>
#include <ember/symbol.h>
#include "core/array.h"
#include "probe/probe.h"

struct named {
	const char *name;
	size_t idx;	/* the symbol's place: perf keeps equal names in address order */
};

static int cmp_named(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

/* The names, sorted and filtered, to stdout. Exit code. */
static int show(const struct probe_opts *o, struct named *syms, size_t nr)
{
	if (nr)
		qsort(syms, nr, sizeof(*syms), cmp_named);
	for (size_t i = 0; i < nr; i++) {
		int m = probe_filters__match(o, syms[i].name);

		if (m < 0) {
			fprintf(stderr, "ember probe: cannot parse the filter\n");
			return 2;
		}
		if (m)
			printf("%s\n", syms[i].name);
	}
	return 0;
}

static int show_binary(const struct probe_opts *o)
{
	struct ember_symbol_opts opts = { .sz = sizeof(opts), .kallsyms = "", .allow_aliases = true };
	struct ember_dso *dso;
	struct named *syms = NULL;
	size_t nr = 0;
	int n, ret;

	dso = ember_dso__open(o->exec, &opts);
	n = dso ? ember_dso__load(dso) : -errno;
	if (n < 0) {
		fprintf(stderr, "Failed to load symbols in %s\n  Error: Failed to show functions.\n",
			o->exec);
		ember_dso__delete(dso);
		return 1;
	}
	syms = calloc(n ? (size_t)n : 1, sizeof(*syms));
	if (!syms) {
		fprintf(stderr, "ember probe: out of memory\n");
		ember_dso__delete(dso);
		return 1;
	}
	for (int i = 0; i < n; i++) {
		const struct ember_symbol *sym = ember_dso__symbol(dso, (size_t)i);

		if (sym)
			syms[nr++] = (struct named){ ember_symbol__name(sym), (size_t)i };
	}
	ret = show(o, syms, nr);
	free(syms);
	ember_dso__delete(dso);
	return ret;
}

/* The kernel's names, copied: kallsyms' lines do not stay. */
struct kernel_names {
	struct named *syms;
	size_t nr, cap;
};

static int add_kernel_name(const char *name, void *arg)
{
	struct kernel_names *k = arg;
	char *copy;

	if (array__reserve((void **)&k->syms, &k->cap, k->nr, sizeof(*k->syms)))
		return -ENOMEM;
	copy = strdup(name);
	if (!copy)
		return -ENOMEM;
	k->syms[k->nr] = (struct named){ copy, k->nr };
	k->nr++;
	return 0;
}

/* The kernel's: from the vmlinux of -k (or perf's search), else kallsyms, as perf. */
static int show_kernel(const struct probe_opts *o)
{
	struct kernel_names k = { 0 };
	char found[4096];
	const char *vmlinux = o->vmlinux;
	int err, ret = 1;

	if (!vmlinux && !ember_probe__find_vmlinux(found, sizeof(found)))
		vmlinux = found;
	err = ember_probe__kernel_names(vmlinux, NULL, add_kernel_name, &k);
	if (err == -ENOMEM)
		fprintf(stderr, "ember probe: out of memory\n");
	else if (err)
		fprintf(stderr, "Failed to load symbols in %s: %s\n  Error: Failed to show "
			"functions.\n", vmlinux ? vmlinux : "/proc/kallsyms", strerror(-err));
	else
		ret = show(o, k.syms, k.nr);
	for (size_t i = 0; i < k.nr; i++)
		free((char *)k.syms[i].name);
	free(k.syms);
	return ret;
}

int probe_show_funcs(struct probe_opts *o)
{
	return o->exec ? show_binary(o) : show_kernel(o);
}
