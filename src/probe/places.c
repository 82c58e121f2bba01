// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember probe's places from DWARF: lib/probe finds them as perf does, this
 * tells what perf tells (its warnings, "Error: Failed to add events."),
 * and says when the symbol table is to be used instead.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <ember/probe.h>
#include "probe/probe.h"

/* perf's text when a binary has no DWARF and the definition needs some. */
void probe_no_debuginfo(const char *path)
{
	fprintf(stderr, "The %s file has no debug information.\n"
		"Rebuild with -g, or install an appropriate debuginfo package.\n", path);
}

int probe_places_dwarf(const struct probe_opts *o, const struct ember_probe_def *def,
		       struct ember_probe_trace *out, size_t max)
{
	char msg[4096];
	struct ember_probe_dwarf_opts opts = {
		.sz = sizeof(opts), .no_inlines = o->no_inlines, .source_prefix = o->source,
		.kernel = o->kernel,
	};
	int n = ember_probe__resolve_dwarf(def, o->exec, &opts, out, max, msg, sizeof(msg));

	/* perf needs DWARF for lines, sources, patterns and variables; a return probe never */
	bool needs = !def->retprobe && !def->abs && ember_probe_def__needs_dwarf(def);

	if (n == -ENODATA) {
		if (!needs)
			return -ENODATA;
		if (!o->quiet) {
			probe_no_debuginfo(o->exec);
			fprintf(stderr, "  Error: Failed to add events.\n");
		}
		return -1;
	}
	if (!o->quiet)
		fputs(msg, stderr);
	if (n >= 0)
		return n;
	/* a search that failed (not one that found nothing): perf tries the symbols */
	if (n != -ENODEV && !needs)
		return -ENODATA;
	if (!o->quiet) {
		if (!msg[0] && n != -ENOENT)
			fprintf(stderr, "ember probe: cannot read the debug information of %s: %s\n",
				o->exec, strerror(-n));
		fprintf(stderr, "  Error: Failed to add events.\n");
	}
	return -1;
}

bool probe_multiprobe(const char *tracefs)
{
	char path[PATH_MAX], *text = NULL;
	size_t cap = 0;
	bool yes = false;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/README", tracefs);
	fp = fopen(path, "r");
	if (!fp)
		return false;
	/* perf's test: the README's "Create/append/remove/show" */
	while (!yes && getline(&text, &cap, fp) > 0)
		yes = strstr(text, "Create/append/") != NULL;
	free(text);
	fclose(fp);
	return yes;
}
