// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/trace's format check: what libtraceevent may see, what it may not (each
 * refused case below crashed libtraceevent 1.7 when given to it as is), and
 * the print fmts it cannot run, which print "[FAILED TO PARSE]" as it would.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <ember/trace.h>
#include "trace/trace.h"
#include "test.h"
#include "test-trace-fixture.h"

#define HEAD(name)								\
	"name: " name "\nID: 900\nformat:\n"					\
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"	\
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"	\
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

/* An event with a u32 length and a dynamic byte array, dumped with __print_hex. */
#define DUMP_FIELDS								\
	"\tfield:u32 len;\toffset:8;\tsize:4;\tsigned:0;\n"			\
	"\tfield:__data_loc u8[] buf;\toffset:12;\tsize:4;\tsigned:0;\n"	\
	"\tfield:char name[8];\toffset:16;\tsize:8;\tsigned:0;\n\n"

static int check(const char *format)
{
	struct trace_format_info info;

	return trace_format_check(format, strlen(format), &info);
}

TEST(trace_format_accepts)
{
	struct trace_format_info info;

	CHECK_EQ(check(fx_sched_switch), 0);
	CHECK_EQ(check(fx_exec), 0);
	CHECK_EQ(check(fx_hrtimer), 0);
	CHECK_EQ(check(HEAD("a") DUMP_FIELDS "print fmt: \"%s\" \" %s\", REC->name, "
		       "__print_hex(__get_dynamic_array(buf), __get_dynamic_array_len(buf))\n"), 0);
	CHECK_EQ(check(HEAD("a") DUMP_FIELDS "print fmt: \"%u\", (REC)->len / 8 + "
		       "sizeof(u64) * 2\n"), 0);
	CHECK_EQ(check(HEAD("a") DUMP_FIELDS "print fmt: \"x\"\n"), 0);

	/* a u32 length is named for the printer to size its slack by */
	CHECK_EQ(trace_format_check(HEAD("a") DUMP_FIELDS "print fmt: \"%s\", "
				    "__print_hex(__get_dynamic_array(buf), REC->len)\n",
				    strlen(HEAD("a") DUMP_FIELDS "print fmt: \"%s\", "
					   "__print_hex(__get_dynamic_array(buf), REC->len)\n"),
				    &info), 0);
	CHECK_EQ(info.nr_len_fields, 1);
	CHECK_STR(info.len_fields[0], "len");

	CHECK_EQ(trace_header_page_check(fx_header_page, strlen(fx_header_page)), 0);
	CHECK_EQ(trace_header_page_check("\tfield: u64 x;\toffset:0\n", 24), -EINVAL);
	CHECK_EQ(trace_header_page_check("\tfield: u64 x*;\toffset:0;\tsize:8;\n", 34), -EINVAL);
}

TEST(trace_format_unsupported_print)
{
	/* well-formed, but beyond libtraceevent: the print fmt is replaced */
	CHECK_EQ(check(HEAD("a") DUMP_FIELDS "print fmt: \"%u\", jiffies_to_msecs(REC->len)\n"), 1);
	CHECK_EQ(check(HEAD("a") DUMP_FIELDS "print fmt: \"%u\", ({ int x = REC->len; x; })\n"),
		 1);
}

