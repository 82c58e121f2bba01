// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's synthesized MMAP against /proc/kallsyms, the reference
 * symbol scan on fixture files (missing, _stext only, kptr_restrict zeros)
 * and module MMAPs from a fixture /proc/modules and modules tree.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "test.h"
#include "synth/synth-int.h"

struct kcollect {
	char buf[4][256];
	int nr;
};

static int kcollect(void *ctx, const struct perf_event_header *h)
{
	struct kcollect *k = ctx;

	if (k->nr < 4 && h->size <= sizeof(k->buf[0]))
		memcpy(k->buf[k->nr], h, h->size);
	k->nr++;
	return 0;
}

/* An unlinked temp file holding text, positioned at 0; -1 on failure. */
static int text_fd(const char *text)
{
	int fd = memfd_create("synth-fixture", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text) || lseek(fd, 0, SEEK_SET)) {
		close(fd);
		return -1;
	}
	return fd;
}

static int kallsyms_text(const char *text, struct ember_synth_kref *ref)
{
	int fd = text_fd(text), err;

	if (fd < 0)
		return -errno;
	err = ember_synth__kallsyms_ref(fd, ref);
	close(fd);
	return err;
}

TEST(synth_kallsyms_ref_fixtures)
{
	struct ember_synth_kref ref;

	CHECK_EQ(kallsyms_text("ffffffff81000000 T _stext\n"
			       "ffffffff81000000 T _text\n"
			       "ffffffff81000100 t do_one_initcall\n"
			       "ffffffff82209988 T _etext\n"
			       "ffffffffc0000000 t foo_text\t[foo]\n", &ref), 0);
	CHECK_STR(ref.name, "_text");
	CHECK_EQ(ref.start, 0xffffffff81000000ULL);
	CHECK_EQ(ref.end, 0xffffffff82209988ULL);

	/* No _text: _stext is the reference; no _etext: end unknown. */
	CHECK_EQ(kallsyms_text("ffffffff81200000 T _stext\n"
			       "ffffffff81200010 T start_kernel", &ref), 0);
	CHECK_STR(ref.name, "_stext");
	CHECK_EQ(ref.start, 0xffffffff81200000ULL);
	CHECK_EQ(ref.end, 0);

	CHECK_EQ(kallsyms_text("0000000000000000 T _text\n0000000000000000 T _etext\n", &ref),
		 -EACCES);
	CHECK_EQ(kallsyms_text("ffffffff81000000 T startup_64\n", &ref), -ENOENT);
	CHECK_EQ(kallsyms_text("", &ref), -ENOENT);
	CHECK_EQ(kallsyms_text("garbage _text\nxyz\n\n   \n", &ref), -ENOENT);
}

/* The real kernel: "[kernel.kallsyms]_text" at _text, up to _etext. */
TEST(synth_kernel_mmap)
{
	struct ember_synth s;
	struct kcollect k = { .nr = 0 };
	struct ember_synth_opts o = {
		.emit = kcollect, .ctx = &k, .sample_id_all = true,
		.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
	};
	struct ember_synth_kref ref;
	const struct synth_mmap *m = (const void *)k.buf[0];
	int fd = open("/proc/kallsyms", O_RDONLY), err;

	if (fd < 0)
		SKIP("no /proc/kallsyms");
	err = ember_synth__kallsyms_ref(fd, &ref);
	close(fd);
	if (err == -EACCES)
		SKIP("kallsyms addresses hidden (kptr_restrict)");
	CHECK_EQ(err, 0);

	CHECK_EQ(ember_synth__init(&s, &o), 0);
	err = ember_synth__kernel(&s);
	CHECK_EQ(err, 0);
	CHECK(k.nr >= 1);
	CHECK_EQ(s.counts.mmap, (uint64_t)k.nr);
	CHECK_EQ(s.counts.modules, (uint64_t)k.nr - 1);
	CHECK_EQ(m->header.type, PERF_RECORD_MMAP);
	CHECK_EQ(m->header.misc, PERF_RECORD_MISC_KERNEL);
	CHECK_EQ(m->pid, (uint32_t)-1);
	CHECK_EQ(m->tid, 0);
	CHECK_EQ(m->start, ref.start);
	CHECK_EQ(m->pgoff, ref.start);
	if (ref.end)
		CHECK_EQ(m->len, ref.end - ref.start);
	CHECK(m->len > 0);
	CHECK_STR(m->filename, ref.name[1] == 't' ? "[kernel.kallsyms]_text"
						  : "[kernel.kallsyms]_stext");
	/* 40 + "[kernel.kallsyms]_text\0" padded to 24 + 16 of trailer. */
	if (!strcmp(ref.name, "_text"))
		CHECK_EQ(m->header.size, 80);
	ember_synth__exit(&s);
}

