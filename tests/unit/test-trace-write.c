// SPDX-License-Identifier: GPL-2.0-only
/* lib/trace: build TRACING_DATA from a tracefs tree made in a temporary directory. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ember/trace.h>
#include "data/dbuf.h"
#include "test.h"
#include "test-trace-fixture.h"

static const char fx_function[] =
	"name: function\nID: 1\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long parent_ip;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip\n";

static int put_file(const char *root, const char *path, const char *text)
{
	char full[512];
	FILE *fp;

	snprintf(full, sizeof(full), "%s/%s", root, path);
	fp = fopen(full, "w");
	if (!fp)
		return -1;
	fputs(text, fp);
	return fclose(fp);
}

static int put_dir(const char *root, const char *path)
{
	char full[512];

	snprintf(full, sizeof(full), "%s/%s", root, path);
	return mkdir(full, 0755);
}

/* A tracefs look-alike: header files, three events, ftrace/function, printk, cmdlines. */
static int make_tracefs(char *root)
{
	int err = 0;

	if (!mkdtemp(root))
		return -1;
	err |= put_dir(root, "events");
	err |= put_file(root, "events/header_page", fx_header_page);
	err |= put_file(root, "events/header_event", fx_header_event);
	err |= put_dir(root, "events/sched");
	err |= put_dir(root, "events/sched/sched_switch");
	err |= put_file(root, "events/sched/sched_switch/format", fx_sched_switch);
	err |= put_file(root, "events/sched/sched_switch/id", "372\n");
	err |= put_dir(root, "events/sched/sched_process_exec");
	err |= put_file(root, "events/sched/sched_process_exec/format", fx_exec);
	err |= put_dir(root, "events/timer");
	err |= put_dir(root, "events/timer/hrtimer_expire_entry");
	err |= put_file(root, "events/timer/hrtimer_expire_entry/format", fx_hrtimer);
	err |= put_dir(root, "events/ftrace");
	err |= put_dir(root, "events/ftrace/function");
	err |= put_file(root, "events/ftrace/function/format", fx_function);
	err |= put_file(root, "printk_formats", fx_printk);
	err |= put_file(root, "saved_cmdlines", fx_cmdlines);
	return err;
}

static void remove_tracefs(const char *root)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		fprintf(stderr, "  cannot remove %s\n", root);
}

static void add_sized(struct dbuf *b, const char *s, int size_bytes)
{
	uint64_t n = strlen(s);

	if (size_bytes == 4)
		dbuf_add_u32(b, n);
	else
		dbuf_add_u64(b, n);
	dbuf_add(b, s, n);
}

TEST(trace_write_layout)
{
	static const char magic[] = "\027\010Dtracing0.6";
	struct ember_tracepoint tp = { "sched", "sched_switch" };
	char root[] = "/tmp/ember-trace-test.XXXXXX";
	uint8_t endian_long[2] = { 0, sizeof(long) };
	struct dbuf want = { 0 };
	void *blob = NULL;
	size_t size = 0;

	if (make_tracefs(root))
		SKIP("cannot make a temporary directory");
	CHECK_EQ(ember_tracing_data__build(root, &tp, 1, &blob, &size), 0);

	/* exactly what perf 6.1 writes for one tracepoint */
	dbuf_add(&want, magic, sizeof(magic));
	dbuf_add(&want, endian_long, 2);
	dbuf_add_u32(&want, sysconf(_SC_PAGESIZE));
	dbuf_add(&want, "header_page", 12);
	add_sized(&want, fx_header_page, 8);
	dbuf_add(&want, "header_event", 13);
	add_sized(&want, fx_header_event, 8);
	dbuf_add_u32(&want, 0);		/* no ftrace event */
	dbuf_add_u32(&want, 1);		/* one system */
	dbuf_add(&want, "sched", 6);
	dbuf_add_u32(&want, 1);
	add_sized(&want, fx_sched_switch, 8);
	dbuf_add_u32(&want, 0);		/* kallsyms: none, as perf 6.1 */
	add_sized(&want, fx_printk, 4);
	add_sized(&want, fx_cmdlines, 8);
	CHECK_EQ(size, want.len);
	CHECK(blob && size == want.len && !memcmp(blob, want.data, size));

	dbuf_exit(&want);
	free(blob);
	remove_tracefs(root);
}

