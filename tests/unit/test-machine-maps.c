// SPDX-License-Identifier: GPL-2.0-only
/*
 * The machine model on records made up here: maps overlapping and split,
 * threads sharing or copying maps across FORK, COMM and EXIT, cpumodes
 * and callchain context markers.
 */
#include <errno.h>
#include <sys/mman.h>
#include <linux/perf_event.h>
#include <ember/machine.h>
#include "machine/machine.h"
#include "test.h"

#define USER PERF_RECORD_MISC_USER

static struct ember_machine *new_machine(void)
{
	struct ember_symbol_opts opts = {
		.sz = sizeof(opts), .buildid_dir = "", .kallsyms = "",
	};

	return ember_machine__new(&opts);
}

static int mmap2(struct ember_machine *m, pid_t pid, uint64_t start, uint64_t len,
		 uint64_t pgoff, const char *name)
{
	return ember_machine__process_mmap2(m, USER, pid, pid, start, len, pgoff,
					    PROT_READ | PROT_EXEC, MAP_PRIVATE, name, NULL);
}

/* "name@pgoff" of the map holding ip in pid, for compact checks. */
static const char *where(struct ember_machine *m, pid_t pid, uint64_t ip, char *buf, size_t size)
{
	struct ember_addr_location al;

	ember_machine__resolve(m, pid, pid, USER, ip, &al);
	if (!al.map)
		return "none";
	snprintf(buf, size, "%s@%llx+%llx", al.dso_name,
		 (unsigned long long)ember_map__start(al.map), (unsigned long long)al.addr);
	return buf;
}

TEST(machine_mmap_overlap_split)
{
	struct ember_machine *m = new_machine();
	char b[128];

	if (!m)
		SKIP("out of memory");
	CHECK_EQ(mmap2(m, 10, 0x10000, 0x10000, 0, "/a"), 0);
	/* A map inside /a cuts it in three: before, the new one, after (pgoff moved on). */
	CHECK_EQ(mmap2(m, 10, 0x14000, 0x2000, 0x1000, "/b"), 0);
	CHECK_STR(where(m, 10, 0x10000, b, sizeof(b)), "/a@10000+0");
	CHECK_STR(where(m, 10, 0x13fff, b, sizeof(b)), "/a@10000+3fff");
	CHECK_STR(where(m, 10, 0x14000, b, sizeof(b)), "/b@14000+1000");
	CHECK_STR(where(m, 10, 0x15fff, b, sizeof(b)), "/b@14000+2fff");
	CHECK_STR(where(m, 10, 0x16000, b, sizeof(b)), "/a@16000+6000");
	CHECK_STR(where(m, 10, 0x1ffff, b, sizeof(b)), "/a@16000+ffff");
	CHECK_STR(where(m, 10, 0x20000, b, sizeof(b)), "none");
	/* One map over several replaces them all and trims the ends. */
	CHECK_EQ(mmap2(m, 10, 0x12000, 0x6000, 0, "/c"), 0);
	CHECK_STR(where(m, 10, 0x11fff, b, sizeof(b)), "/a@10000+1fff");
	CHECK_STR(where(m, 10, 0x15000, b, sizeof(b)), "/c@12000+3000");
	CHECK_STR(where(m, 10, 0x18000, b, sizeof(b)), "/a@18000+8000");
	CHECK_STR(where(m, 10, 0xffff, b, sizeof(b)), "none");
	ember_machine__delete(m);
}

