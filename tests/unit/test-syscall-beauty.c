// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/syscall's text for arguments and returns, as perf trace 6.1 writes
 * it (each expected string is a line perf printed here), on a scratch
 * tracefs holding the kernel's formats of the syscalls used.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ember/syscall.h>
#include "test.h"
#include "test-util.h"
#include "syscall/fmt.h"

static const char *fake_fd_path(void *ctx, pid_t pid, int fd)
{
	return fd == 3 ? "/etc/hostname" : NULL;
}

static const char *fake_comm(void *ctx, pid_t pid)
{
	return pid == 42 ? "child" : NULL;
}

static const char *fake_ret_comm(void *ctx, pid_t pid, pid_t caller)
{
	return pid == 42 ? "child" : NULL;
}

static const struct ember_syscall_env env = {
	.pid = 7, .tid = 7, .fd_path = fake_fd_path, .comm = fake_comm,
	.ret_comm = fake_ret_comm,
};

/* The formats of the syscalls below, as this kernel's tracefs lists them. */
static char *fixture(void)
{
	char *root = test_tracefs__new();

	if (!root)
		return NULL;
	if (test_tracefs__syscall(root, "openat", "int dfd", "const char * filename", "int flags",
				  "umode_t mode", NULL) ||
	    test_tracefs__syscall(root, "mmap", "unsigned long addr", "unsigned long len",
				  "unsigned long prot", "unsigned long flags", "unsigned long fd",
				  "unsigned long off", NULL) ||
	    test_tracefs__syscall(root, "close", "unsigned int fd", NULL) ||
	    test_tracefs__syscall(root, "read", "unsigned int fd", "char * buf", "size_t count",
				  NULL) ||
	    test_tracefs__syscall(root, "access", "const char * filename", "int mode", NULL) ||
	    test_tracefs__syscall(root, "rt_sigaction", "int sig",
				  "const struct sigaction * act", "struct sigaction * oact",
				  "size_t sigsetsize", NULL) ||
	    test_tracefs__syscall(root, "rt_sigprocmask", "int how", "sigset_t * nset",
				  "sigset_t * oset", "size_t sigsetsize", NULL) ||
	    test_tracefs__syscall(root, "fcntl", "unsigned int fd", "unsigned int cmd",
				  "unsigned long arg", NULL) ||
	    test_tracefs__syscall(root, "clone", "unsigned long clone_flags", "unsigned long newsp",
				  "int * parent_tidptr", "int * child_tidptr", "unsigned long tls",
				  NULL) ||
	    test_tracefs__syscall(root, "futex", "u32 * uaddr", "int op", "u32 val",
				  "const struct __kernel_timespec * utime", "u32 * uaddr2",
				  "u32 val3", NULL) ||
	    test_tracefs__syscall(root, "arch_prctl", "int option", "unsigned long arg2", NULL) ||
	    test_tracefs__syscall(root, "prlimit64", "pid_t pid", "unsigned int resource",
				  "const struct rlimit64 * new_rlim", "struct rlimit64 * old_rlim",
				  NULL) ||
	    test_tracefs__syscall(root, "ioctl", "unsigned int fd", "unsigned int cmd",
				  "unsigned long arg", NULL) ||
	    test_tracefs__syscall(root, "kill", "pid_t pid", "int sig", NULL) ||
	    test_tracefs__syscall(root, "newfstatat", "int dfd", "const char * filename",
				  "struct stat * statbuf", "int flag", NULL) ||
	    test_tracefs__syscall(root, "brk", "unsigned long brk", NULL) ||
	    test_tracefs__syscall(root, "poll", "struct pollfd * ufds", "unsigned int nfds",
				  "int timeout_msecs", NULL) ||
	    test_tracefs__syscall(root, "prctl", "int option", "unsigned long arg2",
				  "unsigned long arg3", "unsigned long arg4", "unsigned long arg5",
				  NULL) ||
	    test_tracefs__syscall(root, "setsockopt", "int fd", "int level", "int optname",
				  "char * optval", "int optlen", NULL) ||
	    test_tracefs__syscall(root, "getrandom", "char * ubuf", "size_t len",
				  "unsigned int flags", NULL) ||
	    test_tracefs__syscall(root, "getppid", NULL)) {
		test_tracefs__delete(root);
		return NULL;
	}
	return root;
}

/* A table on the fixture; NULL (nothing left behind) when it cannot be made. */
static struct ember_syscalls *open_fixture(char **root)
{
	struct ember_syscalls *tab;

	*root = fixture();
	tab = *root ? ember_syscalls__new(*root) : NULL;
	if (!tab)
		test_tracefs__delete(*root);
	return tab;
}

