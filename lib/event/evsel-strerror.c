// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Why an event did not open, in one line a person can act on: the errno
 * read together with the attr, the sysctls that gate perf and the
 * machine's PMUs. The caller prefixes "cannot open event 'NAME': ".
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include "event/evlist.h"
#include "event/evsel.h"

#define SYSCTL_DIR "/proc/sys/kernel/"
#define PMU_DIR	   "/sys/bus/event_source/devices"

/* Read an integer sysctl below /proc/sys/kernel; returns false when unreadable. */
static bool read_sysctl(const char *name, long *val)
{
	char path[128];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), SYSCTL_DIR "%s", name);
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fscanf(f, "%ld", val) == 1;
	fclose(f);
	return ok;
}

/*
 * Whether the machine has a core (cpu) PMU: x86's "cpu", hybrid
 * "cpu_core"/"cpu_atom", or any PMU that lists the cpus it covers (arm).
 * Firecracker and many VMs expose none.
 */
static bool have_core_pmu(void)
{
	static const char *const names[] = { "cpu", "cpu_core", "cpu_atom" };
	struct dirent *d;
	char path[512];
	struct stat st;
	bool found = false;
	DIR *dir;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), PMU_DIR "/%s", names[i]);
		if (stat(path, &st) == 0)
			return true;
	}
	dir = opendir(PMU_DIR);
	if (!dir)
		return false;
	while (!found && (d = readdir(dir)) != NULL) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), PMU_DIR "/%s/cpus", d->d_name);
		found = stat(path, &st) == 0;
	}
	closedir(dir);
	return found;
}

static bool is_hw_event(const struct ember_evsel *evsel)
{
	uint32_t type = evsel->attr.type;

	/* A dynamic type counts only when the parser said it is the core PMU. */
	return type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE || type == PERF_TYPE_RAW ||
	       (type >= PERF_TYPE_MAX && evsel->kind == EVSEL_HARDWARE);
}

static bool is_sampling(const struct perf_event_attr *attr)
{
	return attr->sample_period != 0;	/* sample_freq shares the field */
}

__attribute__((format(printf, 3, 4)))
static const char *say(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return buf;
}

static const char *paranoid_allows(long level)
{
	if (level >= 3)
		return "no perf events at all for unprivileged users";
	if (level == 2)
		return "unprivileged users only user-space profiling of their own processes "
		       "(add ':u' to the event)";
	if (level == 1)
		return "unprivileged users user and kernel profiling of their own processes, "
		       "but not whole cpus (-a, -C)";
	if (level == 0)
		return "unprivileged users cpu-wide profiling, but not raw tracepoint data";
	return "every event to every user";
}

/* The threads the failed open was for (it has let go of its own reference). */
static const struct ember_thread_map *target_threads(const struct ember_evsel *evsel)
{
	if (evsel->threads)
		return evsel->threads;
	if (evsel->own_threads)
		return evsel->own_threads;
	return evsel->evlist ? evsel->evlist->threads : NULL;
}

/* Opened per cpu for every task (pid -1): -a, -C. */
static bool is_cpu_wide(const struct ember_evsel *evsel)
{
	const struct ember_thread_map *threads = target_threads(evsel);

	return threads && ember_thread_map__nr(threads) == 1 &&
	       ember_thread_map__pid(threads, 0) == -1;
}

/* A target thread whose /proc entry belongs to someone else. */
static bool targets_other_user(const struct ember_evsel *evsel)
{
	const struct ember_thread_map *threads = target_threads(evsel);
	char path[64];
	struct stat st;

	for (int i = 0; threads && i < ember_thread_map__nr(threads); i++) {
		pid_t pid = ember_thread_map__pid(threads, i);

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d", (int)pid);
		if (!stat(path, &st) && st.st_uid != geteuid())
			return true;
	}
	return false;
}