TEST(machine_threads_share_process_maps)
{
	struct ember_machine *m = new_machine();
	struct ember_addr_location al;
	struct ember_thread *th;

	if (!m)
		SKIP("out of memory");
	mmap2(m, 20, 0x400000, 0x1000, 0, "/bin/x");
	/* Thread 21 of process 20 sees its maps; the map added later by 21 too. */
	CHECK_EQ(ember_machine__resolve(m, 20, 21, USER, 0x400010, &al), 0);
	CHECK(al.map != NULL);
	CHECK_EQ(ember_machine__process_mmap2(m, USER, 20, 21, 0x500000, 0x1000, 0, PROT_EXEC, 0,
					      "/lib/y.so", NULL), 0);
	ember_machine__resolve(m, 20, 20, USER, 0x500000, &al);
	CHECK(al.map && !strcmp(al.dso_name, "/lib/y.so"));
	CHECK_STR(al.dso_short_name, "y.so");
	th = ember_machine__find_thread(m, 20, 21);
	CHECK(th && ember_thread__pid(th) == 20 && ember_thread__tid(th) == 21);
	/* Unnamed threads are ":TID" as in perf. */
	CHECK_STR(th ? ember_thread__comm(th) : NULL, ":21");
	ember_machine__delete(m);
}

TEST(machine_fork_comm_exit)
{
	struct ember_machine *m = new_machine();
	struct ember_addr_location al;
	struct ember_thread *child;
	const char *old_comm;

	if (!m)
		SKIP("out of memory");
	mmap2(m, 30, 0x400000, 0x1000, 0, "/bin/parent");
	CHECK_EQ(ember_machine__process_comm(m, PERF_RECORD_MISC_COMM_EXEC, 30, 30, "parent"), 0);
	/* A new process: comm and maps copied. */
	CHECK_EQ(ember_machine__process_fork(m, 0, 31, 31, 30, 30), 0);
	child = ember_machine__find_thread(m, 31, 31);
	CHECK(child && ember_thread__ppid(child) == 30);
	CHECK_STR(child ? ember_thread__comm(child) : NULL, "parent");
	ember_machine__resolve(m, 31, 31, USER, 0x400000, &al);
	CHECK(al.map && !strcmp(al.dso_name, "/bin/parent"));
	/* ...copied, not shared: the child's exec does not touch the parent. */
	mmap2(m, 31, 0x400000, 0x1000, 0, "/bin/child");
	CHECK_EQ(ember_machine__process_comm(m, PERF_RECORD_MISC_COMM_EXEC, 31, 31, "child"), 0);
	ember_machine__resolve(m, 30, 30, USER, 0x400000, &al);
	CHECK(al.map && !strcmp(al.dso_name, "/bin/parent"));
	CHECK_STR(al.comm, "parent");
	ember_machine__resolve(m, 31, 31, USER, 0x400000, &al);
	CHECK(al.map && !strcmp(al.dso_name, "/bin/child"));
	CHECK_STR(al.comm, "child");
	/* Equal comms are one interned string. */
	old_comm = al.comm;
	ember_machine__process_comm(m, 0, 32, 32, "child");
	ember_machine__resolve(m, 32, 32, USER, 0, &al);
	CHECK(al.comm == old_comm);
	/* A synthesized fork (FORK_EXEC) copies nothing: its mmaps follow. */
	CHECK_EQ(ember_machine__process_fork(m, PERF_RECORD_MISC_FORK_EXEC, 33, 33, 30, 30), 0);
	ember_machine__resolve(m, 33, 33, USER, 0x400000, &al);
	CHECK(al.map == NULL);
	/* A new thread shares the process's maps. */
	CHECK_EQ(ember_machine__process_fork(m, 0, 30, 34, 30, 30), 0);
	mmap2(m, 30, 0x700000, 0x1000, 0, "/lib/late.so");
	ember_machine__resolve(m, 30, 34, USER, 0x700000, &al);
	CHECK(al.map && !strcmp(al.dso_name, "/lib/late.so"));
	/* EXIT keeps the thread (samples may follow), marked. */
	CHECK_EQ(ember_machine__process_exit(m, 31, 31), 0);
	child = ember_machine__find_thread(m, 31, 31);
	CHECK(child && ember_thread__exited(child));
	/* A FORK reusing a tid replaces the old thread; the old pointer stays valid. */
	CHECK_EQ(ember_machine__process_fork(m, 0, 31, 31, 30, 30), 0);
	CHECK(ember_machine__find_thread(m, 31, 31) != child);
	CHECK_STR(ember_thread__comm(child), "child");
	ember_machine__delete(m);
}