/* The argument text of syscall nr with args a0..a5 and one string at index si. */
static const char *args_of(struct ember_syscalls *t, int nr, const uint64_t a[6], int si,
			   const char *str)
{
	static char buf[512];
	const char *strs[6] = { NULL };

	if (si >= 0)
		strs[si] = str;
	ember_syscalls__scnprintf_args(t, nr, a, strs, &env, buf, sizeof(buf));
	return buf;
}

static const char *ret_of(struct ember_syscalls *t, int nr, const uint64_t a[6], int64_t ret)
{
	static char buf[512];

	ember_syscalls__scnprintf_ret(t, nr, a, ret, &env, buf, sizeof(buf));
	return buf;
}

TEST(syscall_beauty_args)
{
	char *root;
	struct ember_syscalls *tab = open_fixture(&root);

	CHECK(tab != NULL);
	if (!tab)
		return;
	CHECK_STR(args_of(tab, SYS_openat, (uint64_t[6]){ 0xffffff9c, 0x1000, O_RDONLY | O_CLOEXEC },
			  1, "/etc/hostname"),
		  "dfd: CWD, filename: \"/etc/hostname\", flags: RDONLY|CLOEXEC");
	/* the mode shows with O_CREAT; without a string, perf's 32-bit pointer */
	CHECK_STR(args_of(tab, SYS_openat,
			  (uint64_t[6]){ 3, 0x7ffd12345678, O_WRONLY | O_CREAT | O_TRUNC, 0644 }, -1,
			  NULL),
		  "dfd: 3</etc/hostname>, filename: 0x12345678, flags: CREAT|TRUNC|WRONLY, "
		  "mode: IRUGO|IWUSR");
	CHECK_STR(args_of(tab, SYS_mmap, (uint64_t[6]){ 0, 8192, 3, 0x22, (uint32_t)-1, 0 }, -1, NULL),
		  "len: 8192, prot: READ|WRITE, flags: PRIVATE|ANONYMOUS");
	/* mmap's fd is an unsigned long: perf gives it no path */
	CHECK_STR(args_of(tab, SYS_mmap,
			  (uint64_t[6]){ 0x7f93351fd000, 1400832, 5, 0x812, 3, 0x26000 }, -1, NULL),
		  "addr: 0x7f93351fd000, len: 1400832, prot: READ|EXEC, "
		  "flags: PRIVATE|FIXED|DENYWRITE, fd: 3, off: 0x26000");
	CHECK_STR(args_of(tab, SYS_close, (uint64_t[6]){ 3 }, -1, NULL), "fd: 3</etc/hostname>");
	CHECK_STR(args_of(tab, SYS_read, (uint64_t[6]){ 4, 0x7ffcc76f28e8, 832 }, -1, NULL),
		  "fd: 4, buf: 0x7ffcc76f28e8, count: 832");
	CHECK_STR(args_of(tab, SYS_access, (uint64_t[6]){ 0x353f92a0, R_OK }, 0, "/etc/ld.so.preload"),
		  "filename: \"/etc/ld.so.preload\", mode: R");
	CHECK_STR(args_of(tab, SYS_access, (uint64_t[6]){ 0x353f92a0, R_OK | W_OK }, -1, NULL),
		  "filename: 0x353f92a0, mode: RW");
	CHECK_STR(args_of(tab, SYS_rt_sigaction, (uint64_t[6]){ SIGINT, 0, 0x7fff19b36980, 8 }, -1,
			  NULL),
		  "sig: INT, oact: 0x7fff19b36980, sigsetsize: 8");
	/* a table names zero: SIG_BLOCK is shown */
	CHECK_STR(args_of(tab, SYS_rt_sigprocmask, (uint64_t[6]){ 0, 0x10, 0, 8 }, -1, NULL),
		  "how: BLOCK, nset: 0x10, sigsetsize: 8");
	CHECK_STR(args_of(tab, SYS_fcntl, (uint64_t[6]){ 3, F_DUPFD }, -1, NULL),
		  "fd: 3</etc/hostname>, cmd: DUPFD");
	CHECK_STR(args_of(tab, SYS_fcntl, (uint64_t[6]){ 3, F_SETFL, O_NONBLOCK | O_RDWR }, -1, NULL),
		  "fd: 3</etc/hostname>, cmd: SETFL, arg: RDWR|NONBLOCK");
	CHECK_STR(args_of(tab, SYS_fcntl, (uint64_t[6]){ 3, F_GETFL, 77 }, -1, NULL),
		  "fd: 3</etc/hostname>, cmd: GETFL");
	CHECK_STR(args_of(tab, SYS_clone, (uint64_t[6]){ 0x1200011, 0, 0x1111, 0x7f5727060a10, 0x2222 },
			  -1, NULL),
		  "clone_flags: CHILD_CLEARTID|CHILD_SETTID|0x11, child_tidptr: 0x7f5727060a10");
	CHECK_STR(args_of(tab, SYS_futex, (uint64_t[6]){ 0x7f93353aba4c, 0x81, 2147483647, 0x99 }, -1,
			  NULL),
		  "uaddr: 0x7f93353aba4c, op: WAKE|PRIVATE_FLAG, val: 2147483647");
	CHECK_STR(args_of(tab, SYS_arch_prctl, (uint64_t[6]){ 0x1002, 0x7f93351d4740 }, -1, NULL),
		  "option: SET_FS, arg2: 0x7f93351d4740");
	CHECK_STR(args_of(tab, SYS_prlimit64, (uint64_t[6]){ 0, 3, 0, 0x7ffcc76f32c0 }, -1, NULL),
		  "resource: STACK, old_rlim: 0x7ffcc76f32c0");
	CHECK_STR(args_of(tab, SYS_ioctl, (uint64_t[6]){ 1, 0x5401, 0x7ffe0 }, -1, NULL),
		  "fd: 1, cmd: TCGETS, arg: 0x7ffe0");
	CHECK_STR(args_of(tab, SYS_ioctl, (uint64_t[6]){ 5, 0xc0104d01, 0 }, -1, NULL),
		  "fd: 5, cmd: (READ|WRITE, 0x4d, 0x1, 0x10)");
	CHECK_STR(args_of(tab, SYS_kill, (uint64_t[6]){ 42, SIGTERM }, -1, NULL),
		  "pid: 42 (child), sig: TERM");
	CHECK_STR(args_of(tab, SYS_kill, (uint64_t[6]){ 43, 99 }, -1, NULL), "pid: 43, sig: 0x63");
	CHECK_STR(args_of(tab, SYS_newfstatat, (uint64_t[6]){ 3, 0x3536ddd5, 0x7ffcc76f2dc0, 4096 }, 1,
			  ""),
		  "dfd: 3</etc/hostname>, filename: \"\", statbuf: 0x7ffcc76f2dc0, flag: 4096");
	/* perf's lines for ps's capability probing, and an option that masks the rest */
	CHECK_STR(args_of(tab, SYS_prctl, (uint64_t[6]){ 23, 32, 0, 140226959834056, 77 }, -1, NULL),
		  "option: CAPBSET_READ, arg2: 32, arg4: 140226959834056, arg5: 77");
	CHECK_STR(args_of(tab, SYS_prctl, (uint64_t[6]){ 15, 0x7ffe10, 3, 4, 5 }, -1, NULL),
		  "option: SET_NAME, arg2: 0x7ffe10");
	CHECK_STR(args_of(tab, SYS_prctl, (uint64_t[6]){ 1000 }, -1, NULL), "option: 1000");
	CHECK_STR(args_of(tab, SYS_setsockopt, (uint64_t[6]){ 4, 0, 11, 0x7ffe, 4 }, -1, NULL),
		  "fd: 4, level: IP, optname: 11, optval: 0x7ffe, optlen: 4");
	CHECK_STR(args_of(tab, SYS_getrandom, (uint64_t[6]){ 0x7ffe, 8, 1 }, -1, NULL),
		  "ubuf: 0x7ffe, len: 8, flags: NONBLOCK");
	CHECK_STR(args_of(tab, SYS_brk, (uint64_t[6]){ 0 }, -1, NULL), "");
	CHECK_STR(args_of(tab, SYS_getppid, (uint64_t[6]){ 0 }, -1, NULL), "");
	ember_syscalls__delete(tab);
	test_tracefs__delete(root);
}

