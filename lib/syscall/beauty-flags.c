// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perf trace's flag beautifiers. Two shapes: names tested in perf's own
 * order, each clearing its bits, the rest in hex ("ordered"), and names by
 * bit, lowest first (perf's generated strarrays: mmap's prot and flags).
 */
#include <fcntl.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include "syscall/beauty.h"

struct flag_name {
	unsigned long bits;
	const char *name;
};

#define NR(a) (sizeof(a) / sizeof((a)[0]))

/* Names in table order, each when all its bits are set, clearing them from *flags. */
static int print_names(char *buf, size_t size, int n, unsigned long *flags,
		       const struct flag_name *names, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		if ((*flags & names[i].bits) != names[i].bits)
			continue;
		n += scnprintf(buf + n, size - n, "%s%s", n ? "|" : "", names[i].name);
		*flags &= ~names[i].bits;
	}
	return n;
}

/* The same, then what is left in hex. */
static int print_ordered(char *buf, size_t size, int n, unsigned long flags,
			 const struct flag_name *names, size_t nr)
{
	n = print_names(buf, size, n, &flags, names, nr);
	if (flags)
		n += scnprintf(buf + n, size - n, "%s%#lx", n ? "|" : "", flags);
	return n;
}

/* Names by bit, lowest first; a bit without a name in hex. */
static int print_bits(char *buf, size_t size, unsigned long flags, const struct flag_name *names,
		      size_t nr)
{
	int n = 0;

	for (int bit = 0; bit < 64; bit++) {
		unsigned long b = 1UL << bit;
		const char *name = NULL;

		if (!(flags & b))
			continue;
		for (size_t i = 0; i < nr && !name; i++)
			if (names[i].bits == b)
				name = names[i].name;
		if (n)
			n += scnprintf(buf + n, size - n, "|");
		n += name ? scnprintf(buf + n, size - n, "%s", name) :
			    scnprintf(buf + n, size - n, "%#lx", b);
	}
	return n;
}

static const struct flag_name open_flags[] = {
	{ O_RDWR, "RDWR" }, { O_APPEND, "APPEND" }, { O_ASYNC, "ASYNC" },
	{ O_CLOEXEC, "CLOEXEC" }, { O_CREAT, "CREAT" }, { O_DIRECT, "DIRECT" },
	{ O_DIRECTORY, "DIRECTORY" }, { O_EXCL, "EXCL" }, { 0100000, "LARGEFILE" },
	{ O_NOFOLLOW, "NOFOLLOW" }, { 020000000, "TMPFILE" }, { O_NOATIME, "NOATIME" },
	{ O_NOCTTY, "NOCTTY" }, { O_NONBLOCK, "NONBLOCK" }, { O_PATH, "PATH" },
};

static const struct flag_name open_flags_tail[] = {
	{ O_TRUNC, "TRUNC" }, { O_WRONLY, "WRONLY" },
};

int sc_open_flags_str(char *buf, size_t size, unsigned long flags)
{
	int n = 0;

	if ((flags & O_ACCMODE) == O_RDONLY)
		n = scnprintf(buf, size, "RDONLY");
	if (!flags)
		return n;
	n = print_names(buf, size, n, &flags, open_flags, NR(open_flags));
	/* perf names O_SYNC without clearing its bits: they follow in hex */
	if ((flags & O_SYNC) == O_SYNC) {
		n += scnprintf(buf + n, size - n, "%sSYNC", n ? "|" : "");
	} else if (flags & O_DSYNC) {
		n += scnprintf(buf + n, size - n, "%sDSYNC", n ? "|" : "");
		flags &= ~O_DSYNC;
	}
	return print_ordered(buf, size, n, flags, open_flags_tail, NR(open_flags_tail));
}

int sc_open_flags(char *buf, size_t size, struct sc_arg *a)
{
	if (!(a->val & O_CREAT))
		a->mask |= 1u << (a->idx + 1);	/* the mode means nothing then */
	return sc_open_flags_str(buf, size, (int)a->val);
}

