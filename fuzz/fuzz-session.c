// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: a perf.data file through the session, the path of
 * ember report and script: records ordered by time, the machine (threads,
 * maps) fed by them, every sample's callchain resolved, tracepoint formats
 * parsed, perf's closing warnings. Symbols come from nowhere (an empty
 * --symfs, no kallsyms, no build-id cache): file names in the input must
 * not make the target read this machine's files.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <ember/session.h>

static char symfs[64];
static pid_t owner;		/* forked children must not remove it */

static void cleanup(void)
{
	if (getpid() == owner)
		rmdir(symfs);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	strcpy(symfs, "/tmp/ember-fuzz-symfs-XXXXXX");
	if (!mkdtemp(symfs))
		abort();
	owner = getpid();
	atexit(cleanup);
	return 0;
}

static int on_sample(struct ember_session *s, const struct ember_session_sample *ss, void *ctx)
{
	const struct ember_addr_location *chain;
	int n = ember_session__callchain(s, ss, &chain);
	const char **sink = ctx;

	for (int i = 0; i < n; i++)
		*sink = chain[i].sym_name ? chain[i].sym_name : chain[i].dso_name;
	if (ss->al.sym_name)
		*sink = ss->al.sym_name;
	return 0;
}

static int on_record(struct ember_session *s, const struct ember_data_record *rec,
		     const struct ember_sample *id, void *ctx)
{
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ember_session_opts opts = {
		.sz = sizeof(opts),
		.force = true,
		.symbol = { .sz = sizeof(opts.symbol), .symfs = symfs, .buildid_dir = "",
			    .kallsyms = "" },
	};
	struct ember_session_ops ops = { .sample = on_sample, .record = on_record };
	int fd = memfd_create("fuzz-perf.data", MFD_CLOEXEC);
	struct ember_session *s;
	const char *sink = NULL;
	char path[64];
	FILE *null;

	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	s = ember_session__open(path, &opts);
	if (s) {
		ember_session__process(s, &ops, &sink);
		ember_session__trace(s);
		null = fopen("/dev/null", "w");
		if (null) {
			ember_session__fprintf_warnings(s, null);
			fclose(null);
		}
		ember_session__delete(s);
	}
	close(fd);
	return 0;
}

/* libtraceevent 1.7's leak on a format it cannot parse: see fuzz-trace.c and lsan.supp. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:tep_parse_format\n";
}
