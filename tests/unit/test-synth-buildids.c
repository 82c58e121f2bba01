// SPDX-License-Identifier: GPL-2.0-only
/*
 * The BUILD_ID collector ember record feeds with the records it writes:
 * which maps count (executable files, the kernel, modules, [vdso]; not
 * data maps, anonymous or deleted ones), one entry per file in the order
 * first seen, and the ids read through the program headers agree with
 * libelf's reading of the note sections; without --buildid-all, only the
 * files samples hit (and [vdso]), as perf lists them.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <ember/perf-data.h>
#include <ember/synth.h>
#include "test.h"
#include "symbol/build-id.h"
#include "synth/buildid-hits.h"

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

/* An MMAP2 record of name over [start, start + len). */
static const struct perf_event_header *map_at(uint64_t *buf, const char *name, uint64_t start,
					      uint64_t len, uint16_t misc)
{
	struct ember_record_mmap2 *m = (struct ember_record_mmap2 *)mmap2(buf, name,
									  PROT_READ | PROT_EXEC, misc);

	m->start = start;
	m->len = len;
	return &m->header;
}

/* A sample of ip (the first word of its body) in mode misc. */
static const struct perf_event_header *sample_at(uint64_t *buf, uint64_t ip, uint16_t misc)
{
	struct perf_event_header *h = (struct perf_event_header *)buf;

	memset(buf, 0, 32);
	h->type = PERF_RECORD_SAMPLE;
	h->misc = misc;
	h->size = 24;
	buf[1] = ip;
	return h;
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
	struct ember_synth_buildids *b = ember_synth_buildids__new(true);
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
	struct ember_synth_buildids *b = ember_synth_buildids__new(true);
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

static void env_free(struct ember_env *env)
{
	for (uint32_t i = 0; i < env->nr_build_ids; i++)
		free(env->build_ids[i].filename);
	free(env->build_ids);
	memset(env, 0, sizeof(*env));
}

#define KTEXT	0xffffffff81000000ULL
#define KMOD	0xffffffffc0000000ULL
#define USER	0x555500000000ULL

/* The maps of one recording: the kernel image, a module, this program, [vdso]. */
static struct ember_synth_buildids *with_maps(bool all, uint64_t *buf, const char *self)
{
	struct ember_synth_buildids *b = ember_synth_buildids__new(all);

	if (!b)
		return NULL;
	ember_synth_buildids__note(b, map_at(buf, "[kernel.kallsyms]_text", KTEXT, ~KTEXT,
					     PERF_RECORD_MISC_KERNEL));
	ember_synth_buildids__note(b, map_at(buf, "/lib/modules/x.ko", KMOD, 0x4000,
					     PERF_RECORD_MISC_KERNEL));
	ember_synth_buildids__note(b, map_at(buf, self, USER, 0x10000, PERF_RECORD_MISC_USER));
	ember_synth_buildids__note(b, map_at(buf, "[vdso]", 0x7fff00000000ULL, 0x2000,
					     PERF_RECORD_MISC_USER));
	return b;
}

/* perf's default: the files samples hit, the kernel image when a kernel sample is outside every module. */
TEST(synth_buildids_hits)
{
	uint8_t want[BUILD_ID_MAX];
	char self[4096];
	uint64_t buf[64];
	struct ember_env env;
	struct ember_synth_buildids *b;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	bool kernel_id = build_id__read_notes_file("/sys/kernel/notes", want, sizeof(want)) > 0;

	CHECK(n > 0);
	if (n <= 0)
		return;
	self[n] = '\0';
	CHECK(build_id__read_file(self, want, sizeof(want)) > 0);
	memset(&env, 0, sizeof(env));

	/* a user sample in this program: it is listed, the kernel is not */
	b = with_maps(false, buf, self);
	CHECK_EQ(ember_synth_buildids__sample(b, sample_at(buf, USER + 0x1234,
							   PERF_RECORD_MISC_USER), 0), 0);
	CHECK_EQ(ember_synth_buildids__read(b, &env), 0);
	CHECK(find(&env, self) != NULL);
	CHECK(find(&env, "[kernel.kallsyms]") == NULL);
	if (getauxval(AT_SYSINFO_EHDR))
		CHECK(find(&env, "[vdso]") != NULL);
	env_free(&env);
	ember_synth_buildids__delete(b);

	/* a kernel sample in the module only: not the image; at the image's address: the image */
	b = with_maps(false, buf, self);
	ember_synth_buildids__sample(b, sample_at(buf, KMOD + 0x10, PERF_RECORD_MISC_KERNEL), 0);
	/* a user-mode sample at a kernel-mode address marks no kernel file */
	ember_synth_buildids__sample(b, sample_at(buf, KTEXT + 0x10, PERF_RECORD_MISC_USER), 0);
	CHECK_EQ(ember_synth_buildids__read(b, &env), 0);
	CHECK(find(&env, "[kernel.kallsyms]") == NULL);
	CHECK(find(&env, self) == NULL);
	env_free(&env);
	ember_synth_buildids__delete(b);

	b = with_maps(false, buf, self);
	ember_synth_buildids__sample(b, sample_at(buf, KTEXT + 0x10, PERF_RECORD_MISC_KERNEL), 0);
	/* just past this program's map: no hit */
	ember_synth_buildids__sample(b, sample_at(buf, USER + 0x10000, PERF_RECORD_MISC_USER), 0);
	CHECK_EQ(ember_synth_buildids__read(b, &env), 0);
	CHECK_EQ(find(&env, "[kernel.kallsyms]") != NULL, kernel_id);
	CHECK(find(&env, self) == NULL);
	env_free(&env);
	ember_synth_buildids__delete(b);

	/* --buildid-all: every file, without samples */
	b = with_maps(true, buf, self);
	CHECK_EQ(ember_synth_buildids__read(b, &env), 0);
	CHECK(find(&env, self) != NULL);
	CHECK_EQ(find(&env, "[kernel.kallsyms]") != NULL, kernel_id);
	env_free(&env);
	ember_synth_buildids__delete(b);
}

/* The page set on its own: many pages, maps that overlap, a map to the top of memory. */
TEST(synth_buildids_hit_pages)
{
	struct bid_hits *h = bid_hits__new();
	bool hit[4] = { false };

	CHECK(h != NULL);
	if (!h)
		return;
	/* file 0 and 1 overlap (two processes); file 2 far above; file 3 to the top */
	bid_hits__add_map(h, 0x10000, 0x8000, 0, false);
	bid_hits__add_map(h, 0x14000, 0x8000, 1, false);
	bid_hits__add_map(h, 0x700000000000ULL, 0x1000, 2, false);
	bid_hits__add_map(h, 0xffffffffff000000ULL, 0x1000001, 3, true);
	/* thousands of distinct pages below every map: the set grows, nothing is hit */
	for (uint64_t i = 1; i < 5000; i++)
		CHECK_EQ(bid_hits__add_ip(h, i * 4096 + 7 + 0x100000000ULL, false), 0);
	bid_hits__add_ip(h, 0x16000, false);		/* in 0 and 1 */
	bid_hits__add_ip(h, 0x16008, false);		/* the same page again */
	bid_hits__add_ip(h, 0xfffffffffffff000ULL, true);	/* the top page, file 3's */
	CHECK_EQ(bid_hits__resolve(h, hit, 4), 0);	/* every kernel page in a map */
	CHECK(hit[0] && hit[1] && !hit[2] && hit[3]);
	bid_hits__add_ip(h, 0xfffffffffe000000ULL, true);	/* below file 3: the image */
	CHECK_EQ(bid_hits__resolve(h, hit, 4), 1);
	bid_hits__delete(h);
}