TEST(machine_anon_jit_and_special_maps)
{
	struct ember_machine *m = new_machine();
	struct ember_addr_location al;

	if (!m)
		SKIP("out of memory");
	/* Executable anonymous memory: the dso is /tmp/perf-PID.map, identity-mapped. */
	CHECK_EQ(ember_machine__process_mmap2(m, USER, 40, 40, 0x7f0000000000, 0x10000, 0x1234,
					      PROT_READ | PROT_EXEC, MAP_PRIVATE, "//anon", NULL), 0);
	ember_machine__resolve(m, 40, 40, USER, 0x7f0000000100, &al);
	CHECK_STR(al.dso_name, "/tmp/perf-40.map");
	CHECK_STR(al.dso_short_name, "[JIT] tid 40"); /* perf's name for a JIT map */
	CHECK_EQ(al.addr, 0x7f0000000100);
	/* Data-only anonymous memory keeps its name and has no symbols. */
	CHECK_EQ(ember_machine__process_mmap2(m, USER, 40, 40, 0x600000, 0x1000, 0,
					      PROT_READ | PROT_WRITE, MAP_PRIVATE, "[heap]", NULL), 0);
	ember_machine__resolve(m, 40, 40, USER, 0x600010, &al);
	CHECK_STR(al.dso_name, "[heap]");
	CHECK(al.sym == NULL);
	/* MMAP (v1) without MMAP_DATA is executable. */
	CHECK_EQ(ember_machine__process_mmap(m, USER, 41, 41, 0x7e0000000000, 0x1000, 0, "//anon"), 0);
	ember_machine__resolve(m, 41, 41, USER, 0x7e0000000000, &al);
	CHECK_STR(al.dso_name, "/tmp/perf-41.map");
	/* The vdso has pgoff 0 whatever the record says. */
	CHECK_EQ(ember_machine__process_mmap2(m, USER, 40, 40, 0x7ff000000000, 0x2000, 0x5000,
					      PROT_READ | PROT_EXEC, MAP_PRIVATE, "[vdso]", NULL), 0);
	ember_machine__resolve(m, 40, 40, USER, 0x7ff000000010, &al);
	CHECK_STR(al.dso_name, "[vdso]");
	CHECK_EQ(al.addr, 0x10);
	ember_machine__delete(m);
}

TEST(machine_cpumodes)
{
	struct ember_machine *m = new_machine();
	struct ember_addr_location al;

	if (!m)
		SKIP("out of memory");
	mmap2(m, 50, 0x400000, 0x1000, 0, "/bin/x");
	CHECK_EQ(ember_machine__process_mmap(m, PERF_RECORD_MISC_KERNEL, -1, 0,
					     0xffffffff81000000ULL, 0x1000000,
					     0xffffffff81000000ULL, "[kernel.kallsyms]_text"), 0);
	ember_machine__resolve(m, 50, 50, USER, 0x400000, &al);
	CHECK(al.map && al.level == '.');
	ember_machine__resolve(m, 50, 50, PERF_RECORD_MISC_KERNEL, 0xffffffff81000010ULL, &al);
	CHECK(al.map && al.level == 'k');
	CHECK_STR(al.dso_name, "[kernel.kallsyms]");
	CHECK_EQ(al.addr, 0xffffffff81000010ULL);
	/* A user address in kernel mode (and the reverse) finds nothing. */
	ember_machine__resolve(m, 50, 50, PERF_RECORD_MISC_KERNEL, 0x400000, &al);
	CHECK(!al.map && al.level == 'k');
	ember_machine__resolve(m, 50, 50, USER, 0xffffffff81000010ULL, &al);
	CHECK(!al.map);
	/* Unknown cpumode: kernel first, then user. */
	ember_machine__resolve(m, 50, 50, PERF_RECORD_MISC_CPUMODE_UNKNOWN, 0x400000, &al);
	CHECK(al.map && al.level == '.');
	ember_machine__resolve(m, 50, 50, PERF_RECORD_MISC_GUEST_KERNEL, 0xffffffff81000010ULL, &al);
	CHECK(!al.map && al.level == 'H');
	ember_machine__resolve(m, 50, 50, PERF_RECORD_MISC_HYPERVISOR, 0x400000, &al);
	CHECK(!al.map && al.level == 'H');
	ember_machine__delete(m);
}

