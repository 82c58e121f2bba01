// SPDX-License-Identifier: GPL-2.0-only
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <stdint.h>
#include "test-util.h"
#include "event/tracefs.h"

long test_tracepoint_id(const char *sys, const char *name)
{
	char root[PATH_MAX];
	uint64_t id;

	if (ember_tracefs__find(root, sizeof(root)) < 0 ||
	    tracefs__event_id(root, sys, name, &id) < 0)
		return -1;
	return (long)id;
}

char *test_tracefs__new(void)
{
	char tmpl[] = "/tmp/ember-tracefs-XXXXXX", path[PATH_MAX];
	char *root = mkdtemp(tmpl);

	if (!root)
		return NULL;
	snprintf(path, sizeof(path), "%s/events", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/events/syscalls", root);
	mkdir(path, 0700);
	return strdup(root);
}

int test_tracefs__write(const char *root, const char *name, const char *format)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/events/syscalls/sys_enter_%s", root, name);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/events/syscalls/sys_enter_%s/format", root, name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(format, f);
	return fclose(f);
}

int test_tracefs__syscall(const char *root, const char *name, ...)
{
	char format[4096];
	const char *field;
	int n, offset = 16;
	va_list ap;

	n = snprintf(format, sizeof(format),
		     "name: sys_enter_%s\nID: 1\nformat:\n"
		     "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		     "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		     "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n", name);
	va_start(ap, name);
	while ((field = va_arg(ap, const char *)) && n < (int)sizeof(format)) {
		n += snprintf(format + n, sizeof(format) - n,
			      "\tfield:%s;\toffset:%d;\tsize:8;\tsigned:0;\n", field, offset);
		offset += 8;
	}
	va_end(ap);
	if (n < (int)sizeof(format))
		snprintf(format + n, sizeof(format) - n, "\nprint fmt: \"\"\n");
	return test_tracefs__write(root, name, format);
}

void test_tracefs__delete(char *root)
{
	char cmd[PATH_MAX + 16];

	if (!root)
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		fprintf(stderr, "  cannot remove %s\n", root);
	free(root);
}
