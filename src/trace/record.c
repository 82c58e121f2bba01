// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember trace record: ember record with perf trace record's arguments, so
 * the file is the one perf trace record writes (raw_syscalls:sys_enter and
 * sys_exit, every event sampled, raw data, 1024 pages of buffer, ember
 * itself filtered out) and perf trace -i reads it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "builtin.h"
#include "trace/record.h"

int trace_record(int argc, const char **argv)
{
	static const char *const fixed[] = {
		"record", "-R", "-m", "1024", "-c", "1",
		"-e", "raw_syscalls:sys_enter,raw_syscalls:sys_exit",
	};
	int nr_fixed = sizeof(fixed) / sizeof(fixed[0]), n = 0, ret;
	const char **rec_argv = calloc(nr_fixed + 2 + argc + 1, sizeof(*rec_argv));
	char filter[64];

	if (!rec_argv) {
		fprintf(stderr, "ember trace record: out of memory\n");
		return 1;
	}
	/* as perf: the recorder's own syscalls are not kept */
	snprintf(filter, sizeof(filter), "common_pid != %d", (int)getpid());
	for (int i = 0; i < nr_fixed; i++)
		rec_argv[n++] = fixed[i];
	rec_argv[n++] = "--filter";
	rec_argv[n++] = filter;
	for (int i = 0; i < argc; i++)
		rec_argv[n++] = argv[i];
	ret = cmd_record(n, rec_argv);
	free(rec_argv);
	return ret;
}
