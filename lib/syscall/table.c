// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * x86_64's syscall numbers and names. syscall-table.h is generated at build
 * time from the installed <asm/unistd_64.h> (see the Makefile), one
 * SYSCALL(NR, NAME) a line.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <ember/syscall.h>
#include "core/edit-distance.h"

static const char *const names[] = {
#define SYSCALL(nr, name) [nr] = #name,
#include "syscall-table.h"
#undef SYSCALL
};

#define NR_NAMES ((int)(sizeof(names) / sizeof(names[0])))

const char *ember_syscall__name(int nr)
{
	return nr >= 0 && nr < NR_NAMES ? names[nr] : NULL;
}

int ember_syscall__number(const char *name)
{
	for (int nr = 0; name && nr < NR_NAMES; nr++)
		if (names[nr] && !strcmp(names[nr], name))
			return nr;
	return -ENOENT;
}

int ember_syscall__max(void)
{
	return NR_NAMES;
}

int ember_syscall__next_match(const char *glob, int from)
{
	for (int nr = from < 0 ? 0 : from; glob && nr < NR_NAMES; nr++)
		if (names[nr] && !fnmatch(glob, names[nr], 0))
			return nr;
	return -ENOENT;
}

#define MAX_SUGGESTIONS 3

int ember_syscall__suggest(const char *name, char *buf, size_t size)
{
	size_t len = strlen(name);
	int limit = len <= 3 ? 1 : len <= 6 ? 2 : 3;
	int best[MAX_SUGGESTIONS], dist[MAX_SUGGESTIONS], nr_best = 0, n = 0;

	for (int nr = 0; nr < NR_NAMES; nr++) {
		int d, i;

		if (!names[nr])
			continue;
		d = edit_distance(name, len, names[nr], strlen(names[nr]), limit);
		if (d > limit || d == 0)
			continue;
		/* insert by distance, ties in table order */
		for (i = nr_best; i > 0 && dist[i - 1] > d; i--) {
			if (i < MAX_SUGGESTIONS) {
				best[i] = best[i - 1];
				dist[i] = dist[i - 1];
			}
		}
		if (i < MAX_SUGGESTIONS) {
			best[i] = nr;
			dist[i] = d;
			if (nr_best < MAX_SUGGESTIONS)
				nr_best++;
		}
	}
	if (size)
		buf[0] = '\0';
	for (int i = 0; i < nr_best && (size_t)n < size; i++)
		n += snprintf(buf + n, size - n, "%s%s", i ? ", " : "", names[best[i]]);
	return nr_best;
}