TEST(trace_write_roundtrip)
{
	struct ember_tracepoint tps[] = {
		{ "timer", "hrtimer_expire_entry" },
		{ "sched", "sched_process_exec" },
		{ "ftrace", "function" },
		{ "sched", "sched_switch" },
	};
	char root[] = "/tmp/ember-trace-test.XXXXXX";
	struct ember_trace *tr = NULL;
	const char *sys, *name;
	uint8_t raw[128];
	char buf[256];
	void *blob = NULL;
	size_t size = 0, n;

	if (make_tracefs(root))
		SKIP("cannot make a temporary directory");
	CHECK_EQ(ember_tracing_data__build(root, tps, 4, &blob, &size), 0);
	tr = blob ? ember_trace__parse(blob, size) : NULL;
	CHECK(tr);
	if (!tr)
		goto out;
	CHECK_EQ(ember_trace__size(tr), size);
	CHECK_EQ(ember_trace__event_id(tr, "sched", "sched_switch"), FX_ID_SCHED_SWITCH);
	CHECK_EQ(ember_trace__event_id(tr, "sched", "sched_process_exec"), FX_ID_EXEC);
	CHECK_EQ(ember_trace__event_id(tr, "timer", "hrtimer_expire_entry"), FX_ID_HRTIMER);
	CHECK_EQ(ember_trace__event_name(tr, 1, &sys, &name), 0);
	CHECK_STR(sys, "ftrace");
	CHECK_STR(name, "function");

	n = fx_raw_sched_switch(raw, "bash", 100, 120, 2, "swapper/0", 0);
	CHECK(ember_trace__snprintf(tr, 0, raw, n, buf, sizeof(buf)) > 0);
	CHECK_STR(buf, "prev_comm=bash prev_pid=100 prev_prio=120 prev_state=D ==> "
		       "next_comm=swapper/0 next_pid=0 next_prio=120");
	/* no kallsyms in what we write: the address stays a number */
	n = fx_raw_hrtimer(raw, 0x1000, 5, 0xffffffff81000100ULL);
	CHECK(ember_trace__snprintf(tr, 0, raw, n, buf, sizeof(buf)) > 0);
	CHECK_STR(buf, "hrtimer=0x1000 function=0xffffffff81000100 now=5");
out:
	ember_trace__delete(tr);
	free(blob);
	remove_tracefs(root);
}

TEST(trace_write_errors)
{
	struct ember_tracepoint tp = { "sched", "sched_switch" };
	struct ember_tracepoint nope = { "sched", "sched_nope" };
	struct ember_tracepoint bad = { NULL, "x" };
	char root[] = "/tmp/ember-trace-test.XXXXXX", path[600];
	void *blob = NULL;
	size_t size = 0;
	uint64_t cmdlines;
	uint32_t printk, kallsyms;

	if (make_tracefs(root))
		SKIP("cannot make a temporary directory");
	CHECK_EQ(ember_tracing_data__build(root, &nope, 1, &blob, &size), -ENOENT);
	CHECK_EQ(ember_tracing_data__build(root, &tp, 0, &blob, &size), -EINVAL);
	CHECK_EQ(ember_tracing_data__build(root, &bad, 1, &blob, &size), -EINVAL);
	CHECK_EQ(ember_tracing_data__build("/nonexistent/tracefs", &tp, 1, &blob, &size), -ENOENT);
	CHECK(!blob);

	/* no printk_formats nor saved_cmdlines: zero sizes, as perf writes */
	snprintf(path, sizeof(path), "%s/printk_formats", root);
	unlink(path);
	snprintf(path, sizeof(path), "%s/saved_cmdlines", root);
	unlink(path);
	CHECK_EQ(ember_tracing_data__build(root, &tp, 1, &blob, &size), 0);
	if (blob) {
		memcpy(&cmdlines, (uint8_t *)blob + size - 8, 8);
		memcpy(&printk, (uint8_t *)blob + size - 12, 4);
		memcpy(&kallsyms, (uint8_t *)blob + size - 16, 4);
		CHECK_EQ(cmdlines, 0);
		CHECK_EQ(printk, 0);
		CHECK_EQ(kallsyms, 0);
	}
	free(blob);
	remove_tracefs(root);
}