TEST(syscall_beauty_ret)
{
	char *root;
	struct ember_syscalls *tab = open_fixture(&root);

	CHECK(tab != NULL);
	if (!tab)
		return;
	CHECK_STR(ret_of(tab, SYS_openat, NULL, 3), "3");
	CHECK_STR(ret_of(tab, SYS_openat, NULL, -ENOENT), "-1 ENOENT (No such file or directory)");
	CHECK_STR(ret_of(tab, SYS_ioctl, NULL, -ENOTTY), "-1 ENOTTY (Inappropriate ioctl for device)");
	CHECK_STR(ret_of(tab, SYS_mmap, NULL, 0x7f93353c5000), "0x7f93353c5000");
	CHECK_STR(ret_of(tab, SYS_brk, NULL, 0x55ea7b749000), "0x55ea7b749000");
	CHECK_STR(ret_of(tab, SYS_poll, NULL, 0), "0 (Timeout)");
	CHECK_STR(ret_of(tab, SYS_poll, NULL, 1), "1");
	/* a pid perf knows the thread of, with its name; one it does not, nothing */
	CHECK_STR(ret_of(tab, SYS_clone, NULL, 42), "42 (child)");
	CHECK_STR(ret_of(tab, SYS_clone, NULL, 0), "");
	CHECK_STR(ret_of(tab, SYS_getppid, NULL, 1), "");
	/* fcntl's command decides */
	CHECK_STR(ret_of(tab, SYS_fcntl, (uint64_t[6]){ 3, F_GETFL }, O_RDWR | O_APPEND),
		  "RDWR|APPEND");
	/* perf 6.1 prints F_GETFD's result inverted: its lines for tar's fds 0-2 */
	CHECK_STR(ret_of(tab, SYS_fcntl, (uint64_t[6]){ 1, F_GETFD }, 0), "CLOEXEC");
	CHECK_STR(ret_of(tab, SYS_fcntl, (uint64_t[6]){ 3, F_GETFD }, 1), "0");
	CHECK_STR(ret_of(tab, SYS_fcntl, (uint64_t[6]){ 4, F_DUPFD }, 3), "3</etc/hostname>");
	CHECK_STR(ret_of(tab, SYS_fcntl, NULL, 3), "3");
	/* an errno beyond the table, as an interrupted sleep returns at sys_exit (perf's line) */
	CHECK_STR(ret_of(tab, SYS_read, NULL, -516),
		  "-1 (unknown) (INTERNAL ERROR: strerror_r(516, [buf], 128)=22)");
	ember_syscalls__delete(tab);
	test_tracefs__delete(root);
}

