// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * PERF_RECORD_SAMPLE decoding, in the kernel's field order
 * (include/uapi/linux/perf_event.h). Every read is checked against the
 * record's size; pointers into the record are handed out, nothing copied.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include "data/format.h"

#ifndef PERF_SAMPLE_BRANCH_COUNTERS
#define PERF_SAMPLE_BRANCH_COUNTERS (1U << 19)
#endif

struct rd {
	const uint8_t *p, *end;
};

/* Take n bytes; NULL when fewer are left. */
static inline const uint8_t *take(struct rd *r, uint64_t n)
{
	const uint8_t *p = r->p;

	if (n > (uint64_t)(r->end - r->p))
		return NULL;
	r->p += n;
	return p;
}

#define TAKE_U64(r, dst)				\
	do {						\
		const uint8_t *p_ = take(r, 8);		\
		if (!p_)				\
			return -EINVAL;			\
		(dst) = get_u64(p_);			\
	} while (0)

static int parse_read(struct rd *r, struct ember_sample *s, uint64_t rf)
{
	if (rf & PERF_FORMAT_GROUP) {
		uint32_t stride = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
		const uint8_t *p;

		TAKE_U64(r, s->read.group_nr);
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			TAKE_U64(r, s->read.time_enabled);
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			TAKE_U64(r, s->read.time_running);
		if (s->read.group_nr > (uint64_t)(r->end - r->p) / (8 * stride))
			return -EINVAL;
		p = take(r, s->read.group_nr * 8 * stride);
		s->read.group = (const uint64_t *)p;
		s->read.group_stride = stride;
		return 0;
	}
	TAKE_U64(r, s->read.value);
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		TAKE_U64(r, s->read.time_enabled);
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		TAKE_U64(r, s->read.time_running);
	if (rf & PERF_FORMAT_ID)
		TAKE_U64(r, s->read.id);
	if (rf & PERF_FORMAT_LOST)
		TAKE_U64(r, s->read.lost);
	return 0;
}

static int parse_regs(struct rd *r, struct ember_sample_regs *regs, uint64_t mask)
{
	TAKE_U64(r, regs->abi);
	regs->mask = mask;
	if (!regs->abi)
		return 0;
	regs->nr = __builtin_popcountll(mask);
	regs->regs = (const uint64_t *)take(r, (uint64_t)regs->nr * 8);
	return regs->regs || !regs->nr ? 0 : -EINVAL;
}

/* The fields of 8 bytes each that may come before the callchain, in their order. */
#define FIXED_WORDS                                                                        \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |    \
	 PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |     \
	 PERF_SAMPLE_PERIOD)

static inline unsigned int nr_bits(uint64_t x)
{
	/* a popcount without -mpopcnt: libgcc's costs a call */
	x -= (x >> 1) & 0x5555555555555555ULL;
	x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (unsigned int)((x * 0x0101010101010101ULL) >> 56);
}

/* The fixed words of st (FIXED_WORDS, in the kernel's order) from p, which holds them all. */
static inline const uint8_t *fixed_words(struct ember_sample *s, const uint8_t *p, uint64_t st)
{
	if (st & PERF_SAMPLE_IDENTIFIER) {
		s->id = get_u64(p);
		p += 8;
	}
	if (st & PERF_SAMPLE_IP) {
		s->ip = get_u64(p);
		p += 8;
	}
	if (st & PERF_SAMPLE_TID) {
		s->pid = get_u32(p);
		s->tid = get_u32(p + 4);
		p += 8;
	}
	if (st & PERF_SAMPLE_TIME) {
		s->time = get_u64(p);
		p += 8;
	}
	if (st & PERF_SAMPLE_ADDR) {
		s->addr = get_u64(p);
		p += 8;
	}
	if (st & PERF_SAMPLE_ID) {
		s->id = get_u64(p);
		p += 8;
	}
	if (st & PERF_SAMPLE_STREAM_ID) {
		s->stream_id = get_u64(p);
		p += 8;
	}
	if (st & PERF_SAMPLE_CPU) {
		s->cpu = get_u32(p);
		s->cpu_res = get_u32(p + 4);
		p += 8;
	}
	if (st & PERF_SAMPLE_PERIOD) {
		s->period = get_u64(p);
		p += 8;
	}
	return p;
}

/*
 * The common sample (fixed words, then maybe a callchain: perf record's
 * default, with -g, -a, -e ...) with one size check instead of one per
 * field. Anything else, or a record too short, takes the general path
 * (which reports the error). Returns false when it did not decode.
 */
static inline bool parse_fixed(struct ember_sample *s, const struct perf_event_header *rec,
			       uint64_t st)
{
	const uint8_t *p = (const uint8_t *)(rec + 1);
	uint64_t left = rec->size - sizeof(*rec);
	uint64_t need = 8 * ((uint64_t)nr_bits(st & FIXED_WORDS) + !!(st & PERF_SAMPLE_CALLCHAIN));

	if ((st & ~(FIXED_WORDS | PERF_SAMPLE_CALLCHAIN)) || need > left)
		return false;
	p = fixed_words(s, p, st);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		uint64_t nr = get_u64(p);

		p += 8;
		left -= need;
		if (nr > left / 8)
			return false;
		s->callchain_nr = nr;
		s->callchain = (const uint64_t *)p;
	}
	return true;
}