int sc_access_mode(char *buf, size_t size, struct sc_arg *a)
{
	int mode = (int)a->val, n = 0;

	if (mode == F_OK)
		return scnprintf(buf, size, "F");
	/* perf writes them side by side: "RW" */
	if (mode & R_OK)
		n += scnprintf(buf + n, size - n, "R");
	if (mode & W_OK)
		n += scnprintf(buf + n, size - n, "W");
	if (mode & X_OK)
		n += scnprintf(buf + n, size - n, "X");
	mode &= ~(R_OK | W_OK | X_OK);
	if (mode)
		n += scnprintf(buf + n, size - n, "|%#x", mode);
	return n;
}

static const struct flag_name mmap_prots[] = {
	{ PROT_READ, "READ" }, { PROT_WRITE, "WRITE" }, { PROT_EXEC, "EXEC" },
	{ 0x8, "SEM" }, { PROT_GROWSDOWN, "GROWSDOWN" }, { PROT_GROWSUP, "GROWSUP" },
};

int sc_mmap_prot(char *buf, size_t size, struct sc_arg *a)
{
	if (!a->val)
		return scnprintf(buf, size, "NONE");
	return print_bits(buf, size, a->val, mmap_prots, NR(mmap_prots));
}

static const struct flag_name mmap_flags[] = {
	{ 0x01, "SHARED" }, { 0x02, "PRIVATE" }, { 0x10, "FIXED" }, { 0x20, "ANONYMOUS" },
	{ 0x40, "32BIT" }, { 0x100, "GROWSDOWN" }, { 0x800, "DENYWRITE" },
	{ 0x1000, "EXECUTABLE" }, { 0x2000, "LOCKED" }, { 0x4000, "NORESERVE" },
	{ 0x8000, "POPULATE" }, { 0x10000, "NONBLOCK" }, { 0x20000, "STACK" },
	{ 0x40000, "HUGETLB" }, { 0x80000, "SYNC" }, { 0x100000, "FIXED_NOREPLACE" },
};

int sc_mmap_flags(char *buf, size_t size, struct sc_arg *a)
{
	if (a->val & MAP_ANONYMOUS)
		a->mask |= (1u << 4) | (1u << 5);	/* fd and offset are ignored */
	return print_bits(buf, size, a->val, mmap_flags, NR(mmap_flags));
}

static const struct flag_name mremap_flags[] = {
	{ 1, "MAYMOVE" }, { 2, "FIXED" }, { 4, "DONTUNMAP" },
};

int sc_mremap_flags(char *buf, size_t size, struct sc_arg *a)
{
	if (!(a->val & 2))
		a->mask |= 1u << 4;	/* new_addr only matters with MREMAP_FIXED */
	return print_bits(buf, size, a->val, mremap_flags, NR(mremap_flags));
}

static const struct flag_name clone_flags[] = {
	{ 0x100, "VM" }, { 0x200, "FS" }, { 0x400, "FILES" }, { 0x800, "SIGHAND" },
	{ 0x1000, "PIDFD" }, { 0x2000, "PTRACE" }, { 0x4000, "VFORK" }, { 0x8000, "PARENT" },
	{ 0x10000, "THREAD" }, { 0x20000, "NEWNS" }, { 0x40000, "SYSVSEM" },
	{ 0x80000, "SETTLS" }, { 0x100000, "PARENT_SETTID" }, { 0x200000, "CHILD_CLEARTID" },
	{ 0x400000, "DETACHED" }, { 0x800000, "UNTRACED" }, { 0x1000000, "CHILD_SETTID" },
	{ 0x2000000, "NEWCGROUP" }, { 0x4000000, "NEWUTS" }, { 0x8000000, "NEWIPC" },
	{ 0x10000000, "NEWUSER" }, { 0x20000000, "NEWPID" }, { 0x40000000, "NEWNET" },
	{ 0x80000000UL, "IO" },
};

int sc_clone_flags(char *buf, size_t size, struct sc_arg *a)
{
	unsigned long flags = a->val;

	if (!(flags & CLONE_PARENT_SETTID))
		a->mask |= 1u << 2;
	if (!(flags & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID)))
		a->mask |= 1u << 3;
	if (!(flags & CLONE_SETTLS))
		a->mask |= 1u << 4;
	return print_ordered(buf, size, 0, flags, clone_flags, NR(clone_flags));
}

