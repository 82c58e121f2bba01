// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember collapse: folded stacks from `perf script` text, byte for byte as
 * stackcollapse-perf.pl writes them, with its options. Input comes from
 * the files named (read one after another as one stream, "-" is stdin)
 * or stdin; output goes to stdout. The rules live in lib/collapse; this
 * file reads, reports and writes.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ember/collapse.h>
#include "builtin.h"
#include "util/parse-options.h"

#define READ_CHUNK	(1 << 20)
#define MAP_WINDOW	((off_t)16 << 20)
#define MAX_LINE_WARNINGS 10

struct collapse_cli {
	struct ember_collapse_opts opts;
	bool all;
	const char *event_filter;
	uint64_t warned_lines;
};

/* The diagnostics of the script, on stderr; unrecognised lines only the first few. */
static void on_diag(void *ctx, enum ember_collapse_diag kind, uint64_t lineno, const char *text,
		    size_t len)
{
	struct collapse_cli *cli = ctx;

	switch (kind) {
	case EMBER_COLLAPSE_UNRECOGNIZED:
		if (cli->warned_lines++ >= MAX_LINE_WARNINGS)
			return;
		fprintf(stderr, "Unrecognized line %llu: ", (unsigned long long)lineno);
		/* Keep the terminal sane on binary input: at most 200 bytes, controls as '?'. */
		for (size_t i = 0; i < len && i < 200; i++)
			fputc(text[i] == '\t' || isprint((unsigned char)text[i]) ? text[i] : '?', stderr);
		fputs(len > 200 ? "...\n" : "\n", stderr);
		break;
	case EMBER_COLLAPSE_FILTERING:
		fprintf(stderr, "Filtering for events of type: %.*s\n", (int)len, text);
		break;
	case EMBER_COLLAPSE_NO_DEBUGINFO:
		fprintf(stderr, "ember collapse: --inline: cannot read '%.*s', its frames keep their names\n",
			(int)len, text);
		break;
	}
}

/*
 * The script parses options with Getopt::Long's defaults: one or two
 * dashes, any case, unique abbreviations. parse_options() takes unique
 * abbreviations of "--name"; give it every option in that form.
 */
static int normalize_args(int argc, const char **argv, char ***owned)
{
	char **copy = calloc(argc + 1, sizeof(*copy));

	if (!copy)
		return -ENOMEM;
	*owned = copy;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *name;
		size_t len;
		char *n;

		if (!strcmp(a, "--"))
			break;
		if (a[0] != '-' || !a[1] || !strcmp(a, "-h"))
			continue;
		name = a[1] == '-' ? a + 2 : a + 1;
		len = strlen(name);
		n = malloc(len + 3);
		if (!n)
			return -ENOMEM;
		memcpy(n, "--", 2);
		memcpy(n + 2, name, len + 1);
		for (char *p = n + 2; *p && *p != '='; p++)
			*p = tolower((unsigned char)*p);
		copy[i] = n;
		argv[i] = n;
	}
	return 0;
}

static void free_args(int argc, char **owned)
{
	if (!owned)
		return;
	for (int i = 0; i < argc; i++)
		free(owned[i]);
	free(owned);
}

/*
 * A regular file is mapped and fed, a window at a time: no copy from the
 * page cache, which cost a tenth of the time, and no more of the file
 * resident than a window. Returns 0 (fed up to the size it had, or to
 * where a window could not be mapped; the file offset after it), 1 (not
 * mapped: read it instead), 2 (fed, but the offset could not be moved:
 * read no more) or -ENOMEM. The file is expected not to shrink while it
 * is read, as with perf.data.
 */
static int feed_mapped(struct ember_collapse *c, int fd)
{
	long page = sysconf(_SC_PAGESIZE);
	struct stat st;
	off_t pos, at;

	/* stdin redirected from a file may have been read partly already: start where it stands */
	if (page <= 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    (pos = lseek(fd, 0, SEEK_CUR)) < 0 || pos >= st.st_size)
		return 1;
	for (at = pos; at < st.st_size;) {
		off_t base = at - at % page;
		size_t len = st.st_size - base < MAP_WINDOW ? st.st_size - base : MAP_WINDOW;
		char *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, base);
		int err;

		if (map == MAP_FAILED) {
			if (at == pos)
				return 1;
			break;
		}
		madvise(map, len, MADV_SEQUENTIAL);
		err = ember_collapse__feed(c, map + (at - base), len - (at - base));
		munmap(map, len);
		if (err)
			return err;
		at = base + len;
	}
	/* the rest (appended since, or not mapped) is read on, as Perl's <> would */
	return lseek(fd, at, SEEK_SET) == at ? 0 : 2;
}