TEST(synth_modules_fixture)
{
	char dir[] = "/tmp/ember-synth-mods.XXXXXX", path[PATH_MAX], want[PATH_MAX];
	struct ember_synth s;
	struct kcollect k = { .nr = 0 };
	struct ember_synth_opts o = { .emit = kcollect, .ctx = &k };
	const struct synth_mmap *a = (const void *)k.buf[0], *b = (const void *)k.buf[1];
	int fd, f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/kernel", dir);
	CHECK_EQ(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/kernel/drivers", dir);
	CHECK_EQ(mkdir(path, 0755), 0);
	snprintf(want, sizeof(want), "%s/kernel/drivers/a-mod.ko.xz", dir);
	f = open(want, O_CREAT | O_WRONLY, 0644);
	CHECK(f >= 0);
	close(f);
	snprintf(path, sizeof(path), "%s/kernel/drivers/not-a-module.txt", dir);
	f = open(path, O_CREAT | O_WRONLY, 0644);
	close(f);

	fd = text_fd("b_mod 8192 0 - Live 0xffffffffc0002000\n"
		     "a_mod 4096 1 b_mod, Live 0xffffffffc0000000 (OE)\n"
		     "hidden 100 0 - Live 0x0000000000000000\n"
		     "short line\n");
	CHECK(fd >= 0);
	CHECK_EQ(ember_synth__init(&s, &o), 0);
	CHECK_EQ(ember_synth__modules_from(&s, fd, dir), 0);
	close(fd);
	CHECK_EQ(k.nr, 2);
	CHECK_EQ(s.counts.modules, 2);

	/* Address order; a_mod found on disk as a-mod.ko.xz, b_mod not: "[b_mod]". */
	CHECK_EQ(a->header.type, PERF_RECORD_MMAP);
	CHECK_EQ(a->header.misc, PERF_RECORD_MISC_KERNEL);
	CHECK_EQ(a->pid, (uint32_t)-1);
	CHECK_EQ(a->start, 0xffffffffc0000000ULL);
	CHECK_EQ(a->len, 4096);
	CHECK_EQ(a->pgoff, 0);
	CHECK_STR(a->filename, want);
	CHECK_EQ(a->header.size % 8, 0);
	CHECK_EQ(b->start, 0xffffffffc0002000ULL);
	CHECK_EQ(b->len, 8192);
	CHECK_STR(b->filename, "[b_mod]");
	CHECK_EQ(b->header.size, 48);

	unlink(want);
	unlink(path);
	snprintf(path, sizeof(path), "%s/kernel/drivers", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/kernel", dir);
	rmdir(path);
	rmdir(dir);
	ember_synth__exit(&s);
}

/* The line reader under the /proc parsers: refills, cut lines, no final newline. */
TEST(synth_line_reader)
{
	char buf[16];
	struct synth_lines l;
	char *line;
	size_t len;
	int fd = text_fd("one\n\nthis line is far too long\nlast");

	CHECK(fd >= 0);
	synth_lines__init(&l, fd, buf, sizeof(buf));
	line = synth_lines__next(&l, &len);
	CHECK_STR(line, "one");
	CHECK_EQ(len, 3);
	CHECK(!l.toolong);
	line = synth_lines__next(&l, &len);
	CHECK_STR(line, "");
	CHECK_EQ(len, 0);
	line = synth_lines__next(&l, &len);
	CHECK_STR(line, "this line is fa");
	CHECK(l.toolong);
	line = synth_lines__next(&l, &len);
	CHECK_STR(line, "last");
	CHECK(!l.toolong);
	CHECK(synth_lines__next(&l, &len) == NULL);
	CHECK(synth_lines__next(&l, &len) == NULL);
	CHECK_EQ(l.err, 0);
	close(fd);
}
