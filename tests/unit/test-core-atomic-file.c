// SPDX-License-Identifier: GPL-2.0-only
/* lib/core's atomic file: all or nothing at the path, the umask applied, devices in place. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/atomic-file.h"
#include "test.h"

static char *scratch_dir(void)
{
	char tmpl[] = "/tmp/ember-afile.XXXXXX";
	char *d = mkdtemp(tmpl);

	return d ? strdup(d) : NULL;
}

/* Names in dir other than . and .. */
static int nr_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void slurp(const char *path, char *buf, size_t size)
{
	FILE *fp = fopen(path, "r");
	size_t n = fp ? fread(buf, 1, size - 1, fp) : 0;

	buf[n] = '\0';
	if (fp)
		fclose(fp);
}

TEST(atomic_file_replaces_whole_on_commit)
{
	char *dir = scratch_dir(), path[256], buf[64];
	struct atomic_file af;
	struct stat st;
	mode_t old = umask(022);

	CHECK(dir != NULL);
	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/out", dir);
	slurp(path, buf, sizeof(buf));
	CHECK_EQ(atomic_file__open(&af, path, 0666), 0);
	fputs("new", af.fp);
	/* Until the commit, a reader sees the old state: no file at all. */
	CHECK(access(path, F_OK) != 0);
	CHECK_EQ(nr_entries(dir), 1);
	CHECK_EQ(atomic_file__commit(&af), 0);
	slurp(path, buf, sizeof(buf));
	CHECK_STR(buf, "new");
	CHECK_EQ(stat(path, &st), 0);
	CHECK_EQ(st.st_mode & 0777, 0644);
	CHECK_EQ(nr_entries(dir), 1);
	umask(old);
	unlink(path);
	rmdir(dir);
	free(dir);
}

TEST(atomic_file_abort_keeps_the_old_file)
{
	char *dir = scratch_dir(), path[256], buf[64];
	struct atomic_file af;
	struct stat st;
	FILE *fp;

	CHECK(dir != NULL);
	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/out", dir);
	fp = fopen(path, "w");
	CHECK(fp != NULL);
	if (fp) {
		fputs("old", fp);
		fclose(fp);
	}
	CHECK_EQ(atomic_file__open(&af, path, 0600), 0);
	fputs("half", af.fp);
	atomic_file__abort(&af);
	slurp(path, buf, sizeof(buf));
	CHECK_STR(buf, "old");
	CHECK_EQ(nr_entries(dir), 1);
	/* A private file stays private. */
	CHECK_EQ(atomic_file__open(&af, path, 0600), 0);
	CHECK_EQ(atomic_file__commit(&af), 0);
	CHECK_EQ(stat(path, &st), 0);
	CHECK_EQ(st.st_mode & 0777, 0600);
	unlink(path);
	rmdir(dir);
	free(dir);
}

TEST(atomic_file_writes_devices_in_place)
{
	struct atomic_file af;
	struct stat st;

	CHECK_EQ(atomic_file__open(&af, "/dev/null", 0666), 0);
	CHECK(af.tmp == NULL);
	fputs("gone", af.fp);
	CHECK_EQ(atomic_file__commit(&af), 0);
	CHECK_EQ(stat("/dev/null", &st), 0);
	CHECK(S_ISCHR(st.st_mode));
}

TEST(atomic_file_errors_leave_nothing)
{
	struct atomic_file af;

	CHECK_EQ(atomic_file__open(&af, "/nonexistent-dir/x", 0666), -ENOENT);
	CHECK(af.fp == NULL);
	CHECK(af.tmp == NULL);
}
