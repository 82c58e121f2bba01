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
#include "event/event-names.h"
#include "record/events.h"

/* x86_64's PERF_REGS_MASK: every user register but ds, es, fs, gs. */
#define DWARF_REGS_MASK 0xff0fffULL

static int read_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int v = 2;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return v;
}

/* perf_event_can_profile_kernel(): root, or a paranoid level of 1 or less. */
static bool can_profile_kernel(void)
{
	return geteuid() == 0 || read_paranoid() <= 1;
}

static int set_name(struct ember_evsel *evsel, const char *name)
{
	char *copy = strdup(name);

	if (!copy)
		return -ENOMEM;
	free(evsel->name);
	evsel->name = copy;
	return 0;
}

/* Name an evsel from its attr alone, as perf's evsel__name() does for unnamed evsels. */
static int rename_from_attr(struct ember_evsel *evsel)
{
	char buf[128];

	ember_event_names__attr_name(&evsel->attr, buf, sizeof(buf));
	return set_name(evsel, buf);
}

/*
 * perf's default event: cycles at the highest precise level the PMU takes
 * (precise_max: the open steps precise_ip down), user only when the kernel
 * may not be profiled.
 */
static int add_default(struct ember_evlist *evlist)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.exclude_kernel = !can_profile_kernel(),
	};
	struct ember_evsel *evsel;

	evsel = ember_evlist__add_attr(evlist, &attr, attr.exclude_kernel ? "cycles:u" : "cycles");
	if (!evsel)
		return -ENOMEM;
	evsel->kind = EMBER_EVSEL_HARDWARE;
	evsel->precise_max = true;
	return 0;
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
	struct ember_evsel *evsel;
	char name[64];

	ember_event_names__attr_name(&attr, name, sizeof(name));
	evsel = ember_evlist__add_attr(evlist, &attr, name);
	if (evsel)
		evsel->kind = EMBER_EVSEL_SOFTWARE;
	return evsel;
}