TEST(trace_format_refuses)
{
	static const char *const bad[] = {
		/* a field the event lacks, inside __print_flags */
		HEAD("a") DUMP_FIELDS "print fmt: \"%s\", __print_flags(REC->nope, \"|\", "
		"{ 1, \"A\" })\n",
		/* a '*' after the field name */
		HEAD("a") "\tfield:u32 len*;\toffset:8;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"%u\", REC->len\n",
		/* quotes and brackets in an array size */
		HEAD("a") "\tfield:char name[1\"];\toffset:8;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"%s\", REC->name\n",
		HEAD("a") "\tfield:char name[16;\toffset:8;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"%s\", REC->name\n",
		/* non-ASCII bytes */
		HEAD("a") "\tfield:char name[\xce];\toffset:8;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"%s\", REC->name\n",
		/* folded at parse time into a division by zero */
		HEAD("a") DUMP_FIELDS "print fmt: \"%u\", REC->len / 0\n",
		HEAD("a") DUMP_FIELDS "print fmt: \"%u\", x / 1 * 0\n",
		HEAD("a") DUMP_FIELDS "print fmt: \"%u\", REC->len % (a)\n",
		/* unknown operators, a '.' where ',' was */
		HEAD("a") DUMP_FIELDS "print fmt: \"%u %u\", REC->len. REC->len\n",
		HEAD("a") DUMP_FIELDS "print fmt: \"%u\", REC->len = 1\n",
		/* __print_hex of something that is not a field, or of a negative length */
		HEAD("a") DUMP_FIELDS "print fmt: \"%s\", __print_hex(REC0>len, REC->len)\n",
		HEAD("a") DUMP_FIELDS "print fmt: \"%s\", __print_hex(REC->name, -REC->len)\n",
		/* unbalanced, unterminated, cut short, trailing bytes */
		HEAD("a") DUMP_FIELDS "print fmt: \"%u\", (REC->len\n",
		HEAD("a") DUMP_FIELDS "print fmt: \"%u, REC->len\n",
		HEAD("a") DUMP_FIELDS "print fmt: \"%u\", REC->len",
		HEAD("a") DUMP_FIELDS,
		HEAD("a") DUMP_FIELDS "print fmt: \"%u\", REC->len\nname: b\n",
		/* no fields, no name */
		"name: a\nID: 1\nformat:\n\nprint fmt: \"x\"\n",
		"name: \nID: 1\nformat:\n" DUMP_FIELDS "print fmt: \"x\"\n",
		"",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (check(bad[i]) != -EINVAL) {
			fprintf(stderr, "  not refused: bad[%zu]\n", i);
			t->failures++;
		}
	}
}

/* A raw sample of the dump event: len, then buf's location, name, and buf's bytes. */
static size_t dump_raw(uint8_t *raw, uint32_t len, uint16_t buf_len)
{
	uint16_t type = 900;
	uint32_t loc = (uint32_t)buf_len << 16 | 24;

	memset(raw, 0, 64);
	memcpy(raw, &type, 2);
	memcpy(raw + 8, &len, 4);
	memcpy(raw + 12, &loc, 4);
	memcpy(raw + 16, "dev0", 5);
	for (int i = 0; i < buf_len; i++)
		raw[24 + i] = i + 1;
	return 24 + buf_len;
}

TEST(trace_format_print_guards)
{
	static const char format[] = HEAD("dump") DUMP_FIELDS
		"print fmt: \"%s buf=%s\", REC->name, __print_hex(__get_dynamic_array(buf), "
		"REC->len)\n";
	struct ember_trace *tr;
	uint8_t raw[64];
	char buf[256];
	size_t size;
	void *blob = fx_blob_one("test", format, &size);

	tr = ember_trace__parse(blob, size);
	CHECK(tr);
	if (!tr)
		goto out;
	CHECK(ember_trace__snprintf(tr, 0, raw, dump_raw(raw, 4, 4), buf, sizeof(buf)) > 0);
	CHECK_STR(buf, "dev0 buf=01 02 03 04");
	/* a length past the data reads zeroes, not the caller's memory */
	CHECK(ember_trace__snprintf(tr, 0, raw, dump_raw(raw, 200000, 4), buf, sizeof(buf)) > 0);
	/* an absurd one is a corrupt sample */
	CHECK_EQ(ember_trace__snprintf(tr, 0, raw, dump_raw(raw, 1u << 30, 4), buf, sizeof(buf)),
		 -EINVAL);
	ember_trace__delete(tr);
out:
	free(blob);
}

TEST(trace_format_failed_print)
{
	static const char format[] = HEAD("stmt") DUMP_FIELDS
		"print fmt: \"%u\", ({ int x = REC->len; x; })\n";
	struct ember_trace *tr;
	uint8_t raw[64];
	char buf[256];
	size_t size;
	void *blob = fx_blob_one("test", format, &size);

	tr = ember_trace__parse(blob, size);
	CHECK(tr);
	if (!tr)
		goto out;
	CHECK_EQ(ember_trace__event_id(tr, "test", "stmt"), 900);
	CHECK(ember_trace__snprintf(tr, 0, raw, dump_raw(raw, 3, 3), buf, sizeof(buf)) > 0);
	CHECK(!strncmp(buf, "[FAILED TO PARSE]", 17));
	CHECK(strstr(buf, "len=3"));
	ember_trace__delete(tr);
out:
	free(blob);
}