/* The fixed words with one check, then every other field in its turn: any sample, every error. */
static __attribute__((noinline)) int parse_general(struct ember_sample *s,
						   const struct perf_event_header *rec,
						   const struct perf_event_attr *attr)
{
	uint64_t st = attr->sample_type;
	struct rd r;

	r.p = (const uint8_t *)(rec + 1);
	r.end = (const uint8_t *)rec + rec->size;

	{
		const uint8_t *p = take(&r, 8 * (uint64_t)nr_bits(st & FIXED_WORDS));

		if (!p)
			return -EINVAL;
		fixed_words(s, p, st);
	}
	if ((st & PERF_SAMPLE_READ) && parse_read(&r, s, attr->read_format))
		return -EINVAL;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		TAKE_U64(&r, s->callchain_nr);
		if (s->callchain_nr > (uint64_t)(r.end - r.p) / 8)
			return -EINVAL;
		s->callchain = (const uint64_t *)take(&r, s->callchain_nr * 8);
	}
	if (st & PERF_SAMPLE_RAW) {
		const uint8_t *p = take(&r, 4);

		if (!p)
			return -EINVAL;
		s->raw_size = get_u32(p);
		s->raw_data = take(&r, s->raw_size);
		if (!s->raw_data)
			return -EINVAL;
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		TAKE_U64(&r, s->branch_nr);
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			TAKE_U64(&r, s->branch_hw_idx);
		if (s->branch_nr > (uint64_t)(r.end - r.p) / sizeof(struct perf_branch_entry))
			return -EINVAL;
		s->branch = (const struct perf_branch_entry *)take(&r, s->branch_nr *
								    sizeof(struct perf_branch_entry));
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS) {
			s->branch_counters = (const uint64_t *)take(&r, s->branch_nr * 8);
			if (!s->branch_counters && s->branch_nr)
				return -EINVAL;
		}
	}
	if ((st & PERF_SAMPLE_REGS_USER) && parse_regs(&r, &s->user_regs, attr->sample_regs_user))
		return -EINVAL;
	if (st & PERF_SAMPLE_STACK_USER) {
		TAKE_U64(&r, s->user_stack.size);
		/* data points past the size even when it is 0: dump's offset */
		s->user_stack.data = take(&r, s->user_stack.size);
		if (!s->user_stack.data)
			return -EINVAL;
		if (s->user_stack.size) {
			TAKE_U64(&r, s->user_stack.dyn_size);
			if (s->user_stack.dyn_size > s->user_stack.size)
				s->user_stack.dyn_size = s->user_stack.size;
		}
	}
	if (st & PERF_SAMPLE_WEIGHT_STRUCT) {
		const uint8_t *p = take(&r, 8);

		if (!p)
			return -EINVAL;
		s->weight = get_u32(p);
		s->ins_lat = get_u16(p + 4);
		s->p_stage_cyc = get_u16(p + 6);
	} else if (st & PERF_SAMPLE_WEIGHT) {
		TAKE_U64(&r, s->weight);
	}
	if (st & PERF_SAMPLE_DATA_SRC)
		TAKE_U64(&r, s->data_src);
	if (st & PERF_SAMPLE_TRANSACTION)
		TAKE_U64(&r, s->transaction);
	if ((st & PERF_SAMPLE_REGS_INTR) && parse_regs(&r, &s->intr_regs, attr->sample_regs_intr))
		return -EINVAL;
	if (st & PERF_SAMPLE_PHYS_ADDR)
		TAKE_U64(&r, s->phys_addr);
	if (st & PERF_SAMPLE_CGROUP)
		TAKE_U64(&r, s->cgroup);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		TAKE_U64(&r, s->data_page_size);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		TAKE_U64(&r, s->code_page_size);
	if (st & PERF_SAMPLE_AUX) {
		TAKE_U64(&r, s->aux.size);
		s->aux.data = take(&r, s->aux.size);
		if (!s->aux.data)
			return -EINVAL;
	}
	return 0;
}

int ember_sample__parse(struct ember_sample *s, const struct perf_event_header *rec,
			const struct perf_event_attr *attr)
{
	zero_small(s, sizeof(*s));
	s->branch_hw_idx = (uint64_t)-1;
	s->misc = rec->misc;
	s->cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	if (rec->size < sizeof(*rec))
		return -EINVAL;
	if (parse_fixed(s, rec, attr->sample_type))
		return 0;
	return parse_general(s, rec, attr);
}

int ember_sample__parse_id(struct ember_sample *s, const struct perf_event_header *rec,
			   const struct perf_event_attr *attr)
{
	uint64_t st = attr->sample_type;
	const uint8_t *start, *p;

	memset(s, 0, sizeof(*s));
	s->branch_hw_idx = (uint64_t)-1;
	s->misc = rec->misc;
	s->cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	s->pid = s->tid = (uint32_t)-1;
	s->cpu = (uint32_t)-1;
	s->time = (uint64_t)-1;
	if (rec->size < sizeof(*rec))
		return -EINVAL;
	if (!attr->sample_id_all)
		return 0;
	start = (const uint8_t *)(rec + 1);
	p = (const uint8_t *)rec + rec->size;

	/* the trailer is read backwards from the end of the record */
#define BACK(n)						\
	do {						\
		if ((uint64_t)(p - start) < (n))	\
			return -EINVAL;			\
		p -= (n);				\
	} while (0)

	if (st & PERF_SAMPLE_IDENTIFIER) {
		BACK(8);
		s->id = get_u64(p);
	}
	if (st & PERF_SAMPLE_CPU) {
		BACK(8);
		s->cpu = get_u32(p);
		s->cpu_res = get_u32(p + 4);
	}
	if (st & PERF_SAMPLE_STREAM_ID) {
		BACK(8);
		s->stream_id = get_u64(p);
	}
	if (st & PERF_SAMPLE_ID) {
		BACK(8);
		s->id = get_u64(p);
	}
	if (st & PERF_SAMPLE_TIME) {
		BACK(8);
		s->time = get_u64(p);
	}
	if (st & PERF_SAMPLE_TID) {
		BACK(8);
		s->pid = get_u32(p);
		s->tid = get_u32(p + 4);
	}
#undef BACK
	return 0;
}
