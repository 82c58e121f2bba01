// SPDX-License-Identifier: GPL-2.0-only
/*
 * The synthesized head of a recording, composed from lib/synth as perf
 * 6.1's record__synthesize() and __cmd_record() write it (checked with
 * `perf report -D` on perf's own files):
 *
 *	ID_INDEX  MMAP [kernel.kallsyms]_text (+modules)  [EVENT_UPDATE...]
 *	THREAD_MAP  CPU_MAP  tasks...  COMM of the command  FINISHED_INIT
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ember/synth.h>
#include "record/output.h"
#include "record/record.h"
#include "record/synth.h"

static int emit(void *ctx, const struct perf_event_header *hdr)
{
	return record_output__write(ctx, hdr, hdr->size);
}

static int synth_init(struct record *rec, struct ember_synth *s)
{
	const struct ember_evsel *first = ember_evlist__next(rec->evlist, NULL);
	struct ember_synth_opts o = {
		.namespaces = rec->opts.sample.namespaces,
		.emit = emit,
		.ctx = &rec->out,
		.sample_id_all = true,
		.sample_type = ember_evsel__attr(first)->sample_type,
		.mmap_data = rec->opts.sample.sample_addr ||
			     rec->opts.sample.callchain == RECORD_CALLCHAIN_DWARF,
		.proc_map_timeout_ms = rec->opts.synth.proc_map_timeout,
	};
	int err = ember_synth__init(s, &o);

	if (err)
		record_err("cannot read /proc: %s", strerror(-err));
	return err;
}

/* An error from a synthesis step: the writer's (reported later) or one to explain now. */
static int synth_error(struct record *rec, const char *what, int err)
{
	if (rec->out.write_err)
		return 1;
	record_err("%s: %s", what, strerror(-err));
	return 1;
}

