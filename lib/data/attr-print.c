// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perf_event_attr as perf 6.1 prints it in "# event :" header lines and in
 * -D dumps: ", name = value" for every field that is not zero.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <ember/perf-data.h>

struct bit_name {
	uint64_t bit;
	const char *name;
};

#define B(prefix, n) { prefix##n, #n }

static const struct bit_name sample_type_bits[] = {
	B(PERF_SAMPLE_, IP), B(PERF_SAMPLE_, TID), B(PERF_SAMPLE_, TIME), B(PERF_SAMPLE_, ADDR),
	B(PERF_SAMPLE_, READ), B(PERF_SAMPLE_, CALLCHAIN), B(PERF_SAMPLE_, ID),
	B(PERF_SAMPLE_, CPU), B(PERF_SAMPLE_, PERIOD), B(PERF_SAMPLE_, STREAM_ID),
	B(PERF_SAMPLE_, RAW), B(PERF_SAMPLE_, BRANCH_STACK), B(PERF_SAMPLE_, REGS_USER),
	B(PERF_SAMPLE_, STACK_USER), B(PERF_SAMPLE_, IDENTIFIER), B(PERF_SAMPLE_, REGS_INTR),
	B(PERF_SAMPLE_, DATA_SRC), B(PERF_SAMPLE_, WEIGHT), B(PERF_SAMPLE_, PHYS_ADDR),
	B(PERF_SAMPLE_, AUX), B(PERF_SAMPLE_, CGROUP), B(PERF_SAMPLE_, DATA_PAGE_SIZE),
	B(PERF_SAMPLE_, CODE_PAGE_SIZE), B(PERF_SAMPLE_, WEIGHT_STRUCT),
	{ 0, NULL },
};

static const struct bit_name branch_bits[] = {
	B(PERF_SAMPLE_BRANCH_, USER), B(PERF_SAMPLE_BRANCH_, KERNEL), B(PERF_SAMPLE_BRANCH_, HV),
	B(PERF_SAMPLE_BRANCH_, ANY), B(PERF_SAMPLE_BRANCH_, ANY_CALL),
	B(PERF_SAMPLE_BRANCH_, ANY_RETURN), B(PERF_SAMPLE_BRANCH_, IND_CALL),
	B(PERF_SAMPLE_BRANCH_, ABORT_TX), B(PERF_SAMPLE_BRANCH_, IN_TX),
	B(PERF_SAMPLE_BRANCH_, NO_TX), B(PERF_SAMPLE_BRANCH_, COND),
	B(PERF_SAMPLE_BRANCH_, CALL_STACK), B(PERF_SAMPLE_BRANCH_, IND_JUMP),
	B(PERF_SAMPLE_BRANCH_, CALL), B(PERF_SAMPLE_BRANCH_, NO_FLAGS),
	B(PERF_SAMPLE_BRANCH_, NO_CYCLES), B(PERF_SAMPLE_BRANCH_, TYPE_SAVE),
	B(PERF_SAMPLE_BRANCH_, HW_INDEX), B(PERF_SAMPLE_BRANCH_, PRIV_SAVE),
	{ 0, NULL },
};

static const struct bit_name read_format_bits[] = {
	B(PERF_FORMAT_, TOTAL_TIME_ENABLED), B(PERF_FORMAT_, TOTAL_TIME_RUNNING),
	B(PERF_FORMAT_, ID), B(PERF_FORMAT_, GROUP), B(PERF_FORMAT_, LOST),
	{ 0, NULL },
};

#undef B

static int p_bits(FILE *fp, const char *name, uint64_t v, const struct bit_name *bits)
{
	int n = fprintf(fp, ", %s = ", name);
	bool first = true;

	for (; bits->name; bits++) {
		if (v & bits->bit) {
			n += fprintf(fp, "%s%s", first ? "" : "|", bits->name);
			first = false;
		}
	}
	return n;
}

static int p_u(FILE *fp, const char *name, uint64_t v)
{
	return v ? fprintf(fp, ", %s = %" PRIu64, name, v) : 0;
}

static int p_x(FILE *fp, const char *name, uint64_t v)
{
	return v ? fprintf(fp, ", %s = %#" PRIx64, name, v) : 0;
}

int ember_attr__fprintf(FILE *fp, const struct perf_event_attr *a)
{
	int n = 0;

	n += p_u(fp, "type", a->type);
	n += p_u(fp, "size", a->size);
	n += p_x(fp, "config", a->config);
	n += p_u(fp, "{ sample_period, sample_freq }", a->sample_period);
	if (a->sample_type)
		n += p_bits(fp, "sample_type", a->sample_type, sample_type_bits);
	if (a->read_format)
		n += p_bits(fp, "read_format", a->read_format, read_format_bits);
#define F(f) (n += p_u(fp, #f, a->f))
	F(disabled);
	F(inherit);
	F(pinned);
	F(exclusive);
	F(exclude_user);
	F(exclude_kernel);
	F(exclude_hv);
	F(exclude_idle);
	F(mmap);
	F(comm);
	F(freq);
	F(inherit_stat);
	F(enable_on_exec);
	F(task);
	F(watermark);
	F(precise_ip);
	F(mmap_data);
	F(sample_id_all);
	F(exclude_host);
	F(exclude_guest);
	F(exclude_callchain_kernel);
	F(exclude_callchain_user);
	F(mmap2);
	F(comm_exec);
	F(use_clockid);
	F(context_switch);
	F(write_backward);
	F(namespaces);
	F(ksymbol);
	F(bpf_event);
	F(aux_output);
	F(cgroup);
	F(text_poke);
	F(build_id);
	F(inherit_thread);
	F(remove_on_exec);
	F(sigtrap);
	n += p_u(fp, "{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	F(bp_type);
	n += p_x(fp, "{ bp_addr, config1 }", a->bp_addr);
	n += p_x(fp, "{ bp_len, config2 }", a->bp_len);
	if (a->branch_sample_type)
		n += p_bits(fp, "branch_sample_type", a->branch_sample_type, branch_bits);
	n += p_x(fp, "sample_regs_user", a->sample_regs_user);
	F(sample_stack_user);
	if (a->clockid)
		n += fprintf(fp, ", clockid = %d", a->clockid);
	n += p_x(fp, "sample_regs_intr", a->sample_regs_intr);
	F(aux_watermark);
	F(sample_max_stack);
	F(aux_sample_size);
	F(sig_data);
#undef F
	return n;
}
