// SPDX-License-Identifier: GPL-2.0-only
/*
 * The attrs ember record opens, configured as perf record 6.1 configures
 * them (util/record.c evlist__config and util/evsel.c evsel__config),
 * checked against `perf report --header-only` of perf's own recordings:
 *
 *	perf record -- true	cpu-clock:ppp, IP|TID|TIME|PERIOD, read_format
 *				ID|LOST, disabled, inherit, enable_on_exec, freq
 *				4000, sample_id_all, and on the tracking event
 *				mmap, mmap2, comm, comm_exec, task, ksymbol,
 *				bpf_event
 *	perf record -a		+CPU, a "dummy:HG" tracking event enabled at once,
 *				IDENTIFIER since the two sample types differ
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ember/event.h>
#include "record/events.h"
#include "record/options.h"
#include "record/record.h"
#include "util/default-event.h"
#include "util/sample-rate.h"

#if defined(__x86_64__)
/* x86_64's PERF_REGS_MASK: every user register but ds, es, fs, gs. */
#define DWARF_REGS_MASK 0xff0fffULL
/* perf's DWARF_MINIMAL_REGS: PERF_REG_X86_SP and PERF_REG_X86_IP */
#define DWARF_MINIMAL_REGS ((1ULL << 7) | (1ULL << 8))
#else
/* refused before (record_options__check()): no register layout known here */
#define DWARF_REGS_MASK 0ULL
#define DWARF_MINIMAL_REGS 0ULL
#endif

/* Name an evsel from its attr alone, as perf's evsel__name() does for unnamed evsels. */
static int rename_from_attr(struct ember_evsel *evsel)
{
	char buf[128];

	ember_event_names__attr_name(ember_evsel__attr(evsel), buf, sizeof(buf));
	return ember_evsel__set_name(evsel, buf);
}

/* perf's tracking dummy for -a/-C: mmap and comm records from the first moment. */
static struct ember_evsel *add_dummy(struct ember_evlist *evlist)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_DUMMY,
		.sample_period = 1,
	};
	char name[64];

	ember_event_names__attr_name(&attr, name, sizeof(name));
	return ember_evlist__add_attr(evlist, &attr, name);
}

/*
 * perf's evsel__config_callchain(). A dwarf call graph samples every user
 * register, or with --user-regs (OR-ed in later) only the IP and SP it
 * cannot do without. max_stack: fp,DEPTH or the max-stack term, 0 none.
 */
static void config_callchain(enum record_callchain mode, unsigned int stack_size,
			     unsigned int max_stack, uint64_t user_regs, struct perf_event_attr *a)
{
	if (mode != RECORD_CALLCHAIN_NONE)
		a->sample_max_stack = (uint16_t)(max_stack > 0xffff ? 0xffff : max_stack);
	switch (mode) {
	case RECORD_CALLCHAIN_NONE:
		return;
	case RECORD_CALLCHAIN_FP:
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		return;
	case RECORD_CALLCHAIN_DWARF:
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
				  PERF_SAMPLE_STACK_USER;
		a->sample_regs_user = user_regs ? DWARF_MINIMAL_REGS : DWARF_REGS_MASK;
		a->sample_stack_user = stack_size ? stack_size : RECORD_DWARF_STACK;
		a->exclude_callchain_user = 1;
		return;
	case RECORD_CALLCHAIN_LBR:
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK |
					PERF_SAMPLE_BRANCH_NO_CYCLES |
					PERF_SAMPLE_BRANCH_NO_FLAGS | PERF_SAMPLE_BRANCH_HW_INDEX;
		return;
	}
}

