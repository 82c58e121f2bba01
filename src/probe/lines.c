// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember probe -L: a function's or a source file's lines as perf probe
 * shows them: a header "<FUNC@/path/src.c:N>" (or "</path/src.c:N>"),
 * then each line of the range, the probe-able ones numbered ("%7d  ",
 * relative to the function's declaration), the others indented by nine
 * blanks; an open range ends two lines past its last probe-able line.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ember/probe.h>
#include "probe/probe.h"

/* Lines shown after the last probe-able one of an open range (perf's NR_ADDITIONAL_LINES). */
#define PROBE_LINES_AFTER 2

enum { LINE_SKIP, LINE_PLAIN, LINE_NUMBERED };

/* One source line: 1 shown (or skipped), 0 at the end of the file, -1 on a read error. */
static int one_line(FILE *fp, int num, int how, bool quiet)
{
	char *text = NULL;
	size_t cap = 0;
	ssize_t n = getline(&text, &cap, fp);
	int ret = 1;

	if (n <= 0) {
		ret = ferror(fp) ? -1 : 0;
		if (ret < 0 && !quiet)
			fprintf(stderr, "File read error: %s\n", strerror(errno));
	} else {
		if (how == LINE_NUMBERED)
			printf("%7d  %s", num, text);
		else if (how == LINE_PLAIN)
			printf("         %s", text);
		/* a last line without its newline is the end, as perf reads it */
		if (text[n - 1] != '\n')
			ret = 0;
	}
	free(text);
	return ret;
}

/* A line that must be there: the file ending before it is perf's warning. */
static int must_line(FILE *fp, int num, int how, bool quiet)
{
	int ret = one_line(fp, num, how, quiet);

	if (ret == 0) {
		if (!quiet)
			fprintf(stderr, "Source file is shorter than expected.\n");
		ret = -1;
	}
	return ret;
}

static int show(const struct ember_probe_lines *lr, bool quiet)
{
	int l = 1, end = lr->end, ret = 0;
	FILE *fp;

	if (lr->function)
		printf("<%s@%s:%d>\n", lr->function, lr->path, lr->start - lr->offset);
	else
		printf("<%s:%d>\n", lr->path, lr->start);
	fflush(stdout);
	fp = fopen(lr->path, "r");
	if (!fp) {
		if (!quiet)
			fprintf(stderr, "Failed to open %s: %s\n", lr->path, strerror(errno));
		return -1;
	}
	while (l < lr->start && ret >= 0)
		ret = must_line(fp, l++, LINE_SKIP, quiet);
	for (size_t i = 0; i < lr->nr_lines && ret >= 0; i++) {
		for (; lr->lines[i] > l && ret >= 0; l++)
			ret = must_line(fp, l - lr->offset, LINE_PLAIN, quiet);
		if (ret >= 0)
			ret = must_line(fp, l++ - lr->offset, LINE_NUMBERED, quiet);
	}
	if (end == INT_MAX)
		end = l + PROBE_LINES_AFTER;
	while (ret > 0 && l <= end)
		ret = one_line(fp, l++ - lr->offset, LINE_PLAIN, quiet);
	fclose(fp);
	return ret < 0 ? -1 : 0;
}

/* perf's messages for a range it cannot show (none with -q, as perf's); its exit code. */
static int refuse(const struct probe_opts *o, int err, const char *msg)
{
	if (err == -EINVAL) {
		/* a range that does not parse: perf's usage of -L, and its exit code */
		fputs(msg, stderr);
		fprintf(stderr, "\n Usage: %s\n", o->usage[0]);
		for (int i = 1; o->usage[i]; i++)
			fprintf(stderr, "    or: %s\n", o->usage[i]);
		fprintf(stderr, "\n    -L, --line <FUNC[:RLN[+NUM|-RLN2]]|SRC:ALN[+NUM|-ALN2]>\n"
			"%26sShow source code lines.\n", "");
		return 129;
	}
	if (o->quiet)
		return 1;
	if (err == -ENODATA)
		probe_no_debuginfo(o->exec);
	else if (!msg[0])
		fprintf(stderr, "ember probe: cannot read the debug information of %s: %s\n", o->exec,
			strerror(-err));
	else
		fputs(msg, stderr);
	fprintf(stderr, "  Error: Failed to show lines.\n");
	return 1;
}

int probe_show_lines(struct probe_opts *o)
{
	struct ember_probe_dwarf_opts opts = { .sz = sizeof(opts), .source_prefix = o->source };
	struct ember_probe_lines lr;
	char msg[1024];
	int err;

	if (!o->exec) {
		fprintf(stderr, "ember probe: -L reads a binary's debug information: give -x BINARY "
			"(the kernel's is not read yet)\n");
		return 1;
	}
	err = ember_probe__lines(o->exec, o->line_range, &opts, &lr, msg, sizeof(msg));
	if (err)
		return refuse(o, err, msg);
	err = show(&lr, o->quiet);
	ember_probe_lines__exit(&lr);
	if (err && !o->quiet)
		fprintf(stderr, "  Error: Failed to show lines.\n");
	return err ? 1 : 0;
}
