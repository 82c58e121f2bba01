// SPDX-License-Identifier: GPL-2.0-only
/* perf's build-id cache as ember list reads it for SDT events, on a fixture tree. */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "test.h"
#include "event/sdt-cache.h"

#define BID_CC1 "4178c06f7ed4d0729fd9fa20d167096eb12df370"
#define BID_GCC "fe89f8172cfbf6a67124ac062279dd05b6a0aa20"
#define BID_KERN "48dc540c8b76393804ca8088dbfa7d42911a9444"
#define BID_GONE "0000000000000000000000000000000000000001"

static void write_file(const char *root, const char *rel, const char *text)
{
	char path[4096];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
	fp = fopen(path, "w");
	if (fp) {
		fputs(text, fp);
		fclose(fp);
	}
}

/* .build-id/<2>/<38> -> ../..<bin>/<build-id>, as perf lays them out. */
static void link_id(const char *root, const char *bin, const char *bid)
{
	char dir[4096], link[4200], target[4096];

	snprintf(dir, sizeof(dir), "%s/.build-id", root);
	mkdir(dir, 0755);
	snprintf(dir, sizeof(dir), "%s/.build-id/%.2s", root, bid);
	mkdir(dir, 0755);
	snprintf(link, sizeof(link), "%s/%s", dir, bid + 2);
	snprintf(target, sizeof(target), "../..%s/%s", bin, bid);
	if (symlink(target, link))
		perror(link);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

struct seen {
	char text[2048];
	int n;
};

static int record(const char *group, const char *event, const char *build_id, const char *path,
		  void *arg)
{
	struct seen *s = arg;
	size_t len = strlen(s->text);

	snprintf(s->text + len, sizeof(s->text) - len, "%s:%s@%.4s=%s;", group, event, build_id,
		 path ? path : "?");
	s->n++;
	return 0;
}

static int stop_at_first(const char *group, const char *event, const char *build_id,
			 const char *path, void *arg)
{
	return 42;
}

TEST(sdt_cache_walk)
{
	char root[] = "/tmp/ember-sdt-XXXXXX", bin[4096];
	struct seen seen = { .n = 0 };

	if (!mkdtemp(root))
		SKIP("cannot create a fixture directory in /tmp");
	snprintf(bin, sizeof(bin), "usr/lib/cc1/%s/probes", BID_CC1);
	write_file(root, bin,
		   "%sdt_libstdcxx:catch=catch\n"
		   "p:sdt_libstdcxx/catch /usr/lib/cc1:0x15e0aa5 arg1=%dx:u64\n"
		   "#probe_libc:malloc=malloc\n"
		   "p:probe_libc/malloc /usr/lib/libc.so.6:0x1000\n"
		   "%sdt_libstdcxx:throw=throw\n"
		   "%broken-line-without-colon\n");
	link_id(root, "/usr/lib/cc1", BID_CC1);
	snprintf(bin, sizeof(bin), "usr/bin/gcc/%s/probes", BID_GCC);
	write_file(root, bin, "");
	link_id(root, "/usr/bin/gcc", BID_GCC);
	snprintf(bin, sizeof(bin), "[kernel.kallsyms]/%s/probes", BID_KERN);
	write_file(root, bin, "%sdt_k:ev=ev\n");
	link_id(root, "/[kernel.kallsyms]", BID_KERN);
	link_id(root, "/usr/bin/removed", BID_GONE);	/* dangling: skipped */
	write_file(root, ".build-id/zz/notanid", "");

	CHECK_EQ(ember_sdt_cache__for_each(root, record, &seen), 0);
	CHECK_EQ(seen.n, 3);
	/* Directory order is the filesystem's; check membership. */
	CHECK(strstr(seen.text, "sdt_libstdcxx:catch@4178=/usr/lib/cc1;") != NULL);
	CHECK(strstr(seen.text, "sdt_libstdcxx:throw@4178=/usr/lib/cc1;") != NULL);
	CHECK(strstr(seen.text, "sdt_k:ev@48dc=[kernel.kallsyms];") != NULL);
	CHECK(strstr(seen.text, "malloc") == NULL);
	CHECK_EQ(ember_sdt_cache__for_each(root, stop_at_first, NULL), 42);

	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	CHECK(ember_sdt_cache__for_each(root, record, &seen) < 0);
}

TEST(sdt_cache_dir)
{
	char buf[4096], *old = getenv("PERF_BUILDID_DIR");
	char *saved = old ? strdup(old) : NULL;

	setenv("PERF_BUILDID_DIR", "/some/where", 1);
	CHECK_STR(sdt_cache__dir(buf, sizeof(buf)), "/some/where");
	CHECK(sdt_cache__dir(buf, 4) == NULL);
	unsetenv("PERF_BUILDID_DIR");
	if (getenv("HOME")) {
		char want[4096];

		snprintf(want, sizeof(want), "%s/.debug", getenv("HOME"));
		CHECK_STR(sdt_cache__dir(buf, sizeof(buf)), want);
	}
	if (saved) {
		setenv("PERF_BUILDID_DIR", saved, 1);
		free(saved);
	}
}