/* Feeds one input; returns 0, 1 (could not read it, already reported) or -ENOMEM. */
static int feed_fd(struct ember_collapse *c, int fd, const char *name, char *buf)
{
	int mapped = feed_mapped(c, fd);

	if (mapped < 0)
		return mapped;
	while (mapped != 2) {
		ssize_t n = read(fd, buf, READ_CHUNK);
		int err;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "ember collapse: cannot read '%s': %s\n", name, strerror(errno));
			ember_collapse__end_file(c);
			return 1;
		}
		if (n == 0)
			break;
		err = ember_collapse__feed(c, buf, n);
		if (err)
			return err;
	}
	return ember_collapse__end_file(c);
}

static int feed_inputs(struct ember_collapse *c, int nfiles, const char **files)
{
	char *buf = malloc(READ_CHUNK);
	int status = 0;

	if (!buf)
		return -ENOMEM;
	if (!nfiles) {
		status = feed_fd(c, 0, "stdin", buf);
		goto out;
	}
	for (int i = 0; i < nfiles; i++) {
		bool is_stdin = !strcmp(files[i], "-");
		int fd = is_stdin ? 0 : open(files[i], O_RDONLY | O_CLOEXEC);
		int ret;

		if (fd < 0) {
			/* as Perl's <>: say so and go on with the next file */
			fprintf(stderr, "ember collapse: cannot open '%s': %s\n", files[i],
				strerror(errno));
			status = 1;
			continue;
		}
		ret = feed_fd(c, fd, files[i], buf);
		if (!is_stdin)
			close(fd);
		if (ret < 0) {
			status = ret;
			break;
		}
		if (ret)
			status = 1;
	}
out:
	free(buf);
	return status;
}

int cmd_collapse(int argc, const char **argv)
{
	static const char *const usage[] = {
		"ember collapse [<options>] [<file>...]",
		NULL,
	};
	struct collapse_cli cli = { 0 };
	const struct option options[] = {
		OPT_BOOLEAN(0, "pid", &cli.opts.include_pid, "include PID with process names"),
		OPT_BOOLEAN(0, "tid", &cli.opts.include_tid, "include TID and PID with process names"),
		OPT_BOOLEAN(0, "inline", &cli.opts.show_inline, "un-inline frames of ELF files, from DWARF"),
		OPT_BOOLEAN(0, "context", &cli.opts.show_context,
			    "add source context (func:file:line) to --inline"),
		OPT_BOOLEAN(0, "srcline", &cli.opts.srcline,
			    "input from 'perf script -F+srcline': add each frame's source line"),
		OPT_BOOLEAN(0, "all", &cli.all, "all annotations (--kernel --jit)"),
		OPT_BOOLEAN(0, "kernel", &cli.opts.annotate_kernel, "annotate kernel functions with _[k]"),
		OPT_BOOLEAN(0, "jit", &cli.opts.annotate_jit, "annotate JIT functions with _[j]"),
		OPT_BOOLEAN(0, "addrs", &cli.opts.include_addrs,
			    "include raw addresses where symbols can't be found"),
		OPT_STRING(0, "event-filter", &cli.event_filter, "event",
			   "only this event (default: the first event seen)"),
		OPT_END(),
	};
	struct ember_collapse_stats st;
	struct ember_collapse *c;
	char **owned = NULL;
	int nargs, status, err;

	if (normalize_args(argc, argv, &owned)) {
		free_args(argc, owned);
		fprintf(stderr, "ember collapse: out of memory\n");
		return 1;
	}
	nargs = parse_options(argc, argv, options, usage, 0);
	if (parse_options_exit_code(nargs) >= 0) {
		free_args(argc, owned);
		return parse_options_exit_code(nargs);
	}
	if (cli.all)
		cli.opts.annotate_kernel = cli.opts.annotate_jit = true;
	cli.opts.sz = sizeof(cli.opts);
	cli.opts.event_filter = cli.event_filter;
	cli.opts.diag = on_diag;
	cli.opts.diag_ctx = &cli;
	c = ember_collapse__new(&cli.opts);
	if (!c) {
		free_args(argc, owned);
		fprintf(stderr, "ember collapse: %s\n", strerror(errno));
		return 1;
	}
	status = feed_inputs(c, nargs, argv);
	if (status < 0) {
		fprintf(stderr, "ember collapse: %s\n", strerror(-status));
		goto out;
	}
	ember_collapse__stats(c, &st);
	if (cli.warned_lines > MAX_LINE_WARNINGS)
		fprintf(stderr, "ember collapse: %llu unrecognized lines in all (first %d shown)\n",
			(unsigned long long)cli.warned_lines, MAX_LINE_WARNINGS);
	err = ember_collapse__write(c, stdout);
	if (err || fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr, "ember collapse: cannot write the output: %s\n",
			strerror(err ? -err : errno));
		status = 1;
	}
out:
	ember_collapse__delete(c);
	free_args(argc, owned);
	return status < 0 ? 1 : status;
}
