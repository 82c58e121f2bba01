// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Where perf looks for the running kernel's vmlinux. */
#include <stdio.h>
#include <sys/utsname.h>
#include "symbol/vmlinux-path.h"

bool vmlinux_path__find(bool (*fn)(const char *path, void *arg), void *arg)
{
	static const char *const fmts[] = {
		"vmlinux",
		"/boot/vmlinux",
		"/boot/vmlinux-%s",
		"/usr/lib/debug/boot/vmlinux-%s",
		"/lib/modules/%s/build/vmlinux",
		"/usr/lib/debug/lib/modules/%s/vmlinux",
		"/usr/lib/debug/boot/vmlinux-%s.debug",
	};
	struct utsname u;
	char path[4096];

	if (uname(&u))
		return false;
	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		int n = snprintf(path, sizeof(path), fmts[i], u.release);

		if (n > 0 && (size_t)n < sizeof(path) && fn(path, arg))
			return true;
	}
	return false;
}
