// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember probe -F: the symbols of the -x binary perf probe lists (its
 * functions, objects and labels, the name@plt entries), by name, each
 * that one of the filters matches: -F's own ("!_* & !*@plt" when bare)
 * and --filter's, ORed as perf does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ember/symbol.h>
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

int probe_show_funcs(struct probe_opts *o)
{
	struct ember_symbol_opts opts = { .sz = sizeof(opts), .kallsyms = "", .allow_aliases = true };
	struct ember_dso *dso;
	struct named *syms = NULL;
	size_t nr = 0;
	int n, ret = 0;

	if (!o->exec) {
		fprintf(stderr, "ember probe: -F lists a binary's functions: give -x BINARY (the "
			"kernel's are not listed yet)\n");
		return 1;
	}
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
	qsort(syms, nr, sizeof(*syms), cmp_named);
	for (size_t i = 0; i < nr; i++) {
		int m = probe_filters__match(o, syms[i].name);

		if (m < 0) {
			fprintf(stderr, "ember probe: cannot parse the filter\n");
			ret = 2;
			break;
		}
		if (m)
			printf("%s\n", syms[i].name);
	}
	free(syms);
	ember_dso__delete(dso);
	return ret;
}
