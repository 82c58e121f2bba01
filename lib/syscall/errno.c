// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * errno names by number. errno-table.h is generated at build time from the
 * installed <asm-generic/errno*.h>, one ERRNO(NR, NAME) a line; aliases
 * (EWOULDBLOCK, EDEADLOCK) are defined by name there, so each number keeps
 * its first name, as perf's table does.
 */
#include <ember/syscall.h>

static const char *const names[] = {
#define ERRNO(nr, name) [nr] = #name,
#include "errno-table.h"
#undef ERRNO
};

const char *ember_errno__name(int err)
{
	if (err <= 0 || err >= (int)(sizeof(names) / sizeof(names[0])))
		return NULL;
	return names[err];
}