/* One evsel, as evsel__config() does for perf record. */
static void config_evsel(struct record *rec, struct ember_evsel *evsel)
{
	const struct record_opts *o = &rec->opts;
	struct perf_event_attr *a = ember_evsel__attr(evsel);
	bool track = evsel == rec->tracking;
	/* DWARF unwinding wants data addresses too, as -d. */
	bool sample_addr = o->sample.sample_addr || o->sample.callchain == RECORD_CALLCHAIN_DWARF;

	a->sample_id_all = 1;
	a->inherit = !o->target.no_inherit;
	a->read_format |= PERF_FORMAT_ID | PERF_FORMAT_LOST;
	a->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	/* perf leaves the time out only of per-thread recordings without inheritance. */
	if (!o->target.no_inherit || !o->target.per_thread || o->target.system_wide ||
	    o->target.cpu_list || o->sample.timestamp)
		a->sample_type |= PERF_SAMPLE_TIME;

	sample_rate__config(a, o->sample.period_given, o->sample.period, o->sample.freq_given,
			    o->sample.freq);
	if (o->sample.sample_period)
		a->sample_type |= PERF_SAMPLE_PERIOD;
	if (sample_addr) {
		a->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
		a->mmap_data = track;
	}
	config_callchain(o->sample.callchain, o->sample.stack_size, o->sample.max_stack,
			 o->sample.user_regs, a);
	if (rec->opts.target.system_wide || rec->opts.target.cpu_list || o->sample.sample_cpu)
		a->sample_type |= PERF_SAMPLE_CPU;
	if (o->sample.raw_samples)
		a->sample_type |= PERF_SAMPLE_TIME | PERF_SAMPLE_RAW | PERF_SAMPLE_CPU;
	if (o->sample.inherit_stat) {
		a->inherit_stat = 1;
		a->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	}

	a->mmap = a->mmap2 = a->comm = a->comm_exec = a->task = track;
	a->ksymbol = track;
	a->bpf_event = track && !o->sample.no_bpf_event;
	a->context_switch = track && o->sample.switch_events;
	a->build_id = track && o->sample.buildid_mmap;
	a->namespaces = track && o->sample.namespaces;
	a->cgroup = track && o->sample.all_cgroups;

	if (o->sample.branch_stack) {
		a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = o->sample.branch_stack;
	}
	if (o->sample.user_regs) {
		a->sample_type |= PERF_SAMPLE_REGS_USER;
		a->sample_regs_user |= o->sample.user_regs;
	}
	if (o->sample.intr_regs) {
		a->sample_type |= PERF_SAMPLE_REGS_INTR;
		a->sample_regs_intr = o->sample.intr_regs;
	}
	if (o->sample.phys_addr)
		a->sample_type |= PERF_SAMPLE_PHYS_ADDR;
	if (o->sample.data_page_size)
		a->sample_type |= PERF_SAMPLE_DATA_PAGE_SIZE;
	if (o->sample.code_page_size)
		a->sample_type |= PERF_SAMPLE_CODE_PAGE_SIZE;
	/* x86's arch_evsel__set_sample_weight(): the struct form */
	if (o->sample.sample_weight)
		a->sample_type |= PERF_SAMPLE_WEIGHT_STRUCT;
	if (o->sample.all_cgroups)
		a->sample_type |= PERF_SAMPLE_CGROUP;
	if (o->sample.running_time)
		a->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (o->sample.no_samples)
		a->sample_period = 0;	/* and sample_freq: one union */
	if (o->sample.no_buffering) {
		a->watermark = 0;
		a->wakeup_events = 1;
	}
	if (a->sample_type & PERF_SAMPLE_CALLCHAIN) {
		if (o->sample.kernel_callchains && !o->sample.user_callchains)
			a->exclude_callchain_user = 1;
		if (o->sample.user_callchains && !o->sample.kernel_callchains)
			a->exclude_callchain_kernel = 1;
	}
	if (o->sample.use_clockid) {
		a->use_clockid = 1;
		a->clockid = o->sample.clockid;
	}
	if (o->loop.overwrite)
		a->write_backward = 1;

	/* perf's --all-user leaves exclude_hv alone. */
	if (o->sample.all_user)
		a->exclude_kernel = 1;
	else if (o->sample.all_kernel)
		a->exclude_user = 1;

	/*
	 * Leaders start disabled: a command's enable at its exec, a running
	 * target's once synthesis is done; group members follow their leader.
	 * The -a dummy runs from its open to see every mmap.
	 */
	a->disabled = ember_evsel__is_group_leader(evsel);
	a->enable_on_exec = rec->target.target_none && ember_evsel__is_group_leader(evsel) &&
			    (!o->loop.delay_ms || track);
	if (track && a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_DUMMY &&
	    (o->target.system_wide || o->target.cpu_list)) {
		a->disabled = 0;
		a->enable_on_exec = 0;
	}
}

