// SPDX-License-Identifier: GPL-2.0-only
/* lib/trace: parse the fixture TRACING_DATA, print and read fields of raw samples, bad blobs. */
#include <errno.h>
#include <stdlib.h>
#include <ember/trace.h>
#include "test.h"
#include "test-trace-fixture.h"

TEST(trace_parse_fixture)
{
	const char *sys, *name;
	struct ember_trace *tr;
	size_t size;
	void *blob = fx_blob(&size);

	tr = ember_trace__parse(blob, size);
	CHECK(tr);
	if (!tr)
		goto out;
	CHECK_EQ(ember_trace__size(tr), size);
	CHECK(ember_trace__tep(tr));
	CHECK_EQ(ember_trace__event_id(tr, "sched", "sched_switch"), FX_ID_SCHED_SWITCH);
	CHECK_EQ(ember_trace__event_id(tr, "timer", "hrtimer_expire_entry"), FX_ID_HRTIMER);
	CHECK_EQ(ember_trace__event_id(tr, "sched", "nope"), -ENOENT);
	CHECK_EQ(ember_trace__event_name(tr, FX_ID_EXEC, &sys, &name), 0);
	CHECK_STR(sys, "sched");
	CHECK_STR(name, "sched_process_exec");
	CHECK_EQ(ember_trace__event_name(tr, 1, &sys, &name), -ENOENT);
	ember_trace__delete(tr);
out:
	free(blob);
}

TEST(trace_parse_pipe_padding)
{
	struct ember_trace *tr;
	size_t size;
	uint8_t *blob = fx_blob(&size), *padded = calloc(1, size + 7);

	/* pipe mode pads the blob to 8 bytes: the padding is not part of it */
	memcpy(padded, blob, size);
	tr = ember_trace__parse(padded, size + 7);
	CHECK(tr);
	if (tr)
		CHECK_EQ(ember_trace__size(tr), size);
	ember_trace__delete(tr);
	free(padded);
	free(blob);
}

TEST(trace_print_fixture)
{
	char buf[256];
	uint8_t raw[128];
	struct ember_trace *tr;
	size_t size, n;
	void *blob = fx_blob(&size);
	FILE *fp;
	char *text = NULL;
	size_t text_len = 0;

	tr = ember_trace__parse(blob, size);
	CHECK(tr);
	if (!tr)
		goto out;

	n = fx_raw_sched_switch(raw, "bash", 100, 120, 1, "swapper/0", 0);
	CHECK_EQ(ember_trace__snprintf(tr, 0, raw, n, buf, sizeof(buf)), 103);
	CHECK_STR(buf, "prev_comm=bash prev_pid=100 prev_prio=120 prev_state=S ==> "
		       "next_comm=swapper/0 next_pid=0 next_prio=120");
	n = fx_raw_sched_switch(raw, "kworker/0:1", 7, 120, 0x102, "bash", 100);
	CHECK(ember_trace__snprintf(tr, 1, raw, n, buf, sizeof(buf)) > 0);
	CHECK_STR(buf, "prev_comm=kworker/0:1 prev_pid=7 prev_prio=120 prev_state=D+ ==> "
		       "next_comm=bash next_pid=100 next_prio=120");

	n = fx_raw_exec(raw, "/bin/ls", 42);
	CHECK(ember_trace__snprintf(tr, 0, raw, n, buf, sizeof(buf)) > 0);
	CHECK_STR(buf, "filename=/bin/ls pid=42 old_pid=42");

	/* kallsyms from the blob resolves %ps */
	n = fx_raw_hrtimer(raw, 0xffff888000001000ULL, 123456, 0xffffffff81000100ULL);
	CHECK(ember_trace__snprintf(tr, 0, raw, n, buf, sizeof(buf)) > 0);
	CHECK_STR(buf, "hrtimer=0xffff888000001000 function=tick_sched_timer now=123456");

	/* truncation as snprintf: full length returned, NUL-terminated */
	n = fx_raw_exec(raw, "/bin/ls", 42);
	CHECK_EQ(ember_trace__snprintf(tr, 0, raw, n, buf, 9), 34);
	CHECK_STR(buf, "filename");
	CHECK_EQ(ember_trace__snprintf(tr, 0, raw, n, NULL, 0), 34);

	fp = open_memstream(&text, &text_len);
	CHECK_EQ(ember_trace__fprintf(tr, 0, raw, n, fp), 34);
	fclose(fp);
	CHECK_STR(text, "filename=/bin/ls pid=42 old_pid=42");
	free(text);
	ember_trace__delete(tr);
out:
	free(blob);
}

