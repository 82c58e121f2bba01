// SPDX-License-Identifier: GPL-2.0-only
/* lib/syscall: x86_64's numbers and names, and the arguments tracefs' formats declare. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <ember/syscall.h>
#include "test.h"
#include "test-util.h"

TEST(syscall_table_names)
{
	/* the numbers glibc's <sys/syscall.h> has, from the same kernel headers */
	CHECK_STR(ember_syscall__name(SYS_read), "read");
	CHECK_STR(ember_syscall__name(SYS_openat), "openat");
	CHECK_STR(ember_syscall__name(SYS_newfstatat), "newfstatat");
	CHECK_STR(ember_syscall__name(SYS_exit_group), "exit_group");
	CHECK_EQ(ember_syscall__number("openat"), SYS_openat);
	CHECK_EQ(ember_syscall__number("execve"), SYS_execve);
	CHECK_EQ(ember_syscall__number("rseq"), SYS_rseq);
	CHECK_EQ(ember_syscall__number("nosuchcall"), -ENOENT);
	CHECK_EQ(ember_syscall__number(""), -ENOENT);
	CHECK_EQ(ember_syscall__number(NULL), -ENOENT);
	CHECK(ember_syscall__name(-1) == NULL);
	CHECK(ember_syscall__name(ember_syscall__max()) == NULL);
	CHECK(ember_syscall__max() > SYS_rseq);
	/* numbers the table skips (x32's gap) have no name */
	CHECK(ember_syscall__name(400) == NULL);
	for (int nr = 0; nr < ember_syscall__max(); nr++) {
		const char *name = ember_syscall__name(nr);

		if (name && ember_syscall__number(name) != nr) {
			fprintf(stderr, "  %s: %d, not %d\n", name, ember_syscall__number(name), nr);
			t->failures++;
		}
	}
}

TEST(syscall_format_fields)
{
	static const char openat[] =
		"name: sys_enter_openat\nID: 782\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield:int dfd;\toffset:16;\tsize:8;\tsigned:0;\n"
		"\tfield:const char * filename;\toffset:24;\tsize:8;\tsigned:0;\n"
		"\tfield:int flags;\toffset:32;\tsize:8;\tsigned:0;\n"
		"\tfield:umode_t mode;\toffset:40;\tsize:8;\tsigned:0;\n\n"
		"print fmt: \"dfd: 0x%08lx\", ((unsigned long)(REC->dfd))\n";
	struct ember_syscall_format fmt;
	char *root = test_tracefs__new();

	CHECK(root != NULL);
	if (!root || test_tracefs__write(root, "openat", openat)) {
		test_tracefs__delete(root);
		t->failures++;
		return;
	}
	CHECK_EQ(ember_syscall__read_format(root, "openat", &fmt), 0);
	CHECK_EQ(fmt.nr_args, 4);
	CHECK_STR(fmt.args[0].name, "dfd");
	CHECK_STR(fmt.args[0].type, "int");
	CHECK_STR(fmt.args[1].name, "filename");
	CHECK_STR(fmt.args[1].type, "const char *");
	CHECK_STR(fmt.args[3].name, "mode");
	CHECK_STR(fmt.args[3].type, "umode_t");
	CHECK_EQ(ember_syscall__read_format(root, "nosuchcall", &fmt), -ENOENT);
	test_tracefs__delete(root);
}

TEST(syscall_format_bad)
{
	/* seven arguments, a field without ';', a name too long: refused or skipped */
	static const char seven[] =
		"\tfield:long a;\toffset:16;\n\tfield:long b;\toffset:24;\n"
		"\tfield:long c;\toffset:32;\n\tfield:long d;\toffset:40;\n"
		"\tfield:long e;\toffset:48;\n\tfield:long f;\toffset:56;\n"
		"\tfield:long g;\toffset:64;\n";
	static const char odd[] =
		"\tfield:long nosemicolon\n\tfield:;\n\tfield:long "
		"a_name_far_longer_than_thirty_two_bytes_of_room;\n\tfield:char * buf;\n";
	struct ember_syscall_format fmt;
	char *root = test_tracefs__new();

	CHECK(root != NULL);
	if (!root)
		return;
	CHECK_EQ(test_tracefs__write(root, "seven", seven), 0);
	CHECK_EQ(ember_syscall__read_format(root, "seven", &fmt), -E2BIG);
	CHECK_EQ(test_tracefs__write(root, "odd", odd), 0);
	CHECK_EQ(ember_syscall__read_format(root, "odd", &fmt), 0);
	CHECK_EQ(fmt.nr_args, 1);
	CHECK_STR(fmt.args[0].name, "buf");
	test_tracefs__delete(root);
}

TEST(syscall_table_match_suggest)
{
	char buf[128];
	int nr, n = 0, seen_openat = 0;

	for (nr = ember_syscall__next_match("open*", 0); nr >= 0;
	     nr = ember_syscall__next_match("open*", nr + 1)) {
		n++;
		seen_openat |= nr == SYS_openat;
		CHECK(!strncmp(ember_syscall__name(nr), "open", 4));
	}
	CHECK(n >= 4);	/* open, openat, open_by_handle_at, openat2 */
	CHECK(seen_openat);
	CHECK_EQ(ember_syscall__next_match("read", 0), SYS_read);
	CHECK_EQ(ember_syscall__next_match("read", SYS_read + 1), -ENOENT);
	CHECK_EQ(ember_syscall__next_match("nosuch*", 0), -ENOENT);
	CHECK_EQ(ember_syscall__next_match(NULL, 0), -ENOENT);

	/* the closest first: openat is 1 away, openat2 2 */
	CHECK_EQ(ember_syscall__suggest("opnat", buf, sizeof(buf)), 2);
	CHECK_STR(buf, "openat, openat2");
	CHECK(ember_syscall__suggest("wirte", buf, sizeof(buf)) >= 1);
	CHECK(!strncmp(buf, "write", 5));
	CHECK_EQ(ember_syscall__suggest("xyzzyplugh", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "");
	/* the name itself is no suggestion, its neighbours are */
	CHECK_EQ(ember_syscall__suggest("read", buf, sizeof(buf)), 3);
	CHECK(!strstr(buf, "read,") && strcmp(buf, "read"));
	/* a small buffer is cut, never overrun */
	CHECK(ember_syscall__suggest("opnat", buf, 4) == 2 && strlen(buf) == 3);
}
