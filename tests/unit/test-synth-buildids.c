// SPDX-License-Identifier: GPL-2.0-only
/*
 * The BUILD_ID collector ember record feeds with the records it writes:
 * which maps count (executable files, the kernel, modules, [vdso]; not
 * data maps, anonymous or deleted ones), one entry per file in the order
 * first seen, and the ids read through the program headers agree with
 * libelf's reading of the note sections.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <ember/perf-data.h>
#include "test.h"
#include "symbol/build-id.h"
#include "synth/buildids.h"

/* An MMAP2 record for name with prot and misc. */
static const struct perf_event_header *mmap2(uint64_t *buf, const char *name, uint32_t prot,
					     uint16_t misc)
{
	struct ember_record_mmap2 *m = (struct ember_record_mmap2 *)buf;
	size_t n = strlen(name) + 1;

	memset(buf, 0, 512);
	m->header.type = PERF_RECORD_MMAP2;
	m->header.misc = misc;
	m->header.size = (uint16_t)((sizeof(*m) + n + 7) & ~(size_t)7);
	m->prot = prot;
	memcpy(m->filename, name, n);
	return &m->header;
}

static const struct perf_event_header *mmap1(uint64_t *buf, const char *name, uint16_t misc)
{
	struct ember_record_mmap *m = (struct ember_record_mmap *)buf;
	size_t n = strlen(name) + 1;

	memset(buf, 0, 512);
	m->header.type = PERF_RECORD_MMAP;
	m->header.misc = misc;
	m->header.size = (uint16_t)((sizeof(*m) + n + 7) & ~(size_t)7);
	memcpy(m->filename, name, n);
	return &m->header;
}

static const struct ember_env_build_id *find(const struct ember_env *env, const char *name)
{
	for (uint32_t i = 0; i < env->nr_build_ids; i++)
		if (!strcmp(env->build_ids[i].filename, name))
			return &env->build_ids[i];
	return NULL;
}

TEST(synth_buildids_which_maps)
{
	struct ember_synth_buildids *b = ember_synth_buildids__new();
	char self[4096];
	uint64_t buf[64];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	CHECK(b && n > 0);
	if (!b || n <= 0)
		return;
	self[n] = '\0';
	CHECK_EQ(ember_synth_buildids__note(b, mmap1(buf, "[kernel.kallsyms]_text",
						     PERF_RECORD_MISC_KERNEL)), 0);
	CHECK_EQ(ember_synth_buildids__note(b, mmap2(buf, self, PROT_READ | PROT_EXEC,
						     PERF_RECORD_MISC_USER)), 0);
	/* the same file again (another process, another map): once */
	ember_synth_buildids__note(b, mmap2(buf, self, PROT_READ | PROT_EXEC, PERF_RECORD_MISC_USER));
	ember_synth_buildids__note(b, mmap2(buf, "[vdso]", PROT_READ | PROT_EXEC,
					    PERF_RECORD_MISC_USER));
	/* not files with code: data maps, anonymous, special, deleted, JIT maps */
	ember_synth_buildids__note(b, mmap2(buf, "/usr/lib/data.bin", PROT_READ,
					    PERF_RECORD_MISC_USER));
	ember_synth_buildids__note(b, mmap2(buf, "/usr/lib/x.so", PROT_READ | PROT_EXEC,
					    PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA));
	ember_synth_buildids__note(b, mmap2(buf, "//anon", PROT_READ | PROT_EXEC,
					    PERF_RECORD_MISC_USER));
	ember_synth_buildids__note(b, mmap2(buf, "[heap]", PROT_READ | PROT_EXEC,
					    PERF_RECORD_MISC_USER));
	ember_synth_buildids__note(b, mmap2(buf, "/tmp/x (deleted)", PROT_READ | PROT_EXEC,
					    PERF_RECORD_MISC_USER));
	ember_synth_buildids__note(b, mmap2(buf, "/tmp/perf-123.map", PROT_READ | PROT_EXEC,
					    PERF_RECORD_MISC_USER));
	ember_synth_buildids__note(b, mmap1(buf, "/usr/lib/y.so", PERF_RECORD_MISC_USER |
								 PERF_RECORD_MISC_MMAP_DATA));
	CHECK_EQ(ember_synth_buildids__nr(b), 3);
	ember_synth_buildids__delete(b);
}

