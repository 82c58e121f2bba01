// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* perf trace's value beautifiers: enums shown by name, fcntl, arch_prctl, madvise, ioctl. */
#include <fcntl.h>
#include <sched.h>
#include <linux/prctl.h>
#include "syscall/beauty.h"

#define NR(a) (sizeof(a) / sizeof((a)[0]))
#define STRARRAY(var, off, ...)						\
	static const char *const var##_names[] = { __VA_ARGS__ };	\
	const struct sc_strarray var = { (off), NR(var##_names), var##_names }

STRARRAY(sc_bpf_cmds, 0, "MAP_CREATE", "MAP_LOOKUP_ELEM", "MAP_UPDATE_ELEM", "MAP_DELETE_ELEM",
	 "MAP_GET_NEXT_KEY", "PROG_LOAD");
STRARRAY(sc_epoll_ctl_ops, 1, "ADD", "DEL", "MOD");
STRARRAY(sc_itimers, 0, "REAL", "VIRTUAL", "PROF");
STRARRAY(sc_keyctl_options, 0, "GET_KEYRING_ID", "JOIN_SESSION_KEYRING", "UPDATE", "REVOKE",
	 "CHOWN", "SETPERM", "DESCRIBE", "CLEAR", "LINK", "UNLINK", "SEARCH", "READ",
	 "INSTANTIATE", "NEGATE", "SET_REQKEY_KEYRING", "SET_TIMEOUT", "ASSUME_AUTHORITY",
	 "GET_SECURITY", "SESSION_TO_PARENT", "REJECT", "INSTANTIATE_IOV", "INVALIDATE",
	 "GET_PERSISTENT");
STRARRAY(sc_whences, 0, "SET", "CUR", "END", "DATA", "HOLE");
STRARRAY(sc_rlimit_resources, 0, "CPU", "FSIZE", "DATA", "STACK", "CORE", "RSS", "NPROC",
	 "NOFILE", "MEMLOCK", "AS", "LOCKS", "SIGPENDING", "MSGQUEUE", "NICE", "RTPRIO",
	 "RTTIME");
/* SOL_* by value (setsockopt's level: 0 is shown, "IP") */
STRARRAY(sc_socket_levels, 0, "IP", "SOCKET", [6] = "TCP", [17] = "UDP", [41] = "IPV6",
	 [58] = "ICMPV6", [132] = "SCTP", [136] = "UDPLITE", [255] = "RAW", "IPX", "AX25",
	 "ATALK", "NETROM", "ROSE", "DECNET", "X25", "PACKET", "ATM", "AAL", "IRDA", "NETBEUI",
	 "LLC", "DCCP", "NETLINK", "TIPC", "RXRPC", "PPPOL2TP", "BLUETOOTH", "PNPIPE", "RDS",
	 "IUCV", "CAIF", "ALG", "NFC", "KCM", "TLS", "XDP", "MPTCP", "MCTP", "SMC");
STRARRAY(sc_sighow, 0, "BLOCK", "UNBLOCK", "SETMASK");
STRARRAY(sc_clockids, 0, "REALTIME", "MONOTONIC", "PROCESS_CPUTIME_ID", "THREAD_CPUTIME_ID",
	 "MONOTONIC_RAW", "REALTIME_COARSE", "MONOTONIC_COARSE", "BOOTTIME", "REALTIME_ALARM",
	 "BOOTTIME_ALARM", "SGI_CYCLE", "TAI");
/* AF_ names by value; 1 is LOCAL, the name perf's generated table keeps */
STRARRAY(sc_socket_families, 0, "UNSPEC", "LOCAL", "INET", "AX25", "IPX", "APPLETALK",
	 "NETROM", "BRIDGE", "ATMPVC", "X25", "INET6", "ROSE", "DECnet", "NETBEUI", "SECURITY",
	 "KEY", "NETLINK", "PACKET", "ASH", "ECONET", "ATMSVC", "RDS", "SNA", "IRDA", "PPPOX",
	 "WANPIPE", "LLC", "IB", "MPLS", "CAN", "TIPC", "BLUETOOTH", "IUCV", "RXRPC", "ISDN",
	 "PHONET", "IEEE802154", "CAIF", "ALG", "NFC", "VSOCK", "KCM", "QIPCRTR", "SMC", "XDP",
	 "MCTP");

STRARRAY(fcntl_cmds, 0, "DUPFD", "GETFD", "SETFD", "GETFL", "SETFL", "GETLK", "SETLK",
	 "SETLKW", "SETOWN", "GETOWN", "SETSIG", "GETSIG", "GETLK64", "SETLK64", "SETLKW64",
	 "SETOWN_EX", "GETOWN_EX", "GETOWNER_UIDS");
STRARRAY(fcntl_linux_cmds, 1024, "SETLEASE", "GETLEASE", "NOTIFY", [5] = "CANCELLK",
	 "DUPFD_CLOEXEC", "SETPIPE_SZ", "GETPIPE_SZ", "ADD_SEALS", "GET_SEALS", "GET_RW_HINT",
	 "SET_RW_HINT", "GET_FILE_RW_HINT", "SET_FILE_RW_HINT");
const struct sc_strarray *const sc_fcntl_cmds[] = { &fcntl_cmds, &fcntl_linux_cmds, NULL };

int sc_fcntl_cmd(char *buf, size_t size, struct sc_arg *a)
{
	int cmd = (int)a->val;

	if (cmd == F_GETFL || cmd == F_GETFD) {
		*a->ret = cmd == F_GETFL ? SC_RET_OPEN_FLAGS : SC_RET_FD_FLAGS;
		a->mask |= 1u << 2;
	} else if (cmd == F_DUPFD_CLOEXEC || cmd == F_DUPFD) {
		*a->ret = SC_RET_FD;
	} else if (cmd == F_GETOWN || cmd == F_GET_SEALS || cmd == F_GETLEASE || cmd == F_GETSIG) {
		a->mask |= 1u << 2;	/* these ignore the third argument */
	}
	return sc_strarrays(buf, size, a);
}

/*
 * F_GETFD's and F_SETFD's flags as perf 6.1 prints them: inverted ("0" for
 * FD_CLOEXEC set, "CLOEXEC" for none), its bug kept for the same lines.
 */
int sc_fd_flags_str(char *buf, size_t size, unsigned long flags)
{
	return scnprintf(buf, size, "%s", flags ? "0" : "CLOEXEC");
}

int sc_fcntl_arg(char *buf, size_t size, struct sc_arg *a)
{
	int cmd = (int)a->args[1];

	if (cmd == F_SETFD)
		return sc_fd_flags_str(buf, size, a->val);
	if (cmd == F_SETFL)
		return sc_open_flags_str(buf, size, a->val);
	if (cmd == F_SETLK || cmd == F_SETLKW || cmd == F_GETLK || cmd == F_OFD_SETLK ||
	    cmd == F_OFD_SETLKW || cmd == F_OFD_GETLK || cmd == F_GETOWN_EX || cmd == F_SETOWN_EX ||
	    cmd == F_GET_RW_HINT || cmd == F_SET_RW_HINT || cmd == F_GET_FILE_RW_HINT ||
	    cmd == F_SET_FILE_RW_HINT)
		return sc_hex(buf, size, a);
	return sc_long(buf, size, a);
}

STRARRAY(arch_prctl_codes_1, 0x1001, "SET_GS", "SET_FS", "GET_FS", "GET_GS",
	 [0x1011 - 0x1001] = "GET_CPUID", "SET_CPUID",
	 [0x1021 - 0x1001] = "GET_XCOMP_SUPP", "GET_XCOMP_PERM", "REQ_XCOMP_PERM",
	 "GET_XCOMP_GUEST_PERM", "REQ_XCOMP_GUEST_PERM");
STRARRAY(arch_prctl_codes_2, 0x2001, "MAP_VDSO_X32", "MAP_VDSO_32", "MAP_VDSO_64");

int sc_arch_prctl_code(char *buf, size_t size, struct sc_arg *a)
{
	static const struct sc_strarray *const codes[] = { &arch_prctl_codes_1, &arch_prctl_codes_2 };
	int code = (int)a->val;

	for (size_t i = 0; i < NR(codes); i++) {
		int idx = code - codes[i]->offset;

		if (idx >= 0 && idx < codes[i]->nr && codes[i]->names[idx])
			return scnprintf(buf, size, "%s", codes[i]->names[idx]);
	}
	return scnprintf(buf, size, "%#x", code);
}

STRARRAY(madvise_advices, 0, "NORMAL", "RANDOM", "SEQUENTIAL", "WILLNEED", "DONTNEED",
	 [8] = "FREE", "REMOVE", "DONTFORK", "DOFORK", "MERGEABLE", "UNMERGEABLE", "HUGEPAGE",
	 "NOHUGEPAGE", "DONTDUMP", "DODUMP", "WIPEONFORK", "KEEPONFORK", "COLD", "PAGEOUT",
	 "POPULATE_READ", "POPULATE_WRITE", "DONTNEED_LOCKED", "COLLAPSE",
	 [100] = "HWPOISON", "SOFT_OFFLINE");

int sc_madvise_behavior(char *buf, size_t size, struct sc_arg *a)
{
	int behavior = (int)a->val, i = behavior - madvise_advices.offset;

	if (i >= 0 && i < madvise_advices.nr && madvise_advices.names[i])
		return scnprintf(buf, size, "%s", madvise_advices.names[i]);
	return scnprintf(buf, size, "%#x", behavior);
}

/* The tty ioctls ('T'), by number. */
static const char *const tty_ioctls[] = {
	[0x01] = "TCGETS", "TCSETS", "TCSETSW", "TCSETSF", "TCGETA", "TCSETA", "TCSETAW", "TCSETAF",
	"TCSBRK", "TCXONC", "TCFLSH", "TIOCEXCL", "TIOCNXCL", "TIOCSCTTY", "TIOCGPGRP",
	"TIOCSPGRP", "TIOCOUTQ", "TIOCSTI", "TIOCGWINSZ", "TIOCSWINSZ", "TIOCMGET", "TIOCMBIS",
	"TIOCMBIC", "TIOCMSET", "TIOCGSOFTCAR", "TIOCSSOFTCAR", "FIONREAD", "TIOCLINUX",
	"TIOCCONS", "TIOCGSERIAL", "TIOCSSERIAL", "TIOCPKT", "FIONBIO", "TIOCNOTTY", "TIOCSETD",
	"TIOCGETD", "TCSBRKP", [0x27] = "TIOCSBRK", "TIOCCBRK", "TIOCGSID", "TCGETS2", "TCSETS2",
	"TCSETSW2", "TCSETSF2", "TIOCGRS48", "TIOCSRS485", "TIOCGPTN", "TIOCSPTLCK", "TIOCGDEV",
	"TCSETX", "TCSETXF", "TCSETXW", "TIOCSIG", "TIOCVHANGUP", "TIOCGPKT", "TIOCGPTLCK",
	[0x40] = "TIOCGEXCL", "TIOCGPTPEER", [0x50] = "FIONCLEX", "FIOCLEX", "FIOASYNC",
	"TIOCSERCONFIG", "TIOCSERGWILD", "TIOCSERSWILD", "TIOCGLCKTRMIOS", "TIOCSLCKTRMIOS",
	"TIOCSERGSTRUCT", "TIOCSERGETLSR", "TIOCSERGETMULTI", "TIOCSERSETMULTI", "TIOCMIWAIT",
	"TIOCGICOUNT",
};

int sc_ioctl_cmd(char *buf, size_t size, struct sc_arg *a)
{
	unsigned long cmd = a->val;
	unsigned int dir = (cmd >> 30) & 3, type = (cmd >> 8) & 0xff, nr = cmd & 0xff,
		     sz = (cmd >> 16) & 0x3fff;
	int n;

	if (type == 'T') {
		if (nr < NR(tty_ioctls) && tty_ioctls[nr])
			return scnprintf(buf, size, "%s", tty_ioctls[nr]);
		return scnprintf(buf, size, "(%#x, %#x)", 'T', nr);
	}
	n = scnprintf(buf, size, "(");
	if (!dir) {
		n += scnprintf(buf + n, size - n, "NONE");
	} else {
		if (dir & 2)	/* _IOC_READ */
			n += scnprintf(buf + n, size - n, "READ");
		if (dir & 1)	/* _IOC_WRITE */
			n += scnprintf(buf + n, size - n, "%sWRITE", dir & 2 ? "|" : "");
	}
	return n + scnprintf(buf + n, size - n, ", %#x, %#x, %#x)", type, nr, sz);
}

int sc_sched_policy(char *buf, size_t size, struct sc_arg *a)
{
	static const char *const policies[] = {
		"NORMAL", "FIFO", "RR", "BATCH", "ISO", "IDLE", "DEADLINE",
	};
	int policy = (int)a->val, reset = policy & SCHED_RESET_ON_FORK, n;

	policy &= ~SCHED_RESET_ON_FORK;
	if (policy >= 0 && policy < (int)NR(policies))
		n = scnprintf(buf, size, "%s", policies[policy]);
	else
		n = scnprintf(buf, size, "%#x", policy);
	if (reset)
		n += scnprintf(buf + n, size - n, "|RESET_ON_FORK");
	return n;
}

/* prctl's options by number, generated from <linux/prctl.h> (see the Makefile). */
static const char *const prctl_options[] = {
#define PRCTL(nr, name) [nr] = #name,
#include "prctl-table.h"
#undef PRCTL
};

int sc_prctl_option(char *buf, size_t size, struct sc_arg *a)
{
	/* the arguments each option ignores (bit i: argument i), as perf masks them */
	enum { A2 = 1 << 1, A3 = 1 << 2, A4 = 1 << 3, A5 = 1 << 4 };
	static const unsigned char masks[] = {
		[PR_GET_DUMPABLE] = A2 | A3 | A4 | A5, [PR_SET_DUMPABLE] = A3 | A4 | A5,
		[PR_SET_NAME] = A3 | A4 | A5, [PR_GET_CHILD_SUBREAPER] = A3 | A4 | A5,
		[PR_SET_CHILD_SUBREAPER] = A3 | A4 | A5, [PR_GET_SECUREBITS] = A2 | A3 | A4 | A5,
		[PR_SET_SECUREBITS] = A3 | A4 | A5, [PR_SET_MM] = A4 | A5,
		[PR_GET_PDEATHSIG] = A2 | A3 | A4 | A5, [PR_SET_PDEATHSIG] = A3 | A4 | A5,
	};
	unsigned long option = a->val;

	if (option < NR(masks))
		a->mask |= masks[option];
	if (option < NR(prctl_options) && prctl_options[option])
		return scnprintf(buf, size, "%s", prctl_options[option]);
	return scnprintf(buf, size, "%d", (int)option);
}

/* PR_SET_NAME's name is a pointer: hex; otherwise a number. */
int sc_prctl_arg2(char *buf, size_t size, struct sc_arg *a)
{
	if ((int)a->args[0] == PR_SET_NAME)
		return sc_hex(buf, size, a);
	return sc_long(buf, size, a);
}

int sc_prctl_arg3(char *buf, size_t size, struct sc_arg *a)
{
	if ((int)a->args[0] == PR_SET_MM)
		return sc_hex(buf, size, a);
	return sc_long(buf, size, a);
}