/* futex's arguments: uaddr, op, val, utime, uaddr2, val3 */
enum { FA_UADDR2 = 1u << 4, FA_VAL3 = 1u << 5, FA_TIMEOUT = 1u << 3 };

static const struct {
	const char *name;
	unsigned int mask;
} futex_cmds[] = {
	[FUTEX_WAIT] = { "WAIT", FA_VAL3 | FA_UADDR2 },
	[FUTEX_WAKE] = { "WAKE", FA_VAL3 | FA_UADDR2 | FA_TIMEOUT },
	[FUTEX_FD] = { "FD", FA_VAL3 | FA_UADDR2 | FA_TIMEOUT },
	[FUTEX_REQUEUE] = { "REQUEUE", FA_VAL3 | FA_TIMEOUT },
	[FUTEX_CMP_REQUEUE] = { "CMP_REQUEUE", FA_TIMEOUT },
	[FUTEX_WAKE_OP] = { "WAKE_OP", 0 },
	[FUTEX_LOCK_PI] = { "LOCK_PI", FA_VAL3 | FA_UADDR2 | FA_TIMEOUT },
	[FUTEX_UNLOCK_PI] = { "UNLOCK_PI", FA_VAL3 | FA_UADDR2 | FA_TIMEOUT },
	[FUTEX_TRYLOCK_PI] = { "TRYLOCK_PI", FA_VAL3 | FA_UADDR2 },
	[FUTEX_WAIT_BITSET] = { "WAIT_BITSET", FA_UADDR2 },
	[FUTEX_WAKE_BITSET] = { "WAKE_BITSET", FA_UADDR2 },
	[FUTEX_WAIT_REQUEUE_PI] = { "WAIT_REQUEUE_PI", 0 },
	[FUTEX_CMP_REQUEUE_PI] = { "CMP_REQUEUE_PI", FA_TIMEOUT },
};

int sc_futex_op(char *buf, size_t size, struct sc_arg *a)
{
	int op = (int)a->val, cmd = op & FUTEX_CMD_MASK, n;

	if (cmd >= 0 && cmd < (int)NR(futex_cmds) && futex_cmds[cmd].name) {
		n = scnprintf(buf, size, "%s", futex_cmds[cmd].name);
		a->mask |= futex_cmds[cmd].mask;
	} else {
		n = scnprintf(buf, size, "%#x", cmd);
	}
	if (op & FUTEX_PRIVATE_FLAG)
		n += scnprintf(buf + n, size - n, "|PRIVATE_FLAG");
	if (op & FUTEX_CLOCK_REALTIME)
		n += scnprintf(buf + n, size - n, "|CLOCK_REALTIME");
	return n;
}

int sc_futex_val3(char *buf, size_t size, struct sc_arg *a)
{
	unsigned int bitset = (unsigned int)a->val;

	if (bitset == FUTEX_BITSET_MATCH_ANY)
		return scnprintf(buf, size, "MATCH_ANY");
	return scnprintf(buf, size, "%#xd", bitset);	/* sic: perf's "d" */
}

static const struct flag_name waitid_options[] = {
	{ WNOHANG, "NOHANG" }, { WUNTRACED, "UNTRACED" }, { WCONTINUED, "CONTINUED" },
};

int sc_waitid_options(char *buf, size_t size, struct sc_arg *a)
{
	return print_ordered(buf, size, 0, (unsigned int)a->val, waitid_options,
			     NR(waitid_options));
}

static const struct flag_name getrandom_flags[] = {
	{ 0x2, "RANDOM" }, { 0x1, "NONBLOCK" },
};

int sc_getrandom_flags(char *buf, size_t size, struct sc_arg *a)
{
	return print_ordered(buf, size, 0, (unsigned int)a->val, getrandom_flags,
			     NR(getrandom_flags));
}

static const struct flag_name pipe_flags[] = {
	{ O_CLOEXEC, "CLOEXEC" }, { O_NONBLOCK, "NONBLOCK" },
};

