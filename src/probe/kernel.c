// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember probe on the kernel's debug information: -L and -V without -x
 * read the vmlinux of -k, or the one perf's search finds for the running
 * kernel; without one, perf's words with what is missing named.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <ember/probe.h>
#include "probe/probe.h"

int probe_kernel_debuginfo(struct probe_opts *o, const char *what)
{
	char found[4096];
	struct utsname u;
	int err = 0;

	if (o->vmlinux) {
		o->exec = realpath(o->vmlinux, NULL);
		o->kernel = o->exec != NULL;
		if (o->exec)
			return 0;
		/* perf's option check: an exit code of its own, as a usage error */
		fprintf(stderr, "ember probe: cannot use -k %s: %s\n", o->vmlinux, strerror(errno));
		return 2;
	}
	err = ember_probe__find_vmlinux(found, sizeof(found));
	if (!err) {
		o->exec = strdup(found);
		o->kernel = o->exec != NULL;
		if (o->exec)
			return 0;
		err = -ENOMEM;
	}
	if (err == -ENOMEM) {
		fprintf(stderr, "ember probe: out of memory\n");
		return 1;
	}
	if (o->quiet)
		return 1;
	if (uname(&u))
		strcpy(u.release, "?");
	fprintf(stderr, "Failed to find the path for the kernel: no vmlinux with the running "
		"kernel's build-id (%s) in ./vmlinux, /boot/vmlinux[-%s], "
		"/usr/lib/debug/boot/vmlinux-%s[.debug], /lib/modules/%s/build/vmlinux or "
		"/usr/lib/debug/lib/modules/%s/vmlinux; install the kernel's debug information or "
		"give -k VMLINUX\n  Error: Failed to %s.\n",
		u.release, u.release, u.release, u.release, u.release, what);
	return 1;
}
