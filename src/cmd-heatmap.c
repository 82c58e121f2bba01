// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember heatmap: latency heat maps from trace2heatmap.pl's two-column text
 * or from start/end event pairs of a perf.data file, and the sample-density
 * heat map of any perf.data file with its flame graphs (FlameScope's view).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "builtin.h"
#include "heatmap/heatmap.h"
#include "util/parse-options.h"

static const char *const heatmap_usage[] = {
	"ember heatmap [<options>] [<file>]",
	"ember heatmap [<options>] [-i perf.data] [--start EV --end EV --key FIELDS]",
	"ember heatmap --samples [-i perf.data] [-o out.html]",
	NULL,
};

/* A number option: finite, and not negative where the script takes none. */
static int opt_double(const struct option *opt, const char *arg, bool unset)
{
	double *v = opt->value;
	char *end;

	if (unset) {
		*v = 0;
		return 0;
	}
	errno = 0;
	*v = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(*v)) {
		fprintf(stderr, "ember heatmap: --%s expects a number, not '%s'\n", opt->long_name,
			arg);
		return -1;
	}
	if (*v < 0 && strcmp(opt->long_name, "minlat") && strcmp(opt->long_name, "maxlat")) {
		fprintf(stderr, "ember heatmap: --%s cannot be negative ('%s')\n", opt->long_name,
			arg);
		return -1;
	}
	return 0;
}

static int opt_maxlat(const struct option *opt, const char *arg, bool unset)
{
	struct heatmap_cmd *cmd = opt->value;
	const struct option o = { .long_name = "maxlat", .value = &cmd->max_lat };

	cmd->has_max_lat = !unset;
	return opt_double(&o, arg, unset);
}

/* "PERFILE2" begins both the file and the pipe format. */
static bool is_perf_data(const char *path)
{
	char magic[8];
	FILE *fp = fopen(path, "rb");
	bool ret;

	if (!fp)
		return false;
	ret = fread(magic, 1, sizeof(magic), fp) == sizeof(magic) && !memcmp(magic, "PERFILE2", 8);
	fclose(fp);
	return ret;
}

static int check_options(struct heatmap_cmd *cmd)
{
	static const char *const units[] = { "s", "ms", "us", "ns" };
	bool ok = false;

	if (cmd->units_time) {
		for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			ok |= !strcmp(cmd->units_time, units[i]);
		if (!ok) {
			fprintf(stderr, "ember heatmap: cannot parse time units '%s'; use s, ms, us "
				"or ns\n", cmd->units_time);
			return -1;
		}
	}
	if (cmd->has_max_lat && cmd->max_lat < cmd->min_lat) {
		fprintf(stderr, "ember heatmap: --maxlat %g is below --minlat %g\n", cmd->max_lat,
			cmd->min_lat);
		return -1;
	}
	if (cmd->rows > 10000 || cmd->box_size > 1000 || cmd->font_size > 1000) {
		fprintf(stderr, "ember heatmap: --rows, --boxsize and --fontsize go up to 10000, "
			"1000 and 1000\n");
		return -1;
	}
	if ((cmd->start_ev || cmd->end_ev || cmd->keys || cmd->pairs) && cmd->samples) {
		fprintf(stderr, "ember heatmap: --samples draws every sample; it takes no --start, "
			"--end, --key or --pairs\n");
		return -1;
	}
	return 0;
}

/*
 * A pipe on stdin: perf.data in pipe mode ("ember record -o - | ember
 * heatmap") or text. tee(2) copies the first bytes without consuming them,
 * so the reader that follows still sees them.
 */
static bool stdin_is_perf_pipe(void)
{
	char magic[8];
	int p[2];
	ssize_t n = -1;
	bool ret = false;

	if (pipe(p))
		return false;
	do
		n = tee(STDIN_FILENO, p[1], sizeof(magic), 0);
	while (n < 0 && errno == EINTR);
	if (n > 0 && read(p[0], magic, n) == n)
		ret = n == sizeof(magic) && !memcmp(magic, "PERFILE2", sizeof(magic));
	close(p[0]);
	close(p[1]);
	return ret;
}