int sc_pipe_flags(char *buf, size_t size, struct sc_arg *a)
{
	return print_ordered(buf, size, 0, (unsigned int)a->val, pipe_flags, NR(pipe_flags));
}

static const struct flag_name eventfd_flags[] = {
	{ 1, "SEMAPHORE" }, { O_CLOEXEC, "CLOEXEC" }, { O_NONBLOCK, "NONBLOCK" },
};

int sc_eventfd_flags(char *buf, size_t size, struct sc_arg *a)
{
	if (!a->val)
		return scnprintf(buf, size, "NONE");
	return print_ordered(buf, size, 0, (unsigned int)a->val, eventfd_flags,
			     NR(eventfd_flags));
}

static const struct flag_name flock_ops[] = {
	{ 1, "SH" }, { 2, "EX" }, { 4, "NB" }, { 8, "UN" }, { 32, "MAND" }, { 192, "RW" },
	{ 64, "READ" }, { 128, "WRITE" },
};

int sc_flock(char *buf, size_t size, struct sc_arg *a)
{
	if (!a->val)
		return scnprintf(buf, size, "NONE");
	return print_ordered(buf, size, 0, (unsigned int)a->val, flock_ops, NR(flock_ops));
}

static const struct flag_name msg_flags[] = {
	{ MSG_OOB, "OOB" }, { MSG_PEEK, "PEEK" }, { MSG_DONTROUTE, "DONTROUTE" },
	{ MSG_CTRUNC, "CTRUNC" }, { MSG_PROXY, "PROBE" }, { MSG_TRUNC, "TRUNC" },
	{ MSG_DONTWAIT, "DONTWAIT" }, { MSG_EOR, "EOR" }, { MSG_WAITALL, "WAITALL" },
	{ MSG_FIN, "FIN" }, { MSG_SYN, "SYN" }, { MSG_CONFIRM, "CONFIRM" },
	{ MSG_RST, "RST" }, { MSG_ERRQUEUE, "ERRQUEUE" }, { MSG_NOSIGNAL, "NOSIGNAL" },
	{ MSG_MORE, "MORE" }, { MSG_WAITFORONE, "WAITFORONE" },
	{ MSG_FASTOPEN, "FASTOPEN" }, { MSG_CMSG_CLOEXEC, "CMSG_CLOEXEC" },
};

int sc_msg_flags(char *buf, size_t size, struct sc_arg *a)
{
	if (!a->val)
		return scnprintf(buf, size, "NONE");
	return print_ordered(buf, size, 0, (unsigned int)a->val, msg_flags, NR(msg_flags));
}

static const char *const socket_types[] = {
	[SOCK_STREAM] = "STREAM", [SOCK_DGRAM] = "DGRAM", [SOCK_RAW] = "RAW",
	[SOCK_RDM] = "RDM", [SOCK_SEQPACKET] = "SEQPACKET", [6] = "DCCP",
	[SOCK_PACKET] = "PACKET",
};

static const struct flag_name socket_flags[] = {
	{ SOCK_CLOEXEC, "CLOEXEC" }, { SOCK_NONBLOCK, "NONBLOCK" },
};

int sc_socket_type(char *buf, size_t size, struct sc_arg *a)
{
	int type = (int)a->val, flags = type & ~0xf, n;

	type &= 0xf;
	if (type < (int)NR(socket_types) && socket_types[type])
		n = scnprintf(buf, size, "%s", socket_types[type]);
	else
		n = scnprintf(buf, size, "%#x", type);
	for (size_t i = 0; i < NR(socket_flags); i++) {
		if (flags & socket_flags[i].bits) {
			n += scnprintf(buf + n, size - n, "|%s", socket_flags[i].name);
			flags &= ~socket_flags[i].bits;
		}
	}
	if (flags)
		n += scnprintf(buf + n, size - n, "|%#x", flags);
	return n;
}

static const struct flag_name renameat2_flags[] = {
	{ 1, "NOREPLACE" }, { 2, "EXCHANGE" }, { 4, "WHITEOUT" },
};

int sc_renameat2_flags(char *buf, size_t size, struct sc_arg *a)
{
	return print_bits(buf, size, (unsigned int)a->val, renameat2_flags, NR(renameat2_flags));
}
