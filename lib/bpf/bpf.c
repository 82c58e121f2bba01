// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Skeletons loaded and attached through libbpf, and the kernel's refusals explained. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <bpf/libbpf.h>
#include <ember/bpf.h>
#include "core/log.h"
#include "core/scnprintf.h"

#define CAP_PERFMON_BIT	38
#define CAP_BPF_BIT	39
#define CAP_SYS_ADMIN_BIT 21

static int forward(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char line[1024];

	vsnprintf(line, sizeof(line), fmt, ap);
	log__printf(level == LIBBPF_WARN ? EMBER_INFO : EMBER_DEBUG, "%s", line);
	return 0;
}

void ember_bpf__route_log(void)
{
	libbpf_set_print(forward);
}

int ember_bpf__load(struct bpf_object_skeleton *s)
{
	int err;

	ember_bpf__route_log();
	err = bpf_object__load_skeleton(s);
	return err < 0 ? err : err ? -err : 0;
}

int ember_bpf__attach(struct bpf_object_skeleton *s)
{
	int err = bpf_object__attach_skeleton(s);

	return err < 0 ? err : err ? -err : 0;
}

/* The effective capability set, from /proc/self/status; 0 when unreadable. */
static unsigned long long effective_caps(void)
{
	unsigned long long caps = 0;
	char line[256];
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	fclose(f);
	return caps;
}

static bool has_cap(unsigned long long caps, int bit)
{
	return caps & (1ULL << bit);
}

/* A /proc or /sys file's first line, trimmed; "" when unreadable. */
static void read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, size, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

static const char *explain_access(char *buf, size_t size)
{
	unsigned long long caps = effective_caps();
	char lockdown[128];

	read_line("/sys/kernel/security/lockdown", lockdown, sizeof(lockdown));
	if (strstr(lockdown, "[confidentiality]"))
		return bprintf(buf, size, "permission denied: the kernel is locked down "
			   "(lockdown=confidentiality), which forbids BPF programs from reading "
			   "memory; boot without lockdown to trace with BPF");
	if (geteuid() != 0 && !has_cap(caps, CAP_SYS_ADMIN_BIT) &&
	    !(has_cap(caps, CAP_BPF_BIT) && has_cap(caps, CAP_PERFMON_BIT)))
		return bprintf(buf, size, "permission denied: BPF tracing needs root, or CAP_BPF and "
			   "CAP_PERFMON (e.g. 'setcap cap_bpf,cap_perfmon+ep' on ember)");
	return bprintf(buf, size, "permission denied although ember has the privileges BPF needs: "
		   "a seccomp filter, an LSM policy or the locked memory limit (ulimit -l) may "
		   "be what refuses it");
}

/* Whether the running kernel is at least major.minor. */
static bool kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return true;
	return ma > major || (ma == major && mi >= minor);
}

const char *ember_bpf__strerror(int err, char *buf, size_t size)
{
	err = err < 0 ? -err : err;
	if (err == EPERM || err == EACCES)
		return explain_access(buf, size);
	if (err == ENOSYS)
		return bprintf(buf, size, "this kernel has no BPF (it was built without "
			   "CONFIG_BPF_SYSCALL)");
	if (!kernel_at_least(5, 8))
		return bprintf(buf, size, "this kernel is too old for ember's BPF programs (they need "
			   "BPF ring buffers, Linux 5.8 or later): %s", strerror(err));
	if (err == ENOENT)
		return bprintf(buf, size, "a tracepoint the BPF program needs is missing (is tracefs "
			   "mounted, and the kernel built with CONFIG_FTRACE_SYSCALLS?)");
	if (err == ENOMEM || err == E2BIG)
		return bprintf(buf, size, "the kernel could not allocate the BPF maps (%s); raise the "
			   "locked memory limit (ulimit -l) or use a smaller buffer",
			   strerror(err));
	if (err == EINVAL || err == ENOTSUP || err == EOPNOTSUPP)
		return bprintf(buf, size, "the kernel refused the BPF program (%s): it may lack "
			   "CONFIG_BPF_EVENTS; -v shows the verifier's words", strerror(err));
	return bprintf(buf, size, "%s", strerror(err));
}