static int run_stdin(struct heatmap_cmd *cmd, FILE *out)
{
	if (stdin_is_perf_pipe())
		return cmd->samples ? heatmap_samples(cmd, "-", out) : heatmap_latency(cmd, "-", out);
	if (cmd->samples || cmd->start_ev) {
		fprintf(stderr, "ember heatmap: standard input is not perf.data\n");
		return 1;
	}
	return heatmap_text(cmd, stdin, "standard input", out);
}

/* The input and what it is: a file is told by its magic, a pipe on stdin by its first bytes. */
static int run(struct heatmap_cmd *cmd, FILE *out)
{
	struct stat st;
	const char *path = cmd->input;

	if (!path) {
		if (!fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode))
			return run_stdin(cmd, out);
		path = "perf.data";
	}
	if (!strcmp(path, "-")) {
		if (!fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode))
			return run_stdin(cmd, out);
		return heatmap_text(cmd, stdin, "standard input", out);
	}
	if (access(path, R_OK)) {
		fprintf(stderr, "ember heatmap: cannot open %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (cmd->samples)
		return heatmap_samples(cmd, path, out);
	if (is_perf_data(path))
		return heatmap_latency(cmd, path, out);
	if (cmd->start_ev || cmd->end_ev || cmd->keys) {
		fprintf(stderr, "ember heatmap: %s is not a perf.data file; --start, --end and "
			"--key need one\n", path);
		return 1;
	}
	FILE *in = fopen(path, "r");
	int ret;

	if (!in) {
		fprintf(stderr, "ember heatmap: cannot open %s: %s\n", path, strerror(errno));
		return 1;
	}
	ret = heatmap_text(cmd, in, path, out);
	fclose(in);
	return ret;
}

/*
 * The output, behind a stdio stream whose writes never fail: the first
 * failed write(2) keeps its errno (ENOSPC on a full disk, EPIPE, ...) and
 * what follows is dropped. The renderers would only see ferror() and say
 * EIO; the real cause is reported once, when the output is closed.
 */
struct out_sink {
	int fd;
	int err;		/* errno of the first failed write, 0 */
};

static ssize_t sink_write(void *cookie, const char *buf, size_t size)
{
	struct out_sink *o = cookie;
	size_t done = 0;

	while (!o->err && done < size) {
		ssize_t n = write(o->fd, buf + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			o->err = n < 0 ? errno : EIO;
		else
			done += n;
	}
	return size;
}

static FILE *sink_open(struct out_sink *o, int fd)
{
	cookie_io_functions_t io = { .write = sink_write };

	o->fd = fd;
	o->err = 0;
	return fopencookie(o, "w", io);
}

int cmd_heatmap(int argc, const char **argv)
{
	struct heatmap_cmd cmd = { .max_col = -1 };
	const struct option options[] = {
		OPT_STRING('i', "input", &cmd.input, "file",
			   "input: perf.data, or text of time latency lines (default: a pipe on "
			   "stdin, else perf.data)"),
		OPT_STRING('o', "output", &cmd.output, "file", "output file (default: stdout)"),
		OPT_BOOLEAN('f', "force", &cmd.force, "don't complain, do it"),
		OPT_INCR('v', "verbose", &cmd.verbose, "say what was counted, on stderr"),
		OPT_GROUP("Latency heat map (trace2heatmap.pl's options)"),
		OPT_STRING(0, "title", &cmd.title, "text", "title text"),
		OPT_STRING(0, "unitstime", &cmd.units_time, "units",
			   "column 1 units: s (default), ms, us or ns"),
		OPT_STRING(0, "unitslat", &cmd.units_lat, "units",
			   "column 2 units (any string, for labels); perf.data: ns, us (default), "
			   "ms or s"),
		OPT_STRING(0, "unitslatency", &cmd.units_lat, "units", "same as --unitslat"),
		OPT_CALLBACK(0, "minlat", &cmd.min_lat, "n", "minimum latency to include",
			     opt_double),
		OPT_CALLBACK(0, "maxlat", &cmd, "n", "maximum latency to include", opt_maxlat),
		OPT_UINTEGER(0, "rows", &cmd.rows, "n", "number of heat map rows (default 50)"),
		OPT_CALLBACK(0, "steplat", &cmd.step_lat, "n",
			     "instead of --rows, a latency step per row", opt_double),
		OPT_CALLBACK(0, "stepsec", &cmd.step_sec, "n", "seconds per column (fractions ok)",
			     opt_double),
		OPT_INTEGER(0, "maxcol", &cmd.max_col, "n", "maximum number of columns to draw"),
		OPT_UINTEGER(0, "boxsize", &cmd.box_size, "n", "box size in pixels (default 8)"),
		OPT_STRING(0, "fonttype", &cmd.font_type, "font", "font type (default Verdana)"),
		OPT_UINTEGER(0, "fontsize", &cmd.font_size, "n", "font size (default 12)"),
		OPT_BOOLEAN(0, "grid", &cmd.grid, "draw grid lines"),
		OPT_GROUP("perf.data: latency between a start and an end event"),
		OPT_STRING(0, "start", &cmd.start_ev, "event",
			   "start event (default block:block_rq_issue)"),
		OPT_STRING(0, "end", &cmd.end_ev, "event",
			   "end event (default block:block_rq_complete)"),
		OPT_STRING(0, "key", &cmd.keys, "fields",
			   "fields matching an end to its start: tid, pid, cpu or tracepoint "
			   "fields (default dev,sector)"),
		OPT_BOOLEAN(0, "pairs", &cmd.pairs,
			    "write the pairs as 'time latency' lines (time in us) instead of SVG"),
		OPT_GROUP("perf.data: sample density (FlameScope)"),
		OPT_BOOLEAN(0, "samples", &cmd.samples,
			    "HTML heat map of the samples by second and offset, with the flame "
			    "graph of any range of cells"),
		OPT_STRING(0, "event", &cmd.event, "name", "only the samples of this event"),
		OPT_BOOLEAN(0, "no-idle", &cmd.no_idle, "leave out the idle stacks (as FlameScope)"),
		OPT_END(),
	};
	struct out_sink sink;
	const char *shown = "the output";
	bool regular = false;
	FILE *out;
	int n, ret, fd = STDOUT_FILENO;
	struct stat st;

	n = parse_options(argc, argv, options, heatmap_usage, 0);
	if (n < 0)
		return parse_options_exit_code(n);
	if (n > 1 || (n == 1 && cmd.input)) {
		fprintf(stderr, "ember heatmap: one input file, please ('%s' is extra)\n",
			argv[n - 1]);
		return 2;
	}
	if (n == 1)
		cmd.input = argv[0];
	if (check_options(&cmd))
		return 2;
	if (cmd.output && strcmp(cmd.output, "-")) {
		fd = open(cmd.output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (fd < 0) {
			fprintf(stderr, "ember heatmap: cannot create %s: %s\n", cmd.output,
				strerror(errno));
			return 1;
		}
		shown = cmd.output;
		/* only a file of ours is removed on error: never /dev/full or a fifo */
		regular = !fstat(fd, &st) && S_ISREG(st.st_mode);
	}
	out = sink_open(&sink, fd);
	if (!out) {
		fprintf(stderr, "ember heatmap: %s\n", strerror(errno));
		if (fd != STDOUT_FILENO)
			close(fd);
		return 1;
	}
	ret = run(&cmd, out);
	fclose(out);
	if (fd != STDOUT_FILENO && close(fd) && !sink.err)
		sink.err = errno;
	if (sink.err && !ret) {
		fprintf(stderr, "ember heatmap: cannot write %s: %s\n", shown, strerror(sink.err));
		ret = 1;
	}
	/* No half-written map is left behind an error. */
	if (ret && regular)
		unlink(cmd.output);
	return ret;
}