static const char *explain_access(const struct ember_evsel *evsel, char *buf, size_t size)
{
	long level;
	const char *root = geteuid() == 0 ?
		" (ember runs as root, so a seccomp filter, an LSM policy or kernel lockdown "
		"may be what refuses it)" : "";

	if (!read_sysctl("perf_event_paranoid", &level))
		return say(buf, size, "permission denied, and kernel.perf_event_paranoid is "
			   "unreadable; run as root or grant ember CAP_PERFMON%s", root);
	/* Say what this open needed, not just what the level allows. */
	if (geteuid() && level > 0 && is_cpu_wide(evsel))
		return say(buf, size,
			   "permission denied: monitoring whole cpus (-a, -C) needs "
			   "kernel.perf_event_paranoid <= 0, and it is %ld; as root run "
			   "'sysctl -w kernel.perf_event_paranoid=0', or grant ember CAP_PERFMON",
			   level);
	if (geteuid() && targets_other_user(evsel))
		return say(buf, size,
			   "permission denied: the process belongs to another user; monitoring it "
			   "needs root or CAP_PERFMON (and ptrace access to it)");
	return say(buf, size,
		   "permission denied: kernel.perf_event_paranoid is %ld, which allows %s; "
		   "as root run 'sysctl -w kernel.perf_event_paranoid=-1' (-1: no limits, "
		   "0: cpu-wide, 1: kernel, 2: user space only), or grant ember CAP_PERFMON%s",
		   level, paranoid_allows(level), root);
}

static const char *explain_unsupported(const struct ember_evsel *evsel, int err, char *buf,
				       size_t size)
{
	const struct perf_event_attr *attr = &evsel->attr;

	if (is_hw_event(evsel) && !have_core_pmu())
		return say(buf, size, "not supported on this machine (no hardware PMU); "
			   "try -e cpu-clock");
	if (attr->type == PERF_TYPE_TRACEPOINT && err == ENOENT)
		return say(buf, size, "no such tracepoint id %llu (was it removed? is tracefs "
			   "mounted at /sys/kernel/tracing?)", (unsigned long long)attr->config);
	if (err == EOPNOTSUPP) {
		if (attr->sample_type & PERF_SAMPLE_BRANCH_STACK)
			return say(buf, size, "branch stack sampling is not supported by this "
				   "PMU; drop -b/-j");
		if (attr->precise_ip)
			return say(buf, size, "precise sampling (precise_ip=%u) is not supported; "
				   "drop the 'p' modifier", attr->precise_ip);
		if (is_sampling(attr))
			return say(buf, size, "this event cannot be sampled (its PMU has no "
				   "sampling interrupt); count it with 'ember stat' instead");
		if (evsel->kind == EVSEL_PMU)
			return say(buf, size, "this PMU counts only whole cpus, not tasks; "
				   "add -a or -C");
		return say(buf, size, "operation not supported for this event");
	}
	if (err == ENODEV)
		return say(buf, size, "no such device: a requested cpu is offline or out of "
			   "range (see /sys/devices/system/cpu/online), or the PMU does not "
			   "cover it");
	if (is_hw_event(evsel))
		return say(buf, size, "not supported by this cpu's PMU (type %u, config %#llx)",
			   attr->type, (unsigned long long)attr->config);
	return say(buf, size, "the kernel does not support this event (type %u, config %#llx)",
		   attr->type, (unsigned long long)attr->config);
}

static const char *explain_files(char *buf, size_t size)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return say(buf, size, "too many open files: ember needs one per event, cpu and "
			   "thread; raise the limit with 'ulimit -n'");
	if (rl.rlim_max == RLIM_INFINITY)
		return say(buf, size, "too many open files: ember needs one per event, cpu and "
			   "thread, and the limit is %llu; raise it with 'ulimit -n' or count "
			   "fewer events or threads", (unsigned long long)rl.rlim_cur);
	return say(buf, size, "too many open files: ember needs one per event, cpu and thread, "
		   "and the limit is %llu (hard limit %llu); raise it with 'ulimit -n' (beyond "
		   "the hard limit only as root) or count fewer events or threads",
		   (unsigned long long)rl.rlim_cur, (unsigned long long)rl.rlim_max);
}

