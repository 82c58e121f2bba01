// SPDX-License-Identifier: GPL-2.0-only
/* lib/syscall: x86_64's numbers and names, and the arguments tracefs' formats declare. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <ember/syscall.h>
#include "test.h"

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

/* A fake tracefs with one format file; returns the root (free()d by the caller). */
static char *fake_tracefs(const char *name, const char *format)
{
	char tmpl[] = "/tmp/ember-syscall-XXXXXX", path[512];
	char *root = mkdtemp(tmpl);
	FILE *f;

	if (!root)
		return NULL;
	snprintf(path, sizeof(path), "%s/events", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/events/syscalls", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/events/syscalls/sys_enter_%s", root, name);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/events/syscalls/sys_enter_%s/format", root, name);
	f = fopen(path, "w");
	if (!f)
		return NULL;
	fputs(format, f);
	fclose(f);
	return strdup(root);
}

static void remove_fake(const char *root, const char *name)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		fprintf(stderr, "  cannot remove %s\n", root);
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
	char *root = fake_tracefs("openat", openat);

	CHECK(root != NULL);
	if (!root)
		return;
	CHECK_EQ(ember_syscall__read_format(root, "openat", &fmt), 0);
	CHECK_EQ(fmt.nr_args, 4);
	CHECK_STR(fmt.args[0].name, "dfd");
	CHECK_STR(fmt.args[0].type, "int");
	CHECK_STR(fmt.args[1].name, "filename");
	CHECK_STR(fmt.args[1].type, "const char *");
	CHECK_STR(fmt.args[3].name, "mode");
	CHECK_STR(fmt.args[3].type, "umode_t");
	CHECK(!ember_syscall_arg__is_string(&fmt.args[0]));
	CHECK(ember_syscall_arg__is_string(&fmt.args[1]));
	CHECK_EQ(ember_syscall__read_format(root, "nosuchcall", &fmt), -ENOENT);
	remove_fake(root, "openat");
	free(root);
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
	char *root = fake_tracefs("seven", seven);

	CHECK(root != NULL);
	if (root) {
		CHECK_EQ(ember_syscall__read_format(root, "seven", &fmt), -E2BIG);
		remove_fake(root, "seven");
		free(root);
	}
	root = fake_tracefs("odd", odd);
	CHECK(root != NULL);
	if (root) {
		CHECK_EQ(ember_syscall__read_format(root, "odd", &fmt), 0);
		CHECK_EQ(fmt.nr_args, 1);
		CHECK_STR(fmt.args[0].name, "buf");
		CHECK(!ember_syscall_arg__is_string(&fmt.args[0]));
		remove_fake(root, "odd");
		free(root);
	}
}
