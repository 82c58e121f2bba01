// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The text tables of a TRACING_DATA blob, handed to libtraceevent: kernel
 * symbols, printk format strings and pid -> comm, parsed as perf 6.1's
 * trace-event-parse.c does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace/trace.h"

int trace_add_kallsyms(struct tep_handle *tep, char *buf)
{
	char *line, *next = NULL, *end, *name, *mod;
	unsigned long long addr;

	for (line = strtok_r(buf, "\n", &next); line; line = strtok_r(NULL, "\n", &next)) {
		addr = strtoull(line, &end, 16);
		if (end == line || *end != ' ' || !end[1] || end[2] != ' ')
			continue;
		name = end + 3;
		mod = strchr(name, '\t');
		if (mod) {
			*mod++ = '\0';
			if (*mod == '[') {
				mod++;
				mod[strcspn(mod, "]")] = '\0';
			}
		}
		if (*name && tep_register_function(tep, name, addr, mod))
			return -ENOMEM;
	}
	return 0;
}

int trace_add_printk_formats(struct tep_handle *tep, char *buf)
{
	char *line, *next = NULL, *colon, *fmt;
	unsigned long long addr;

	for (line = strtok_r(buf, "\n", &next); line; line = strtok_r(NULL, "\n", &next)) {
		colon = strchr(line, ':');
		if (!colon || !colon[1])
			continue;
		*colon = '\0';
		addr = strtoull(line, NULL, 16);
		fmt = colon + 2;	/* the ": " separator */
		/*
		 * libtraceevent looks 2 bytes before the end of what follows an
		 * opening quote: hand it nothing shorter than 3 bytes.
		 */
		if (strlen(fmt + (*fmt == '"')) < 3)
			continue;
		if (tep_register_print_string(tep, fmt, addr))
			return -ENOMEM;
	}
	return 0;
}

int trace_add_cmdlines(struct tep_handle *tep, char *buf)
{
	char *line, *next = NULL, comm[17];
	int pid;

	for (line = strtok_r(buf, "\n", &next); line; line = strtok_r(NULL, "\n", &next)) {
		/* a pid seen twice is no error (EEXIST) */
		if (sscanf(line, "%d %16s", &pid, comm) == 2 &&
		    tep_register_comm(tep, comm, pid) && errno == ENOMEM)
			return -ENOMEM;
	}
	return 0;
}