TEST(synth_buildids_read)
{
	struct ember_synth_buildids *b = ember_synth_buildids__new();
	struct ember_env env;
	char self[4096];
	uint8_t want[BUILD_ID_MAX];
	uint64_t buf[64];
	const struct ember_env_build_id *e;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int wn;

	memset(&env, 0, sizeof(env));
	if (!b || n <= 0) {
		CHECK(0);
		return;
	}
	self[n] = '\0';
	wn = build_id__read_file(self, want, sizeof(want));
	ember_synth_buildids__note(b, mmap2(buf, self, PROT_READ | PROT_EXEC,
					    PERF_RECORD_MISC_USER));
	ember_synth_buildids__note(b, mmap2(buf, "[vdso]", PROT_READ | PROT_EXEC,
					    PERF_RECORD_MISC_USER));
	ember_synth_buildids__note(b, mmap2(buf, "/no/such/file", PROT_READ | PROT_EXEC,
					    PERF_RECORD_MISC_USER));
	CHECK_EQ(ember_synth_buildids__read(b, &env), 0);
	CHECK(ember_env__has_feat(&env, EMBER_FEAT_BUILD_ID));
	e = find(&env, self);
	if (wn > 0) {
		CHECK(e != NULL);
		if (e) {
			CHECK_EQ(e->size, wn);
			CHECK(!memcmp(e->build_id, want, (size_t)wn));
			CHECK_EQ(e->pid, -1);
			CHECK_EQ(e->misc, PERF_RECORD_MISC_USER);
		}
	}
	/* the vdso's comes from our own image, the file that is not there is left out */
	if (getauxval(AT_SYSINFO_EHDR))
		CHECK(find(&env, "[vdso]") != NULL);
	CHECK(find(&env, "/no/such/file") == NULL);
	for (uint32_t i = 0; i < env.nr_build_ids; i++)
		free(env.build_ids[i].filename);
	free(env.build_ids);
	ember_synth_buildids__delete(b);
}

/* Bad images: truncated headers, notes running past the end. Never a crash. */
TEST(synth_buildids_bad_images)
{
	uint8_t img[256], id[20];

	memset(img, 0, sizeof(img));
	CHECK(ember_synth_buildids__from_image(img, sizeof(img), id, sizeof(id)) < 0);
	memcpy(img, "\177ELF\2\1\1", 7);
	CHECK(ember_synth_buildids__from_image(img, 10, id, sizeof(id)) < 0);
	/* 64-bit header claiming program headers far past the image */
	img[0x20] = 0xf0;	/* e_phoff */
	img[0x36] = 56;		/* e_phentsize */
	img[0x38] = 8;		/* e_phnum */
	CHECK(ember_synth_buildids__from_image(img, sizeof(img), id, sizeof(id)) < 0);
	/* one PT_NOTE at 0x40 whose note claims a huge descriptor */
	img[0x20] = 0x40;
	img[0x38] = 1;
	img[0x40] = 4;		/* PT_NOTE */
	img[0x48] = 0x80;	/* p_offset */
	img[0x60] = 0x40;	/* p_filesz */
	img[0x80] = 4;		/* namesz */
	img[0x84] = 0xff;	/* descsz */
	img[0x85] = 0xff;
	img[0x88] = 3;		/* NT_GNU_BUILD_ID */
	memcpy(img + 0x8c, "GNU", 4);
	CHECK(ember_synth_buildids__from_image(img, sizeof(img), id, sizeof(id)) < 0);
	/* and a proper one */
	img[0x84] = 20;
	img[0x85] = 0;
	memset(img + 0x90, 0xab, 20);
	CHECK_EQ(ember_synth_buildids__from_image(img, sizeof(img), id, sizeof(id)), 20);
	CHECK_EQ(id[19], 0xab);
}