TEST(machine_ksymbol)
{
	struct ember_machine *m = new_machine();
	struct ember_addr_location al;

	if (!m)
		SKIP("out of memory");
	CHECK_EQ(ember_machine__process_ksymbol(m, 0xffffffffa0001000ULL, 0x80,
						PERF_RECORD_KSYMBOL_TYPE_BPF, 0,
						"bpf_prog_0123456789abcdef_probe"), 0);
	ember_machine__resolve(m, 1, 1, PERF_RECORD_MISC_KERNEL, 0xffffffffa0001010ULL, &al);
	CHECK_STR(al.sym_name, "bpf_prog_0123456789abcdef_probe");
	CHECK_STR(al.dso_name, "bpf_prog_0123456789abcdef_probe");
	CHECK_EQ(al.sym_off, 0x10);
	CHECK_EQ(ember_machine__process_ksymbol(m, 0xffffffffa0001000ULL, 0x80,
						PERF_RECORD_KSYMBOL_TYPE_BPF,
						PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, NULL), 0);
	ember_machine__resolve(m, 1, 1, PERF_RECORD_MISC_KERNEL, 0xffffffffa0001010ULL, &al);
	CHECK(al.map == NULL);
	ember_machine__delete(m);
}

TEST(machine_callchain_context)
{
	uint8_t mode = PERF_RECORD_MISC_USER;

	CHECK_EQ(ember_callchain__context(0x401000, &mode), 0);
	CHECK_EQ(mode, PERF_RECORD_MISC_USER);
	CHECK_EQ(ember_callchain__context(PERF_CONTEXT_KERNEL, &mode), 1);
	CHECK_EQ(mode, PERF_RECORD_MISC_KERNEL);
	CHECK_EQ(ember_callchain__context(0xffffffff81000000ULL, &mode), 0);
	CHECK_EQ(ember_callchain__context(PERF_CONTEXT_USER, &mode), 1);
	CHECK_EQ(mode, PERF_RECORD_MISC_USER);
	CHECK_EQ(ember_callchain__context(PERF_CONTEXT_HV, &mode), 1);
	CHECK_EQ(mode, PERF_RECORD_MISC_HYPERVISOR);
	CHECK_EQ(ember_callchain__context(PERF_CONTEXT_GUEST_KERNEL, &mode), 1);
	CHECK_EQ(mode, PERF_RECORD_MISC_GUEST_KERNEL);
	CHECK_EQ(ember_callchain__context(PERF_CONTEXT_MAX + 1, &mode), -EINVAL);
}

TEST(machine_bad_input)
{
	struct ember_machine *m = new_machine();

	if (!m)
		SKIP("out of memory");
	CHECK_EQ(ember_machine__process_mmap2(m, USER, 1, 1, 0x1000, 0x1000, 0, PROT_EXEC, 0,
					      NULL, NULL), -EINVAL);
	/* Empty and wrapping maps are ignored or harmless. */
	CHECK_EQ(mmap2(m, 1, 0x1000, 0, 0, "/x"), 0);
	CHECK_EQ(ember_machine__process_ksymbol(m, 0x1000, 0, 0, 0, "x"), -EINVAL);
	CHECK_EQ(ember_machine__process_exit(m, 999, 999), 0);
	CHECK_EQ(ember_machine__set_build_id(m, false, "/x", NULL, 0), -EINVAL);
	ember_machine__delete(m);
	ember_machine__delete(NULL);
}
