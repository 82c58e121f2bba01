// SPDX-License-Identifier: GPL-2.0-only
/* ember_sample__parse / __parse_id on records built here, field by field. */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <ember/perf-data.h>
#include "test.h"

struct rec_builder {
	uint64_t words[512];
	unsigned int n;		/* u64 words after the header */
};

static void put(struct rec_builder *b, uint64_t v)
{
	b->words[1 + b->n++] = v;
}

static void put2(struct rec_builder *b, uint32_t lo, uint32_t hi)
{
	put(b, (uint64_t)hi << 32 | lo);
}

static struct perf_event_header *finish(struct rec_builder *b, uint32_t type, uint16_t misc)
{
	struct perf_event_header *h = (struct perf_event_header *)b->words;

	h->type = type;
	h->misc = misc;
	h->size = 8 + 8 * b->n;
	return h;
}

TEST(data_sample_all_fields)
{
	struct perf_event_attr attr = { .size = sizeof(attr) };
	struct rec_builder b = { .n = 0 };
	struct perf_event_header *h;
	struct ember_sample s;

	attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
			   PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			   PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |
			   PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |
			   PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT_STRUCT |
			   PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR |
			   PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE |
			   PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_AUX;
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST |
			   PERF_FORMAT_TOTAL_TIME_ENABLED;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX;
	attr.sample_regs_user = 0x5;	/* two registers */
	attr.sample_regs_intr = 0x1;

	put(&b, 77);			/* identifier */
	put(&b, 0x401000);		/* ip */
	put2(&b, 100, 101);		/* pid, tid */
	put(&b, 123456789);		/* time */
	put(&b, 0xdead);		/* addr */
	put(&b, 77);			/* id */
	put(&b, 78);			/* stream id */
	put2(&b, 3, 0);			/* cpu */
	put(&b, 1000);			/* period */
	put(&b, 2);			/* read: nr */
	put(&b, 555);			/* time enabled */
	put(&b, 10); put(&b, 77); put(&b, 0);	/* value, id, lost */
	put(&b, 20); put(&b, 79); put(&b, 1);
	put(&b, 3);			/* callchain */
	put(&b, PERF_CONTEXT_USER); put(&b, 0x401000); put(&b, 0x402000);
	put2(&b, 12, 0x64636261);	/* raw: size 12, "abcd"... (u32 size then bytes) */
	put(&b, 0x6867666500000000ULL);	/* rest of raw: 8 more bytes */
	put(&b, 1);			/* branch nr */
	put(&b, 7);			/* hw_idx */
	put(&b, 0x1000); put(&b, 0x2000); put(&b, 0);
	put(&b, PERF_SAMPLE_REGS_ABI_64); put(&b, 11); put(&b, 12);	/* user regs */
	put(&b, 16);			/* stack size */
	put(&b, 0x1111); put(&b, 0x2222);
	put(&b, 8);			/* dyn size */
	put(&b, (uint64_t)3 << 48 | (uint64_t)2 << 32 | 99);	/* weight struct */
	put(&b, 0x42);			/* data src */
	put(&b, 0x43);			/* transaction */
	put(&b, PERF_SAMPLE_REGS_ABI_64); put(&b, 21);	/* intr regs */
	put(&b, 0x7000);		/* phys addr */
	put(&b, 9);			/* cgroup */
	put(&b, 4096);			/* data page size */
	put(&b, 2 << 20);		/* code page size */
	put(&b, 8); put(&b, 0xabcdef);	/* aux */
	h = finish(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);

	CHECK_EQ(ember_sample__parse(&s, h, &attr), 0);
	CHECK_EQ(s.id, 77);
	CHECK_EQ(s.ip, 0x401000);
	CHECK_EQ(s.pid, 100);
	CHECK_EQ(s.tid, 101);
	CHECK_EQ(s.time, 123456789);
	CHECK_EQ(s.addr, 0xdead);
	CHECK_EQ(s.stream_id, 78);
	CHECK_EQ(s.cpu, 3);
	CHECK_EQ(s.period, 1000);
	CHECK_EQ(s.read.group_nr, 2);
	CHECK_EQ(s.read.time_enabled, 555);
	CHECK_EQ(s.read.group_stride, 3);
	CHECK_EQ(s.read.group[3], 20);
	CHECK_EQ(s.read.group[5], 1);
	CHECK_EQ(s.callchain_nr, 3);
	CHECK_EQ(s.callchain[2], 0x402000);
	CHECK_EQ(s.raw_size, 12);
	CHECK(s.raw_data && !memcmp(s.raw_data, "abcd", 4));
	CHECK_EQ(s.branch_nr, 1);
	CHECK_EQ(s.branch_hw_idx, 7);
	CHECK_EQ(s.branch[0].to, 0x2000);
	CHECK_EQ(s.user_regs.nr, 2);
	CHECK_EQ(s.user_regs.regs[1], 12);
	CHECK_EQ(s.user_stack.size, 16);
	CHECK_EQ(s.user_stack.dyn_size, 8);
	CHECK_EQ(s.weight, 99);
	CHECK_EQ(s.ins_lat, 2);
	CHECK_EQ(s.p_stage_cyc, 3);
	CHECK_EQ(s.data_src, 0x42);
	CHECK_EQ(s.transaction, 0x43);
	CHECK_EQ(s.intr_regs.regs[0], 21);
	CHECK_EQ(s.phys_addr, 0x7000);
	CHECK_EQ(s.cgroup, 9);
	CHECK_EQ(s.data_page_size, 4096);
	CHECK_EQ(s.code_page_size, 2 << 20);
	CHECK_EQ(s.aux.size, 8);
	CHECK_EQ(s.cpumode, PERF_RECORD_MISC_USER);

	/* every shorter record is refused, never read past */
	for (uint16_t size = 8; size < h->size; size += 8) {
		uint16_t full = h->size;

		h->size = size;
		CHECK_EQ(ember_sample__parse(&s, h, &attr), -EINVAL);
		h->size = full;
	}
}