/* perf's evsel__reset_callgraph(): undo the global call graph mode on one evsel. */
static void reset_callchain(enum record_callchain mode, struct perf_event_attr *a)
{
	a->sample_type &= ~(uint64_t)PERF_SAMPLE_CALLCHAIN;
	if (mode == RECORD_CALLCHAIN_LBR) {
		a->sample_type &= ~(uint64_t)PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type &= ~(uint64_t)(PERF_SAMPLE_BRANCH_USER |
						     PERF_SAMPLE_BRANCH_CALL_STACK |
						     PERF_SAMPLE_BRANCH_HW_INDEX);
	}
	if (mode == RECORD_CALLCHAIN_DWARF)
		a->sample_type &= ~(uint64_t)(PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER);
}

/*
 * The event's own terms over the command line's, as perf's
 * evsel__apply_config_terms(): "cpu-clock/period=1000,call-graph=dwarf/"
 * keeps its period under -F and its own call graph under -g.
 */
static int apply_terms(struct record *rec, struct ember_evsel *evsel)
{
	const struct ember_evsel_terms *t = ember_evsel__terms(evsel);
	struct perf_event_attr *a = ember_evsel__attr(evsel);
	enum record_callchain mode = RECORD_CALLCHAIN_NONE;
	const char *cg = NULL;
	unsigned int depth;

	if (!t)
		return 0;
	if (t->set & EMBER_TERM_PERIOD) {
		a->sample_period = t->period;
		a->freq = 0;
		a->sample_type &= ~(uint64_t)PERF_SAMPLE_PERIOD;
	}
	if (t->set & EMBER_TERM_FREQ) {
		a->sample_freq = t->freq;
		a->freq = 1;
		a->sample_type |= PERF_SAMPLE_PERIOD;
	}
	if (t->set & EMBER_TERM_TIME) {
		if (t->time)
			a->sample_type |= PERF_SAMPLE_TIME;
		else
			a->sample_type &= ~(uint64_t)PERF_SAMPLE_TIME;
	}
	if (t->set & EMBER_TERM_BRANCH_TYPE) {
		if (strcmp(t->branch_type, "no")) {
			uint64_t mask;

			if (record_options__parse_branch(t->branch_type, &mask))
				return 2;
			a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
			a->branch_sample_type = mask;
		} else {
			a->sample_type &= ~(uint64_t)PERF_SAMPLE_BRANCH_STACK;
		}
	}
	if (t->set & EMBER_TERM_INHERIT)
		a->inherit = t->inherit;
	if (t->set & EMBER_TERM_OVERWRITE)
		a->write_backward = t->overwrite;
	if (t->set & EMBER_TERM_AUX_OUTPUT)
		a->aux_output = t->aux_output;
	if (t->set & EMBER_TERM_AUX_SAMPLE_SIZE) {
		record_err("%s: aux-sample-size samples an AUX area event (Intel PT, CoreSight) "
			   "in the group; this machine has no AUX area PMU",
			   ember_evsel__name(evsel));
		return 1;
	}

	if (!(t->set & (EMBER_TERM_CALLGRAPH | EMBER_TERM_MAX_STACK)) &&
	    !((t->set & EMBER_TERM_STACK_SIZE) && t->stack_size))
		return 0;
	if (t->set & EMBER_TERM_CALLGRAPH)
		cg = t->callgraph;
	else if ((t->set & EMBER_TERM_MAX_STACK) && t->max_stack)
		cg = "fp";
	/* as perf: the max-stack term, unless call-graph=fp,DEPTH says otherwise */
	depth = (t->set & EMBER_TERM_MAX_STACK) ? t->max_stack : 0;
	if (cg && strcmp(cg, "no"))
		record_options__parse_callchain(cg, &mode, &(unsigned int){ 0 }, &depth);
	if (rec->opts.sample.callchain != RECORD_CALLCHAIN_NONE)
		reset_callchain(rec->opts.sample.callchain, a);
	if (mode == RECORD_CALLCHAIN_NONE)
		return 0;
	if (mode == RECORD_CALLCHAIN_DWARF) {
		a->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
		a->mmap_data = evsel == rec->tracking;
	}
	config_callchain(mode, (t->set & EMBER_TERM_STACK_SIZE) ? (t->stack_size + 7) & ~7u : 0,
			 depth, rec->opts.sample.user_regs, a);
	return 0;
}