TEST(syscall_beauty_names)
{
	CHECK_STR(ember_errno__name(ENOENT), "ENOENT");
	CHECK_STR(ember_errno__name(EAGAIN), "EAGAIN");	/* not EWOULDBLOCK */
	CHECK_STR(ember_errno__name(EDEADLK), "EDEADLK");	/* not EDEADLOCK */
	CHECK_STR(ember_errno__name(EHWPOISON), "EHWPOISON");
	CHECK(ember_errno__name(0) == NULL);
	CHECK(ember_errno__name(41) == NULL);
	CHECK(ember_errno__name(100000) == NULL);
	CHECK_STR(ember_signal__name(SIGSEGV), "SEGV");
	CHECK_STR(ember_signal__name(SIGSTKFLT), "STKFLT");
	CHECK(ember_signal__name(0) == NULL);
	CHECK(ember_signal__name(SIGRTMIN) == NULL);
}

TEST(syscall_beauty_small_buffer)
{
	char *root, buf[16];
	struct ember_syscalls *tab = open_fixture(&root);
	int n;

	CHECK(tab != NULL);
	if (!tab)
		return;
	/* cut, NUL-ended, never past the buffer */
	n = ember_syscalls__scnprintf_args(tab, SYS_openat,
					   (uint64_t[6]){ 0xffffff9c, 1, O_RDONLY | O_CLOEXEC },
					   (const char *[6]){ NULL, "/a/very/long/path" }, &env, buf,
					   sizeof(buf));
	CHECK(n <= (int)sizeof(buf) - 1);
	CHECK_EQ(strlen(buf), n);
	CHECK_STR(buf, "dfd: CWD, filen");
	n = ember_syscalls__scnprintf_args(tab, SYS_openat, (uint64_t[6]){ 0 }, NULL, NULL, buf, 0);
	CHECK_EQ(n, 0);
	CHECK(ember_syscalls__format(tab, SYS_openat) != NULL);
	CHECK_EQ(ember_syscalls__format(tab, SYS_openat)->nr_args, 4);
	CHECK(ember_syscalls__format(tab, SYS_uname) == NULL);	/* not in the fixture */
	/* a syscall number the table does not know */
	CHECK_EQ(ember_syscalls__scnprintf_args(tab, 400, (uint64_t[6]){ 1 }, NULL, &env, buf,
						sizeof(buf)), 0);
	CHECK_STR(buf, "");
	ember_syscalls__delete(tab);
	test_tracefs__delete(root);
}

/* perf's per-syscall table is looked up by bsearch: it must stay sorted, without twins. */
TEST(syscall_beauty_table_sorted)
{
	size_t nr;
	const struct sc_fmt *fmts = fmt__table(&nr);

	CHECK(nr > 50);
	for (size_t i = 1; i < nr; i++) {
		if (strcmp(fmts[i - 1].name, fmts[i].name) >= 0) {
			fprintf(stderr, "  %s before %s\n", fmts[i - 1].name, fmts[i].name);
			t->failures++;
		}
	}
	for (size_t i = 0; i < nr; i++)
		CHECK(fmt__find(fmts[i].name) == &fmts[i]);
}