TEST(data_sample_huge_counts)
{
	struct perf_event_attr attr = { .size = sizeof(attr) };
	struct rec_builder b = { .n = 0 };
	struct perf_event_header *h;
	struct ember_sample s;

	/* a callchain count that would wrap a size computation */
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	put(&b, 1);
	put(&b, 0x2000000000000001ULL);
	put(&b, 2);
	h = finish(&b, PERF_RECORD_SAMPLE, 0);
	CHECK_EQ(ember_sample__parse(&s, h, &attr), -EINVAL);

	attr.sample_type = PERF_SAMPLE_RAW;
	b.n = 0;
	put2(&b, 0xffffffff, 0);
	h = finish(&b, PERF_RECORD_SAMPLE, 0);
	CHECK_EQ(ember_sample__parse(&s, h, &attr), -EINVAL);

	attr.sample_type = PERF_SAMPLE_READ;
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	b.n = 0;
	put(&b, 0x4000000000000000ULL);
	h = finish(&b, PERF_RECORD_SAMPLE, 0);
	CHECK_EQ(ember_sample__parse(&s, h, &attr), -EINVAL);
}

TEST(data_sample_read_single)
{
	struct perf_event_attr attr = { .size = sizeof(attr) };
	struct rec_builder b = { .n = 0 };
	struct ember_sample s;

	attr.sample_type = PERF_SAMPLE_READ;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
			   PERF_FORMAT_ID | PERF_FORMAT_LOST;
	put(&b, 5); put(&b, 6); put(&b, 7); put(&b, 8); put(&b, 9);
	CHECK_EQ(ember_sample__parse(&s, finish(&b, PERF_RECORD_SAMPLE, 0), &attr), 0);
	CHECK_EQ(s.read.value, 5);
	CHECK_EQ(s.read.time_enabled, 6);
	CHECK_EQ(s.read.time_running, 7);
	CHECK_EQ(s.read.id, 8);
	CHECK_EQ(s.read.lost, 9);
}

TEST(data_sample_id_trailer)
{
	struct perf_event_attr attr = { .size = sizeof(attr) };
	struct rec_builder b = { .n = 0 };
	struct perf_event_header *h;
	struct ember_sample s;

	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			   PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER |
			   PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD;
	attr.sample_id_all = 1;
	/* a COMM: pid, tid, "comm\0\0\0\0", then the trailer */
	put2(&b, 10, 11);
	put(&b, 0x6d6d6f63);
	put2(&b, 10, 11);	/* tid */
	put(&b, 4242);		/* time */
	put(&b, 5);		/* id */
	put(&b, 6);		/* stream id */
	put2(&b, 1, 0);		/* cpu */
	put(&b, 5);		/* identifier */
	h = finish(&b, PERF_RECORD_COMM, 0);
	CHECK_EQ(ember_sample__parse_id(&s, h, &attr), 0);
	CHECK_EQ(s.pid, 10);
	CHECK_EQ(s.tid, 11);
	CHECK_EQ(s.time, 4242);
	CHECK_EQ(s.id, 5);
	CHECK_EQ(s.stream_id, 6);
	CHECK_EQ(s.cpu, 1);

	h->size = 8 + 16;	/* too short for the trailer */
	CHECK_EQ(ember_sample__parse_id(&s, h, &attr), -EINVAL);

	attr.sample_id_all = 0;
	CHECK_EQ(ember_sample__parse_id(&s, h, &attr), 0);
	CHECK_EQ(s.pid, (uint32_t)-1);
}