TEST(trace_print_bad_raw)
{
	char buf[256];
	uint8_t raw[128];
	struct ember_trace *tr;
	size_t size, n;
	void *blob = fx_blob(&size);
	uint32_t loc;

	tr = ember_trace__parse(blob, size);
	CHECK(tr);
	if (!tr)
		goto out;
	n = fx_raw_sched_switch(raw, "bash", 100, 120, 1, "swapper/0", 0);
	CHECK_EQ(ember_trace__snprintf(tr, 0, raw, 63, buf, sizeof(buf)), -EINVAL);
	CHECK_EQ(ember_trace__snprintf(tr, 0, raw, 1, buf, sizeof(buf)), -EINVAL);
	CHECK_EQ(ember_trace__snprintf(tr, 0, raw, 0, buf, sizeof(buf)), -EINVAL);
	CHECK_EQ(ember_trace__snprintf(tr, 0, NULL, n, buf, sizeof(buf)), -EINVAL);
	raw[0] = 1;			/* common_type 1: no such event */
	raw[1] = 0;
	CHECK_EQ(ember_trace__snprintf(tr, 0, raw, n, buf, sizeof(buf)), -ENOENT);

	/* a __data_loc pointing past the end */
	n = fx_raw_exec(raw, "/bin/ls", 42);
	CHECK_EQ(ember_trace__snprintf(tr, 0, raw, n - 1, buf, sizeof(buf)), -EINVAL);
	loc = 200u << 16 | 20;
	memcpy(raw + 8, &loc, 4);
	CHECK_EQ(ember_trace__snprintf(tr, 0, raw, n, buf, sizeof(buf)), -EINVAL);
	loc = 4u << 16 | 0xfff0;
	memcpy(raw + 8, &loc, 4);
	CHECK_EQ(ember_trace__snprintf(tr, 0, raw, n, buf, sizeof(buf)), -EINVAL);
	ember_trace__delete(tr);
out:
	free(blob);
}

TEST(trace_fields)
{
	const struct ember_trace_field *f;
	struct ember_trace *tr;
	uint8_t raw[128];
	char buf[32];
	uint64_t v;
	size_t size, n;
	void *blob = fx_blob(&size);

	tr = ember_trace__parse(blob, size);
	CHECK(tr);
	if (!tr)
		goto out;
	n = fx_raw_sched_switch(raw, "bash", 100, -5, 1, "a-very-long-comm", 0);

	f = ember_trace__field(tr, FX_ID_SCHED_SWITCH, "prev_pid");
	CHECK(f);
	CHECK_EQ(ember_trace_field__num(f, raw, n, &v), 0);
	CHECK_EQ(v, 100);
	CHECK_EQ(ember_trace_field__num(f, raw, 27, &v), -EINVAL);
	f = ember_trace__field(tr, FX_ID_SCHED_SWITCH, "prev_prio");
	CHECK_EQ(ember_trace_field__num(f, raw, n, &v), 0);
	CHECK_EQ((int64_t)v, -5);
	f = ember_trace__field(tr, FX_ID_SCHED_SWITCH, "common_type");
	CHECK(f);
	CHECK_EQ(ember_trace_field__num(f, raw, n, &v), 0);
	CHECK_EQ(v, FX_ID_SCHED_SWITCH);

	f = ember_trace__field(tr, FX_ID_SCHED_SWITCH, "prev_comm");
	CHECK_EQ(ember_trace_field__str(f, raw, n, buf, sizeof(buf)), 4);
	CHECK_STR(buf, "bash");
	CHECK_EQ(ember_trace_field__num(f, raw, n, &v), -EINVAL);
	/* a 16-byte comm without NUL stays within its field */
	f = ember_trace__field(tr, FX_ID_SCHED_SWITCH, "next_comm");
	CHECK_EQ(ember_trace_field__str(f, raw, n, buf, sizeof(buf)), 16);
	CHECK_STR(buf, "a-very-long-comm");
	f = ember_trace__field(tr, FX_ID_SCHED_SWITCH, "next_pid");
	CHECK_EQ(ember_trace_field__str(f, raw, n, buf, sizeof(buf)), -EINVAL);

	n = fx_raw_exec(raw, "/usr/bin/true", 7);
	f = ember_trace__field(tr, FX_ID_EXEC, "filename");
	CHECK(f);
	CHECK_EQ(ember_trace_field__str(f, raw, n, buf, sizeof(buf)), 13);
	CHECK_STR(buf, "/usr/bin/true");
	CHECK_EQ(ember_trace_field__str(f, raw, n, buf, 5), 13);
	CHECK_STR(buf, "/usr");
	CHECK_EQ(ember_trace_field__str(f, raw, n - 1, buf, sizeof(buf)), -EINVAL);
	CHECK_EQ(ember_trace_field__num(f, raw, n, &v), -EINVAL);

	errno = 0;
	CHECK(!ember_trace__field(tr, FX_ID_EXEC, "nope"));
	CHECK_EQ(errno, ENOENT);
	CHECK(!ember_trace__field(tr, 12345, "pid"));
	ember_trace__delete(tr);
out:
	free(blob);
}

