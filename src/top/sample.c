// SPDX-License-Identifier: GPL-2.0-only
/*
 * Each sample into its event's histogram, as perf top's
 * deliver_event() and perf_event__process_sample() take them: counted for
 * the header (all, kernel, exact), user or kernel ones dropped with -U/-K,
 * guest and hypervisor ones only counted, resolved on the machine, the
 * idle functions left out, and each added with its callchain (-g).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <ember/perf-data.h>
#include "top/top.h"

/* perf's symbol__is_idle() list: the kernel functions a cpu idles in. */
static bool is_idle(const char *name)
{
	static const char *const idle[] = {
		"acpi_idle_do_entry", "acpi_processor_ffh_cstate_enter", "arch_cpu_idle",
		"cpu_idle", "cpu_startup_entry", "idle_cpu", "intel_idle", "default_idle",
		"native_safe_halt", "enter_idle", "exit_idle", "mwait_idle",
		"mwait_idle_with_hints", "mwait_idle_with_hints.constprop.0", "poll_idle",
		"ppc64_runlatch_off", "pseries_dedicated_idle_sleep", "psw_idle",
		"psw_idle_exit",
	};

	for (size_t i = 0; i < sizeof(idle) / sizeof(idle[0]); i++)
		if (!strcmp(name, idle[i]))
			return true;
	return false;
}

/* The evsel a sample is of: the only one, or the one its IDENTIFIER names. */
static struct ember_evsel *evsel_of(const struct top *t, const struct perf_event_header *hdr)
{
	struct ember_evsel *pos, *first = ember_evlist__next(t->evlist, NULL);
	uint64_t id;

	if (ember_evlist__nr_entries(t->evlist) == 1 || hdr->size < sizeof(*hdr) + 8)
		return first;
	id = *(const uint64_t *)(hdr + 1);
	ember_evlist__for_each(t->evlist, pos)
		for (int c = 0; c < ember_evsel__nr_cpus(pos); c++)
			for (int th = 0; th < ember_evsel__nr_threads(pos); th++)
				if (ember_evsel__id(pos, c, th) == id)
					return pos;
	return NULL;
}

static int frames_reserve(struct top *t, size_t n)
{
	struct ember_hist_frame *f;
	const struct ember_hist_frame **c;

	if (n <= t->frames_alloc)
		return 0;
	f = realloc(t->frames, n * sizeof(*f));
	if (!f)
		return -ENOMEM;
	t->frames = f;
	c = realloc(t->chain, n * sizeof(*c));
	if (!c)
		return -ENOMEM;
	t->chain = c;
	t->frames_alloc = n;
	return 0;
}

/* perf top's kernel is "[kernel]", not the "[kernel.kallsyms]" of a file's MMAP. */
static void frame_from(struct ember_hist_frame *f, const struct ember_addr_location *al)
{
	ember_hist_frame__from_al(f, al);
	if (f->dso_name && !strcmp(f->dso_name, "[kernel.kallsyms]"))
		f->dso_name = f->dso_long_name = "[kernel]";
}

/* The callchain's entries resolved into t->chain (leaf first, markers dropped). */
static int resolve_chain(struct top *t, struct ember_thread *thread, const struct ember_sample *s,
			 uint32_t *nr)
{
	uint8_t cpumode = PERF_RECORD_MISC_USER;
	uint32_t n = 0;

	*nr = 0;
	if (frames_reserve(t, s->callchain_nr + 1))
		return -ENOMEM;
	for (uint64_t i = 0; i < s->callchain_nr; i++) {
		struct ember_addr_location al;
		int r = ember_callchain__context(s->callchain[i], &cpumode);

		if (r < 0)
			return 0;	/* perf discards a chain it cannot read */
		if (r)
			continue;
		ember_thread__resolve(thread, cpumode, s->callchain[i], &al);
		frame_from(&t->frames[1 + n], &al);
		t->chain[n] = &t->frames[1 + n];
		n++;
	}
	*nr = n;
	return 0;
}

int top_samples__add(struct top *t, const struct perf_event_header *hdr)
{
	struct ember_evsel *evsel = evsel_of(t, hdr);
	struct ember_hist_sample hs = { .sz = sizeof(hs) };
	struct ember_addr_location al;
	struct ember_sample s;
	uint32_t nr_chain = 0;

	if (!evsel || ember_sample__parse(&s, hdr, ember_evsel__attr(evsel)))
		return 0;
	t->samples++;
	if (hdr->misc & PERF_RECORD_MISC_EXACT_IP)
		t->exact_samples++;
	switch (s.cpumode) {
	case PERF_RECORD_MISC_USER:
		if (t->o.hide_user)
			return 0;
		break;
	case PERF_RECORD_MISC_KERNEL:
		t->kernel_samples++;
		if (t->o.hide_kernel)
			return 0;
		break;
	default:
		return 0;	/* guests and the hypervisor: counted, not shown */
	}
	if (ember_machine__resolve(t->machine, (pid_t)s.pid, (pid_t)s.tid, s.cpumode, s.ip, &al) ==
	    -ENOMEM)
		return -ENOMEM;
	if (al.sym_name && s.cpumode == PERF_RECORD_MISC_KERNEL && is_idle(al.sym_name))
		return 0;
	if (frames_reserve(t, 1))
		return -ENOMEM;
	if (t->hopts.use_callchain && resolve_chain(t, al.thread, &s, &nr_chain))
		return -ENOMEM;
	frame_from(&t->frames[0], &al);
	hs.self = &t->frames[0];
	hs.chain = t->chain;
	hs.nr_chain = nr_chain;
	hs.period = s.period;
	hs.nr_samples = 1;
	hs.pid = (int32_t)s.pid;
	hs.tid = (int32_t)s.tid;
	hs.cpu = (int32_t)s.cpu;
	hs.comm = al.comm;
	hs.thread = al.thread;
	return ember_hist__add(t->hists[ember_evsel__idx(evsel)], &hs);
}
