// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the event-spec parser (what follows -e), without
 * opening anything. PMUs and tracepoints come from a small fixture tree
 * made at start-up, so runs do not depend on the machine, and the error
 * (position, message, hint) is rendered as perf prints it.
 */
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ember/event.h>

static char root[64];
static char pmus[128], tracefs[128];
static pid_t owner;		/* forked children must not remove the tree */

static void put(const char *base, const char *rel, const char *text)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	for (char *s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
	fp = fopen(path, "w");
	if (!fp)
		abort();
	fputs(text, fp);
	fclose(fp);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static void cleanup(void)
{
	if (getpid() == owner)
		nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	strcpy(root, "/tmp/ember-fuzz-XXXXXX");
	if (!mkdtemp(root))
		abort();
	owner = getpid();
	snprintf(pmus, sizeof(pmus), "%s/devices", root);
	snprintf(tracefs, sizeof(tracefs), "%s/tracing", root);
	put(pmus, "cpu/type", "4\n");
	put(pmus, "cpu/format/event", "config:0-7,32-35\n");
	put(pmus, "cpu/format/umask", "config:8-15\n");
	put(pmus, "cpu/format/edge", "config:18\n");
	put(pmus, "cpu/format/cmask", "config:24-31\n");
	put(pmus, "cpu/format/ldlat", "config1:0-15\n");
	put(pmus, "cpu/format/fe", "config2:0-23\n");
	put(pmus, "cpu/events/mem-loads", "event=0xcd,umask=0x1,ldlat=3\n");
	put(pmus, "cpu/events/mem-loads.unit", "ns\n");
	put(pmus, "cpu/events/mem-loads.scale", "1e-3\n");
	put(pmus, "cpu/events/param", "event=0x10,umask=?\n");
	put(pmus, "uncore_x/type", "17\n");
	put(pmus, "uncore_x/cpumask", "0\n");
	put(pmus, "uncore_x/format/event", "config:0-7\n");
	put(pmus, "uncore_x/events/clockticks", "event=0xff\n");
	put(pmus, "software/type", "1\n");
	put(pmus, "tracepoint/type", "2\n");
	put(tracefs, "events/sched/sched_switch/id", "316\n");
	put(tracefs, "events/sched/sched_wakeup/id", "317\n");
	put(tracefs, "events/sched/no_id/format", "name: no_id\n");
	put(tracefs, "events/sched/enable", "0\n");
	put(tracefs, "events/syscalls/sys_enter_read/id", "600\n");
	put(tracefs, "events/syscalls/sys_exit_read/id", "602\n");
	put(tracefs, "events/my-sys/ev-1.x/id", "700\n");
	put(tracefs, "events/enable", "0\n");
	/* SDT events (sdt_*:*) are looked up in the build-id cache: an empty one */
	setenv("PERF_BUILDID_DIR", root, 1);
	atexit(cleanup);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ember_parse_opts opts = { .sz = sizeof(opts), .tracefs = tracefs, .pmu_dir = pmus };
	struct ember_parse_error err = { 0 };
	struct ember_evlist *evlist;
	char *spec, msg[1024];

	/*
	 * Longer specs only repeat what shorter ones test, and make each run slow
	 * (suggestions compare the unknown name with every known one).
	 */
	if (size > 1024)
		return -1;
	spec = malloc(size + 1);
	evlist = ember_evlist__new();
	if (!spec || !evlist)
		abort();
	memcpy(spec, data, size);
	spec[size] = '\0';
	if (ember_evlist__parse_events_opts(evlist, spec, &err, &opts)) {
		ember_parse_error__snprintf(&err, 0, msg, sizeof(msg));
		ember_parse_error__snprintf(&err, 20, msg, sizeof(msg));
	}
	for (struct ember_evsel *e = ember_evlist__next(evlist, NULL); e;
	     e = ember_evlist__next(evlist, e))
		snprintf(msg, sizeof(msg), "%s %llx", ember_evsel__name(e),
			 (unsigned long long)ember_evsel__attr(e)->config);
	ember_parse_error__exit(&err);
	ember_evlist__delete(evlist);
	free(spec);
	return 0;
}