TEST(trace_parse_truncated)
{
	struct ember_trace *tr;
	size_t size, bad = 0;
	void *blob = fx_blob(&size);
	uint8_t *copy;

	/* every strict prefix is an error (in a copy of exactly that size, for ASan) */
	for (size_t n = 0; n < size; n++) {
		copy = malloc(n ? n : 1);
		memcpy(copy, blob, n);
		errno = 0;
		tr = ember_trace__parse(copy, n);
		if (tr || errno != EINVAL)
			bad++;
		ember_trace__delete(tr);
		free(copy);
	}
	CHECK_EQ(bad, 0);
	free(blob);
}

/* A deterministic generator, so a failure reproduces. */
static uint32_t next_rand(uint32_t *s)
{
	*s = *s * 1103515245 + 12345;
	return *s >> 8;
}

TEST(trace_parse_garbage)
{
	struct ember_trace *tr;
	size_t size, bad = 0;
	uint8_t *blob = fx_blob(&size), *copy = malloc(size);
	uint32_t seed = 1;
	char buf[256];
	uint8_t raw[128];
	size_t n = fx_raw_sched_switch(raw, "bash", 1, 120, 1, "x", 2);

	/* one byte flipped anywhere: an error or a usable handle, never a crash */
	for (size_t i = 0; i < size; i++) {
		memcpy(copy, blob, size);
		copy[i] ^= 0xff;
		errno = 0;
		tr = ember_trace__parse(copy, size);
		if (!tr && errno != EINVAL && errno != ENOMEM)
			bad++;
		if (tr)
			ember_trace__snprintf(tr, 0, raw, n, buf, sizeof(buf));
		ember_trace__delete(tr);
	}
	/* random bytes after a valid preamble, and pure noise */
	for (int round = 0; round < 200; round++) {
		memcpy(copy, blob, size);
		for (size_t i = round % 2 ? 0 : 20; i < size; i++)
			copy[i] = next_rand(&seed);
		tr = ember_trace__parse(copy, size);
		if (!tr && errno != EINVAL && errno != ENOMEM)
			bad++;
		ember_trace__delete(tr);
	}
	/* huge sizes */
	memcpy(copy, blob, size);
	memset(copy + 20 + 12, 0xff, 8);	/* header_page size */
	errno = 0;
	CHECK(!ember_trace__parse(copy, size));
	CHECK_EQ(errno, EINVAL);
	CHECK_EQ(bad, 0);
	errno = 0;
	CHECK(!ember_trace__parse(NULL, 10));
	CHECK_EQ(errno, EINVAL);
	free(copy);
	free(blob);
}
