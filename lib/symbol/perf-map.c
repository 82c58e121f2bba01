// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * JIT symbols from /tmp/perf-PID.map: one "START SIZE NAME" line per
 * function, START and SIZE in hex (a 0x prefix is accepted), NAME the
 * rest of the line. Addresses are absolute: the maps using this dso are
 * identity-mapped. As perf, no zero-size fix-up is applied.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/log.h"
#include "symbol/dso.h"

int dso__load_perf_map(struct ember_dso *dso)
{
	char *line = NULL;
	size_t n = 0;
	ssize_t len;
	int ret = 0;
	FILE *f;

	f = fopen(dso->name, "re");
	if (!f) {
		ret = -errno;
		pr_debug("%s: %s\n", dso->name, strerror(errno));
		return ret;
	}
	while ((len = getline(&line, &n, f)) > 0) {
		unsigned long long start, size;
		char *p = line, *end;

		if (line[len - 1] == '\n')
			line[--len] = '\0';
		start = strtoull(p, &end, 16);
		if (end == p || *end != ' ')
			continue;
		p = end + 1;
		size = strtoull(p, &end, 16);
		if (end == p || *end != ' ')
			continue;
		p = end + 1;
		/* perf skips a line whose name is shorter than three characters. */
		if (line + len - p < 3)
			continue;
		ret = symtab__add(&dso->symtab, start, size, STB_GLOBAL, STT_FUNC, p,
				  line + len - p);
		if (ret)
			break;
	}
	free(line);
	fclose(f);
	if (ret)
		return ret;
	symtab__sort(&dso->symtab);
	dso->symsrc_path = strdup(dso->name);
	return dso->symtab.nr;
}