/*
 * Several events in the same ring buffers need the sample id to tell
 * whose a record is: ID when their layouts agree, else IDENTIFIER (first
 * in every record) — perf's evlist__config(). Pipe output needs it even
 * for one event, for its EVENT_UPDATE records.
 */
static void config_sample_id(struct record *rec)
{
	struct ember_evlist *evlist = rec->evlist;
	uint64_t first = ember_evsel__attr(ember_evlist__next(evlist, NULL))->sample_type;
	struct ember_evsel *pos;
	bool identifier = false;

	if (ember_evlist__nr_entries(evlist) <= 1 && !rec->out.pipe &&
	    !rec->opts.sample.sample_identifier)
		return;
	ember_evlist__for_each(evlist, pos)
		if (ember_evsel__attr(pos)->sample_type != first ||
		    rec->opts.sample.sample_identifier)
			identifier = true;
	ember_evlist__for_each(evlist, pos) {
		struct perf_event_attr *a = ember_evsel__attr(pos);

		if (identifier) {
			a->sample_type &= ~(uint64_t)PERF_SAMPLE_ID;
			a->sample_type |= PERF_SAMPLE_IDENTIFIER;
		} else {
			a->sample_type |= PERF_SAMPLE_ID;
		}
	}
}

int record_events__setup(struct record *rec)
{
	struct record_opts *o = &rec->opts;
	struct ember_evsel *pos;

	if (!o->events_given && default_event__add(rec->evlist)) {
		record_err("out of memory");
		return 1;
	}
	/* --group: every event in one group, led by the first */
	if (o->sample.group && ember_evlist__nr_entries(rec->evlist) > 1 &&
	    !ember_evlist__nr_groups(rec->evlist))
		ember_evlist__make_group(rec->evlist, ember_evlist__next(rec->evlist, NULL));
	rec->tracking = ember_evlist__next(rec->evlist, NULL);
	/*
	 * As perf: a dummy tracks mmaps and tasks from the start for -a/-C, and
	 * from the exec for -D, while the sampling events wait.
	 */
	if (o->target.system_wide || o->target.cpu_list ||
	    (o->loop.delay_ms && rec->target.target_none)) {
		rec->tracking = add_dummy(rec->evlist);
		if (!rec->tracking) {
			record_err("out of memory");
			return 1;
		}
	}
	ember_evlist__for_each(rec->evlist, pos) {
		int err;

		config_evsel(rec, pos);
		err = apply_terms(rec, pos);
		if (err)
			return err;
	}
	config_sample_id(rec);
	return 0;
}

/* perf's "cycles" → "cpu-clock" when the hardware event cannot be opened. */
static bool fallback_cycles(struct record *rec, struct ember_evsel *evsel, int err)
{
	struct perf_event_attr *a = ember_evsel__attr(evsel);

	if (err != -ENOENT && err != -ENXIO && err != -ENODEV && err != -EOPNOTSUPP)
		return false;
	if (a->type != PERF_TYPE_HARDWARE || a->config != PERF_COUNT_HW_CPU_CYCLES)
		return false;
	if (rec->opts.verbose)
		fprintf(stderr, "Warning:\nThe cycles event is not supported, trying to fall back "
			"to cpu-clock-ticks\n");
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	rename_from_attr(evsel);
	return true;
}

/* perf_event_paranoid > 1 forbids the kernel: record user space only, as perf does. */
static bool fallback_paranoid(struct record *rec, struct ember_evsel *evsel, int err)
{
	struct perf_event_attr *a = ember_evsel__attr(evsel);
	int paranoid;

	if ((err != -EACCES && err != -EPERM) || a->exclude_kernel || a->exclude_user)
		return false;
	paranoid = ember_event__paranoid();
	if (paranoid <= 1)
		return false;
	if (rec->opts.verbose)
		fprintf(stderr, "Warning:\nkernel.perf_event_paranoid=%d, trying to fall back to "
			"excluding kernel and hypervisor  samples\n", paranoid);
	return ember_evsel__exclude_kernel(evsel) == 0;
}

bool record_events__fallback(struct record *rec, struct ember_evsel *evsel, int err)
{
	return fallback_cycles(rec, evsel, err) || fallback_paranoid(rec, evsel, err);
}