static void config_callchain(const struct record_opts *o, struct perf_event_attr *a)
{
	switch (o->callchain) {
	case RECORD_CALLCHAIN_NONE:
		return;
	case RECORD_CALLCHAIN_FP:
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		return;
	case RECORD_CALLCHAIN_DWARF:
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
				  PERF_SAMPLE_STACK_USER;
		a->sample_regs_user = DWARF_REGS_MASK;
		a->sample_stack_user = o->stack_size ? o->stack_size : RECORD_DWARF_STACK;
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
	struct perf_event_attr *a = &evsel->attr;
	bool track = evsel == rec->tracking;
	/* DWARF unwinding wants data addresses too, as -d. */
	bool sample_addr = o->sample_addr || o->callchain == RECORD_CALLCHAIN_DWARF;

	a->sample_id_all = 1;
	a->inherit = !o->no_inherit;
	a->read_format |= PERF_FORMAT_ID | PERF_FORMAT_LOST;
	a->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	/* perf leaves the time out only of per-thread recordings without inheritance. */
	if (!o->no_inherit || !o->per_thread || o->system_wide || o->cpu_list || o->timestamp)
		a->sample_type |= PERF_SAMPLE_TIME;

	/* A period from the event spec (or a tracepoint's 1) holds unless -F/-c is given. */
	if (!a->sample_period || o->freq_given || o->period_given) {
		if (o->period_given) {
			a->freq = 0;
			a->sample_period = o->period;
		} else {
			a->freq = 1;
			a->sample_freq = o->freq;
			a->sample_type |= PERF_SAMPLE_PERIOD;
		}
	}
	if (o->sample_period)
		a->sample_type |= PERF_SAMPLE_PERIOD;
	if (sample_addr) {
		a->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
		a->mmap_data = track;
	}
	config_callchain(o, a);
	if (rec->opts.system_wide || rec->opts.cpu_list || o->sample_cpu)
		a->sample_type |= PERF_SAMPLE_CPU;
	if (o->raw_samples)
		a->sample_type |= PERF_SAMPLE_TIME | PERF_SAMPLE_RAW | PERF_SAMPLE_CPU;
	if (o->inherit_stat) {
		a->inherit_stat = 1;
		a->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	}

	a->mmap = a->mmap2 = a->comm = a->comm_exec = a->task = track;
	a->ksymbol = track;
	a->bpf_event = track && !o->no_bpf_event;
	a->context_switch = track && o->switch_events;
	a->build_id = track && o->buildid_mmap;

	/* perf's --all-user leaves exclude_hv alone. */
	if (o->all_user)
		a->exclude_kernel = 1;
	else if (o->all_kernel)
		a->exclude_user = 1;

	/*
	 * Leaders start disabled: a command's enable at its exec, a running
	 * target's once synthesis is done; group members follow their leader.
	 * The -a dummy runs from its open to see every mmap.
	 */
	a->disabled = ember_evsel__is_group_leader(evsel);
	a->enable_on_exec = rec->target_none && ember_evsel__is_group_leader(evsel);
	if (track && evsel->attr.type == PERF_TYPE_SOFTWARE &&
	    evsel->attr.config == PERF_COUNT_SW_DUMMY && (o->system_wide || o->cpu_list)) {
		a->disabled = 0;
		a->enable_on_exec = 0;
	}
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
	struct ember_evsel *pos;
	bool identifier = false;

	if (evlist->nr_entries <= 1 && !rec->pipe)
		return;
	ember_evlist__for_each(evlist, pos)
		if (pos->attr.sample_type != evlist->first->attr.sample_type)
			identifier = true;
	ember_evlist__for_each(evlist, pos) {
		if (identifier) {
			pos->attr.sample_type &= ~(uint64_t)PERF_SAMPLE_ID;
			pos->attr.sample_type |= PERF_SAMPLE_IDENTIFIER;
		} else {
			pos->attr.sample_type |= PERF_SAMPLE_ID;
		}
	}
}

int record_events__setup(struct record *rec)
{
	struct record_opts *o = &rec->opts;
	struct ember_evsel *pos;

	if (!o->events_given && add_default(rec->evlist)) {
		record_err("out of memory");
		return 1;
	}
	rec->tracking = rec->evlist->first;
	if (o->system_wide || o->cpu_list) {
		rec->tracking = add_dummy(rec->evlist);
		if (!rec->tracking) {
			record_err("out of memory");
			return 1;
		}
	}
	ember_evlist__for_each(rec->evlist, pos)
		config_evsel(rec, pos);
	config_sample_id(rec);
	return 0;
}

/* perf's "cycles" → "cpu-clock" when the hardware event cannot be opened. */
static bool fallback_cycles(struct record *rec, struct ember_evsel *evsel, int err)
{
	struct perf_event_attr *a = &evsel->attr;

	if (err != -ENOENT && err != -ENXIO && err != -ENODEV && err != -EOPNOTSUPP)
		return false;
	if (a->type != PERF_TYPE_HARDWARE || a->config != PERF_COUNT_HW_CPU_CYCLES)
		return false;
	if (rec->opts.verbose)
		fprintf(stderr, "Warning:\nThe cycles event is not supported, trying to fall back "
			"to cpu-clock-ticks\n");
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	evsel->kind = EMBER_EVSEL_SOFTWARE;
	rename_from_attr(evsel);
	return true;
}

/* perf_event_paranoid > 1 forbids the kernel: record user space only, as perf does. */
static bool fallback_paranoid(struct record *rec, struct ember_evsel *evsel, int err)
{
	struct perf_event_attr *a = &evsel->attr;
	const char *name = ember_evsel__name(evsel);
	char buf[256];
	int paranoid;

	if ((err != -EACCES && err != -EPERM) || a->exclude_kernel || a->exclude_user)
		return false;
	paranoid = read_paranoid();
	if (paranoid <= 1)
		return false;
	if (rec->opts.verbose)
		fprintf(stderr, "Warning:\nkernel.perf_event_paranoid=%d, trying to fall back to "
			"excluding kernel and hypervisor  samples\n", paranoid);
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	snprintf(buf, sizeof(buf), "%s%su", name,
		 strchr(name, ':') || strchr(name, '/') ? "" : ":");
	set_name(evsel, buf);
	return true;
}

bool record_events__fallback(struct record *rec, struct ember_evsel *evsel, int err)
{
	return fallback_cycles(rec, evsel, err) || fallback_paranoid(rec, evsel, err);
}