static int id_index(struct record *rec)
{
	struct ember_synth_id_index_entry *e;
	struct ember_evsel *pos;
	size_t nr = 0, max = 0;
	int err;

	ember_evlist__for_each(rec->evlist, pos)
		max += (size_t)ember_evsel__nr_cpus(pos) * ember_evsel__nr_threads(pos);
	e = calloc(max ? max : 1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	ember_evlist__for_each(rec->evlist, pos) {
		for (int c = 0; c < ember_evsel__nr_cpus(pos); c++) {
			int cpu = ember_cpu_map__cpu(ember_evsel__cpus(pos), c);

			for (int t = 0; t < ember_evsel__nr_threads(pos); t++) {
				pid_t tid = ember_thread_map__pid(ember_evsel__threads(pos), t);

				if (ember_evsel__fd(pos, c, t) < 0)
					continue;
				e[nr].id = ember_evsel__id(pos, c, t);
				/* the ring buffer's index: per cpu, or per thread for cpu -1 */
				e[nr].idx = (uint64_t)(cpu < 0 ? t : c);
				e[nr].cpu = (uint64_t)(int64_t)cpu;
				e[nr].tid = (uint64_t)(int64_t)tid;
				nr++;
			}
		}
	}
	err = ember_synth__id_index(emit, &rec->out, e, nr);
	free(e);
	return err;
}

/* The sample id of an evsel's first open fd. */
static uint64_t first_id(const struct ember_evsel *evsel)
{
	for (int c = 0; c < ember_evsel__nr_cpus(evsel); c++)
		for (int t = 0; t < ember_evsel__nr_threads(evsel); t++)
			if (ember_evsel__fd(evsel, c, t) >= 0)
				return ember_evsel__id(evsel, c, t);
	return 0;
}

/* perf_event__synthesize_event_update_name(): names travel this way in pipe mode. */
static int event_update_names(struct record *rec)
{
	struct ember_evsel *pos;

	ember_evlist__for_each(rec->evlist, pos) {
		const char *name = ember_evsel__name(pos);
		/* header, type, id, then perf's 16-byte union before the name */
		size_t size = (40 + strlen(name) + 1 + 7) & ~(size_t)7;
		struct ember_record_event_update *ev;
		int err;

		if (!ember_evsel__nr_cpus(pos) || size > 0xffff)
			continue;
		ev = calloc(1, size);
		if (!ev)
			return -ENOMEM;
		ev->header.type = EMBER_RECORD_EVENT_UPDATE;
		ev->header.size = (uint16_t)size;
		ev->type = 2;	/* PERF_EVENT_UPDATE__NAME */
		ev->id = first_id(pos);
		memcpy(ev->data, name, strlen(name));
		err = record_output__write(&rec->out, ev, size);
		free(ev);
		if (err)
			return err;
	}
	return 0;
}

static int maps(struct record *rec)
{
	int nr_threads = ember_thread_map__nr(rec->target.threads);
	int nr_cpus = ember_cpu_map__nr(rec->target.cpus);
	pid_t *pids = calloc((size_t)nr_threads + 1, sizeof(*pids));
	int *cpus = calloc((size_t)nr_cpus + 1, sizeof(*cpus));
	int err = -ENOMEM;

	if (!pids || !cpus)
		goto out;
	for (int i = 0; i < nr_threads; i++)
		pids[i] = ember_thread_map__pid(rec->target.threads, i);
	for (int i = 0; i < nr_cpus; i++)
		cpus[i] = ember_cpu_map__cpu(rec->target.cpus, i);
	err = ember_synth__thread_map(emit, &rec->out, pids, NULL, nr_threads);
	if (!err)
		err = ember_synth__cpu_map(emit, &rec->out, cpus, nr_cpus);
out:
	free(pids);
	free(cpus);
	return err;
}

static bool exclude_kernel(const struct ember_evlist *evlist)
{
	struct ember_evsel *pos;

	ember_evlist__for_each(evlist, pos)
		if (!ember_evsel__attr(pos)->exclude_kernel)
			return false;
	return true;
}

static int kernel(struct record *rec, struct ember_synth *s)
{
	int err;

	if (exclude_kernel(rec->evlist))
		return 0;
	err = ember_synth__kernel(s);
	if (err && !rec->out.write_err) {
		/* As perf: warn and go on; kernel samples will not resolve. */
		if (!rec->opts.quiet)
			fprintf(stderr, "Couldn't record kernel reference relocation symbol\n"
				"Symbol resolution may be skewed if relocation was used "
				"(e.g. kexec).\n"
				"Check /proc/kallsyms permission or run as root.\n");
		err = 0;
	}
	return err;
}

static int tasks(struct record *rec, struct ember_synth *s)
{
	const struct record_opts *o = &rec->opts;
	int nr = ember_thread_map__nr(rec->target.threads), err;
	pid_t *tids;

	/* --synth=no (or cgroup alone): the tasks that exist are not described */
	if (!(o->synth.synth & (RECORD_SYNTH_TASK | RECORD_SYNTH_MMAP)))
		return 0;
	if (o->target.system_wide || o->target.cpu_list) {
		err = ember_synth__all_processes(s);
		return err ? synth_error(rec, "cannot read the processes in /proc", err) : 0;
	}
	if (!o->target.pid && !o->target.tid)
		return 0;
	tids = calloc((size_t)nr, sizeof(*tids));
	if (!tids)
		return synth_error(rec, "cannot list the threads", -ENOMEM);
	for (int i = 0; i < nr; i++)
		tids[i] = ember_thread_map__pid(rec->target.threads, i);
	if (rec->target.uid_pids) {
		/* -u: a user's processes come and go; one that vanished or hides its maps is skipped */
		err = 0;
		for (int i = 0; i < nr && !err; i++) {
			err = ember_synth__threads(s, &tids[i], 1);
			if (err == -EACCES || err == -ESRCH)
				err = 0;
		}
		free(tids);
		return err ? synth_error(rec, "cannot describe the user's processes", err) : 0;
	}
	err = ember_synth__threads(s, tids, nr);
	free(tids);
	if (!err || rec->out.write_err)
		return rec->out.write_err ? 1 : 0;
	if (err == -EACCES) {
		record_err("cannot read the memory maps of %s %s (/proc/PID/maps): permission "
			   "denied", o->target.pid ? "process" : "thread",
			   o->target.pid ? o->target.pid : o->target.tid);
		return 1;
	}
	/* described at the end (--tail-synthesize, --overwrite): it may have exited by then */
	if (err == -ESRCH && o->synth.tail_synthesize)
		return 0;
	if (err == -ESRCH) {
		record_err("no such %s: %s", o->target.pid ? "process" : "thread",
			   o->target.pid ? o->target.pid : o->target.tid);
		return 1;
	}
	return synth_error(rec, "cannot describe the target's threads", err);
}

/*
 * The BPF programs loaded now (KSYMBOL and BPF_EVENT records, the header's
 * BPF_PROG_INFO and BPF_BTF), unless --no-bpf-event; perf goes on when it
 * cannot, and so do we.
 */
static int bpf_programs(struct record *rec, struct ember_synth *s)
{
	struct ember_env *env = &rec->out.env;
	int err;

	if (rec->opts.sample.no_bpf_event)
		return 0;
	/* a new file (--switch-output) lists the programs again, from a count of 0 */
	env->bpf_prog_info.size = env->bpf_prog_info.data ? 4 : 0;
	env->bpf_btf.size = env->bpf_btf.data ? 4 : 0;
	memset(env->bpf_prog_info.data, 0, env->bpf_prog_info.size);
	memset(env->bpf_btf.data, 0, env->bpf_btf.size);
	err = ember_synth__bpf_programs(s, &env->bpf_prog_info, &env->bpf_btf);
	if (err && !rec->out.write_err && !rec->opts.quiet) {
		fprintf(stderr, "Warning:\nember record: cannot describe the BPF programs: %s\n",
			strerror(-err));
		err = 0;
	}
	return err;
}

/* --all-cgroups: the cgroups that exist, as perf's perf_event__synthesize_cgroups(). */
static int cgroups(struct record *rec, struct ember_synth *s)
{
	char mount[4096];
	int err;

	if (!rec->opts.sample.all_cgroups || !(rec->opts.synth.synth & RECORD_SYNTH_CGROUP) ||
	    ember_synth__cgroup_mount(mount, sizeof(mount)))
		return 0;
	err = ember_synth__cgroups(s, mount);
	if (err && !rec->out.write_err && !rec->opts.quiet) {
		/* samples keep their cgroup ids; only the names are missing */
		fprintf(stderr, "Warning:\nember record: cannot list the cgroups under %s: %s\n",
			mount, strerror(-err));
		err = 0;
	}
	return err;
}

/* The workload's threads again, for a file --switch-output starts: COMM and MMAP2s. */
static int workload_tasks(struct record *rec, struct ember_synth *s)
{
	pid_t pid = rec->target.wl.pid;
	int err;

	if (!rec->target.target_none || !rec->target.wl_started || rec->target.wl_exited ||
	    !rec->target.wl_prepared)
		return 0;
	err = ember_synth__threads(s, &pid, 1);
	return err == -ESRCH ? 0 : err;
}

static int synthesize(struct record *rec, bool restart)
{
	struct ember_synth s;
	int err, ret = 0;

	if (synth_init(rec, &s))
		return 1;
	err = id_index(rec);
	if (!err)
		err = kernel(rec, &s);
	if (!err && rec->out.pipe)
		err = event_update_names(rec);
	if (!err)
		err = maps(rec);
	if (!err)
		err = bpf_programs(rec, &s);
	if (!err)
		err = cgroups(rec, &s);
	if (err)
		ret = synth_error(rec, "cannot write the synthesized records", err);
	else
		ret = tasks(rec, &s);
	if (!ret && restart) {
		err = workload_tasks(rec, &s);
		if (err)
			ret = synth_error(rec, "cannot describe the command", err);
	}
	ember_synth__exit(&s);
	return ret;
}

int record_synth__start(struct record *rec)
{
	return synthesize(rec, false);
}

int record_synth__restart(struct record *rec)
{
	int ret = rec->opts.synth.tail_synthesize ? 0 : synthesize(rec, true);

	return ret ? ret : record_synth__finished_init(rec);
}

int record_synth__workload_comm(struct record *rec)
{
	struct ember_synth s;
	pid_t ret;

	if (!rec->target.forks)
		return 0;
	if (synth_init(rec, &s))
		return 1;
	ret = ember_synth__comm(&s, rec->target.wl.pid);
	ember_synth__exit(&s);
	if (ret < 0 && ret != -ESRCH)
		return synth_error(rec, "cannot describe the command", ret);
	return 0;
}

int record_synth__workload_tail(struct record *rec)
{
	struct ember_synth s;
	int err;

	rec->target.wl_tail_done = true;
	if (synth_init(rec, &s))
		return 1;
	rec->target.wl_tail_done = true;
	err = workload_tasks(rec, &s);
	ember_synth__exit(&s);
	return err ? synth_error(rec, "cannot describe the command", err) : 0;
}

int record_synth__finished_init(struct record *rec)
{
	int err = ember_synth__finished_init(emit, &rec->out);

	return err ? synth_error(rec, "cannot write", err) : 0;
}
