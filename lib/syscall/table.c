// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * x86_64's syscall numbers and names. syscall-table.h is generated at build
 * time from the installed <asm/unistd_64.h> (see the Makefile), one
 * SYSCALL(NR, NAME) a line.
 */
#include <errno.h>
#include <string.h>
#include <ember/syscall.h>

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