static const char *explain_inval(const struct ember_evsel *evsel, char *buf, size_t size)
{
	const struct perf_event_attr *attr = &evsel->attr;
	long val;

	if (attr->freq && read_sysctl("perf_event_max_sample_rate", &val) &&
	    attr->sample_freq > (unsigned long long)val)
		return say(buf, size, "sample frequency %llu Hz is above "
			   "kernel.perf_event_max_sample_rate (%ld); use -F %ld or lower, or as "
			   "root raise it with 'sysctl -w kernel.perf_event_max_sample_rate=N'",
			   (unsigned long long)attr->sample_freq, val, val);
	if (attr->precise_ip)
		return say(buf, size, "precise sampling level %u (the 'p' modifiers) is not "
			   "supported by this event; drop the 'p' modifier", attr->precise_ip);
	if ((attr->sample_type & PERF_SAMPLE_CALLCHAIN) && attr->sample_max_stack &&
	    read_sysctl("perf_event_max_stack", &val) && attr->sample_max_stack > val)
		return say(buf, size, "callchain depth %u is above kernel.perf_event_max_stack "
			   "(%ld); lower --max-stack", attr->sample_max_stack, val);
	if (attr->use_clockid)
		return say(buf, size, "clock id %d is not supported by this kernel or event; "
			   "drop -k/--clockid", attr->clockid);
	if (attr->inherit && (attr->sample_type & PERF_SAMPLE_READ))
		return say(buf, size, "this kernel refuses PERF_SAMPLE_READ on inherited events; "
			   "try --no-inherit");
	if (attr->aux_output)
		return say(buf, size, "aux_output is not supported by this kernel or PMU");
	if (attr->type == PERF_TYPE_TRACEPOINT)
		return say(buf, size, "invalid tracepoint id %llu",
			   (unsigned long long)attr->config);
	return say(buf, size, "invalid argument: the kernel rejected the event attributes "
		   "(type %u, config %#llx%s); an event that counts only whole cpus needs -a "
		   "or -C, a per-task one a command, -p or -t; -v shows the attr",
		   attr->type, (unsigned long long)attr->config,
		   is_sampling(attr) ? ", sampling" : "");
}

/*
 * Explain why opening evsel failed with err (errno or -errno) in one line
 * without a trailing newline. Writes into buf (size bytes) and returns it.
 */
const char *ember_evsel__strerror_open(const struct ember_evsel *evsel, int err, char *buf,
				       size_t size)
{
	const struct perf_event_attr *attr = &evsel->attr;
	long val;

	if (err < 0)
		err = -err;
	if (!buf || !size)
		return buf;

	switch (err) {
	case EPERM:
	case EACCES:
		return explain_access(evsel, buf, size);
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
	case ENXIO:
		return explain_unsupported(evsel, err, buf, size);
	case ESRCH:
		return say(buf, size, "no such process: the target process or thread has exited "
			   "(or never existed)");
	case EMFILE:
		return explain_files(buf, size);
	case ENFILE:
		return say(buf, size, "the system-wide file table is full (fs.file-max); close "
			   "files or raise it");
	case EINVAL:
		return explain_inval(evsel, buf, size);
	case EBUSY:
		return say(buf, size, "the PMU is busy: another profiler (perf, oprofile, a "
			   "hypervisor, or the NMI watchdog) holds the counters exclusively; stop "
			   "it and retry");
	case E2BIG:
		return say(buf, size, "the kernel's perf_event_attr is older than ember's "
			   "(size %u): an option asked for a feature this kernel lacks",
			   attr->size);
	case ENOSPC:
		if (attr->type == PERF_TYPE_BREAKPOINT)
			return say(buf, size, "no free hardware breakpoint: the debug registers "
				   "are all in use");
		return say(buf, size, "no room on the PMU: too many events in the group, or "
			   "pinned events already take every counter");
	case ENOMEM:
	case EOVERFLOW:
		if (attr->sample_type & PERF_SAMPLE_CALLCHAIN) {
			if (!read_sysctl("perf_event_max_stack", &val))
				val = -1;
			return say(buf, size, "not enough memory for callchains; lower "
				   "kernel.perf_event_max_stack (now %ld) or --max-stack", val);
		}
		return say(buf, size, "the kernel is out of memory for this event (%s)",
			   strerror(err));
	case EBADF:
		return say(buf, size, "bad group leader: the leader's file descriptor is not "
			   "open");
	default:
		return say(buf, size, "%s (errno %d); 'dmesg | grep -i perf' may say more",
			   strerror(err), err);
	}
}
