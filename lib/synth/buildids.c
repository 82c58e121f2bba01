// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The build-ids of the files a recording mapped executable (see <ember/synth.h>). */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <ember/perf-data.h>
#include <ember/synth.h>
#include "core/hash.h"
#include "core/hashtab.h"
#include "symbol/build-id.h"
#include "synth/buildid-hits.h"

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

/* What is read of a file at once: its ELF header, program headers and (usually) notes. */
#define HEAD_SIZE	8192
/* A PT_NOTE segment larger than this is not a build-id's. */
#define NOTES_MAX	(64 * 1024)
#define MAX_NOTE_SEGS	8

enum bid_kind { BID_FILE, BID_KERNEL, BID_MODULE, BID_VDSO };

struct bid_file {
	char *name;
	enum bid_kind kind;
};

struct ember_synth_buildids {
	struct bid_file *files;		/* in the order first seen */
	size_t nr, cap;
	struct hashtab index;		/* index into files + 1 by hash_bytes() of the name */
	/* the maps and the pages samples hit; NULL: every file, hit or not (--buildid-all) */
	struct bid_hits *hits;
};

struct note_seg {
	uint64_t off, size, align;
};

struct ember_synth_buildids *ember_synth_buildids__new(bool all)
{
	struct ember_synth_buildids *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	if (!all) {
		b->hits = bid_hits__new();
		if (!b->hits) {
			free(b);
			return NULL;
		}
	}
	return b;
}

void ember_synth_buildids__delete(struct ember_synth_buildids *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->nr; i++)
		free(b->files[i].name);
	free(b->files);
	hashtab__exit(&b->index);
	bid_hits__delete(b->hits);
	free(b);
}

size_t ember_synth_buildids__nr(const struct ember_synth_buildids *b)
{
	return b ? b->nr : 0;
}

struct name_probe {
	const struct ember_synth_buildids *b;
	const char *name;
	size_t len;
};

static bool name_eq(const struct hashtab_slot *slot, const void *key)
{
	uint64_t val = slot->val;
	const struct name_probe *k = key;
	const char *name = k->b->files[val - 1].name;

	return !strncmp(name, k->name, k->len) && !name[k->len];
}

/* The file's number (first seen, first numbered), added if new; or -ENOMEM. */
static int add(struct ember_synth_buildids *b, const char *name, size_t len, enum bid_kind kind)
{
	struct name_probe k = { b, name, len };
	uint64_t h = hash_bytes(name, len);
	struct hashtab_slot *s;
	struct bid_file *f;

	/* paths repeat across processes (-a): the set stays small */
	if (b->nr >= INT32_MAX || hashtab__reserve(&b->index, 1))
		return -ENOMEM;
	s = hashtab__slot(&b->index, h, name_eq, &k);
	if (s->val)
		return (int)(s->val - 1);
	if (b->nr == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 32;

		f = realloc(b->files, cap * sizeof(*f));
		if (!f)
			return -ENOMEM;
		b->files = f;
		b->cap = cap;
	}
	f = &b->files[b->nr];
	f->name = strndup(name, len);
	if (!f->name)
		return -ENOMEM;
	f->kind = kind;
	hashtab__fill(&b->index, s, h, ++b->nr);
	return (int)b->nr - 1;
}

/* Mappings that are no file with a build-id: anonymous, special, deleted. */
static bool no_file(const char *name, size_t len)
{
	static const char *const prefixes[] = { "//anon", "/dev/", "/anon_hugepage", "/SYSV",
						"/memfd:", "/tmp/perf-", "/proc/" };

	if (!len || name[0] != '/')
		return true;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return len > 10 && !strcmp(name + len - 10, " (deleted)");
}

int ember_synth_buildids__note(struct ember_synth_buildids *b, const struct perf_event_header *rec)
{
	const struct ember_record_mmap *m;
	const char *name;
	size_t off, len;
	bool kernel = (rec->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
	int idx;

	if (rec->type == PERF_RECORD_MMAP) {
		off = offsetof(struct ember_record_mmap, filename);
		/* the MMAP record has no prot: data maps say so in misc */
		if (rec->misc & PERF_RECORD_MISC_MMAP_DATA)
			return 0;
	} else if (rec->type == PERF_RECORD_MMAP2) {
		const struct ember_record_mmap2 *m = (const void *)rec;

		off = offsetof(struct ember_record_mmap2, filename);
		if (rec->size < off || !(m->prot & PROT_EXEC) ||
		    (rec->misc & (PERF_RECORD_MISC_MMAP_DATA | PERF_RECORD_MISC_MMAP_BUILD_ID)))
			return 0;
	} else {
		return 0;
	}
	if (rec->size <= off)
		return 0;
	name = (const char *)rec + off;
	len = strnlen(name, rec->size - off);
	if (kernel) {
		if (!strncmp(name, "[kernel.kallsyms]", 17))
			/* the image has no map of its own here: what no module holds is its */
			return add(b, "[kernel.kallsyms]", 17, BID_KERNEL) < 0 ? -ENOMEM : 0;
		if (len > 2 && (name[0] == '/' || name[0] == '['))
			idx = add(b, name, len, BID_MODULE);
		else
			return 0;
	} else if (len == 6 && !memcmp(name, "[vdso]", 6)) {
		idx = add(b, name, len, BID_VDSO);
	} else if (no_file(name, len)) {
		return 0;
	} else {
		idx = add(b, name, len, BID_FILE);
	}
	if (idx < 0)
		return idx;
	if (!b->hits)
		return 0;
	/* MMAP and MMAP2 share pid, tid, start and len */
	m = (const void *)rec;
	return bid_hits__add_map(b->hits, m->start, m->len, (uint32_t)idx, kernel);
}

int ember_synth_buildids__sample(struct ember_synth_buildids *b, const struct perf_event_header *rec,
				 size_t ip_off)
{
	uint16_t mode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	uint64_t ip;

	if (!b->hits || rec->size < sizeof(*rec) + ip_off + sizeof(ip) ||
	    (mode != PERF_RECORD_MISC_KERNEL && mode != PERF_RECORD_MISC_USER))
		return 0;
	memcpy(&ip, (const uint8_t *)(rec + 1) + ip_off, sizeof(ip));
	return bid_hits__add_ip(b->hits, ip, mode == PERF_RECORD_MISC_KERNEL);
}

/* The GNU build-id among the notes in p[len], laid out with `align`. */
static int scan_notes(const uint8_t *p, size_t len, size_t align, uint8_t *buf, size_t size)
{
	size_t pos = 0;

	if (align != 8)
		align = 4;
	while (pos + 12 <= len) {
		uint32_t namesz, descsz, type;
		size_t name_off = pos + 12, desc_off, next;

		memcpy(&namesz, p + pos, 4);
		memcpy(&descsz, p + pos + 4, 4);
		memcpy(&type, p + pos + 8, 4);
		desc_off = name_off + ((namesz + align - 1) & ~(align - 1));
		next = desc_off + ((descsz + align - 1) & ~(align - 1));
		if (desc_off > len || descsz > len - desc_off || next < pos)
			return -ENODATA;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(p + name_off, "GNU", 4) &&
		    descsz) {
			size_t n = descsz < size ? descsz : size;

			memcpy(buf, p + desc_off, n);
			return (int)n;
		}
		pos = next;
	}
	return -ENODATA;
}

/* The PT_NOTE segments of the ELF image whose first len bytes are at p. Returns how many. */
static int note_segs(const uint8_t *p, size_t len, struct note_seg *segs, int max)
{
	uint64_t phoff;
	unsigned int phnum, phentsize;
	bool is64;
	int nr = 0;

	if (len < EI_NIDENT || memcmp(p, ELFMAG, SELFMAG))
		return 0;
	if (p[EI_DATA] != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB))
		return 0;
	is64 = p[EI_CLASS] == ELFCLASS64;
	if (is64 && len >= sizeof(Elf64_Ehdr)) {
		const Elf64_Ehdr *eh = (const void *)p;

		phoff = eh->e_phoff;
		phnum = eh->e_phnum;
		phentsize = eh->e_phentsize;
		if (phentsize != sizeof(Elf64_Phdr))
			return 0;
	} else if (p[EI_CLASS] == ELFCLASS32 && len >= sizeof(Elf32_Ehdr)) {
		const Elf32_Ehdr *eh = (const void *)p;

		phoff = eh->e_phoff;
		phnum = eh->e_phnum;
		phentsize = eh->e_phentsize;
		if (phentsize != sizeof(Elf32_Phdr))
			return 0;
	} else {
		return 0;
	}
	for (unsigned int i = 0; i < phnum && nr < max; i++) {
		uint64_t at = phoff + (uint64_t)i * phentsize;

		if (at > len || phentsize > len - at)
			break;
		if (is64) {
			Elf64_Phdr ph;

			memcpy(&ph, p + at, sizeof(ph));
			if (ph.p_type == PT_NOTE)
				segs[nr++] = (struct note_seg){ ph.p_offset, ph.p_filesz, ph.p_align };
		} else {
			Elf32_Phdr ph;

			memcpy(&ph, p + at, sizeof(ph));
			if (ph.p_type == PT_NOTE)
				segs[nr++] = (struct note_seg){ ph.p_offset, ph.p_filesz, ph.p_align };
		}
	}
	return nr;
}

int ember_synth_buildids__from_image(const void *img, size_t len, uint8_t *buf, size_t size)
{
	struct note_seg segs[MAX_NOTE_SEGS];
	int nr = note_segs(img, len, segs, MAX_NOTE_SEGS);

	for (int i = 0; i < nr; i++) {
		int n;

		if (segs[i].off > len || segs[i].size > len - segs[i].off)
			continue;
		n = scan_notes((const uint8_t *)img + segs[i].off, segs[i].size, segs[i].align,
			       buf, size);
		if (n > 0)
			return n;
	}
	return -ENODATA;
}

/* A file's build-id from its program headers' notes: a pread or two. */
static int read_file_phdrs(const char *path, uint8_t *buf, size_t size)
{
	uint8_t head[HEAD_SIZE], *more = NULL;
	struct note_seg segs[MAX_NOTE_SEGS];
	ssize_t n;
	int fd, nr, ret = -ENODATA;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	n = pread(fd, head, sizeof(head), 0);
	if (n <= 0)
		goto out;
	nr = note_segs(head, (size_t)n, segs, MAX_NOTE_SEGS);
	for (int i = 0; i < nr && ret < 0; i++) {
		if (segs[i].off <= (uint64_t)n && segs[i].size <= (uint64_t)n - segs[i].off) {
			ret = scan_notes(head + segs[i].off, segs[i].size, segs[i].align, buf,
					 size);
			continue;
		}
		if (!segs[i].size || segs[i].size > NOTES_MAX)
			continue;
		more = realloc(more, segs[i].size);
		if (!more) {
			ret = -ENOMEM;
			break;
		}
		if (pread(fd, more, segs[i].size, (off_t)segs[i].off) == (ssize_t)segs[i].size)
			ret = scan_notes(more, segs[i].size, segs[i].align, buf, size);
	}
out:
	free(more);
	close(fd);
	return ret;
}

/* This process's [vdso], the image the kernel maps into every process of our ABI. */
static int read_vdso(uint8_t *buf, size_t size)
{
	const void *base = (const void *)getauxval(AT_SYSINFO_EHDR);

	if (!base)
		return -ENODATA;
	/* The headers and notes sit in the vdso's first page. */
	return ember_synth_buildids__from_image(base, (size_t)sysconf(_SC_PAGESIZE), buf, size);
}

/* A module's from sysfs: its name is the file's without directory and .ko*, '-' as '_'. */
static int read_module(const char *name, uint8_t *buf, size_t size)
{
	char mod[NAME_MAX + 1], path[PATH_MAX];
	const char *base = strrchr(name, '/');
	size_t len;

	base = base ? base + 1 : name;
	if (*base == '[')
		base++;
	len = strcspn(base, ".]");
	if (!len || len > NAME_MAX)
		return -ENODATA;
	for (size_t i = 0; i < len; i++)
		mod[i] = base[i] == '-' ? '_' : base[i];
	mod[len] = '\0';
	snprintf(path, sizeof(path), "/sys/module/%s/notes/.note.gnu.build-id", mod);
	return build_id__read_notes_file(path, buf, size);
}

static int read_one(const struct bid_file *f, uint8_t *buf, size_t size)
{
	int n;

	switch (f->kind) {
	case BID_KERNEL:
		return build_id__read_notes_file("/sys/kernel/notes", buf, size);
	case BID_VDSO:
		return read_vdso(buf, size);
	case BID_MODULE:
		n = read_module(f->name, buf, size);
		if (n > 0 || f->name[0] != '/')
			return n;
		return build_id__read_file(f->name, buf, size);
	case BID_FILE:
		n = read_file_phdrs(f->name, buf, size);
		/* Objects without program headers (or odd ones): the note sections, as perf. */
		if (n == -ENODATA)
			n = build_id__read_file(f->name, buf, size);
		return n;
	}
	return -ENODATA;
}

int ember_synth_buildids__read(struct ember_synth_buildids *b, struct ember_env *env)
{
	struct ember_env_build_id *v;
	size_t nr = env->nr_build_ids;
	bool *hit = NULL;

	if (b->hits) {
		int kernel_image;

		hit = calloc(b->nr + 1, sizeof(*hit));
		kernel_image = hit ? bid_hits__resolve(b->hits, hit, b->nr) : -ENOMEM;
		if (kernel_image < 0) {
			free(hit);
			return -ENOMEM;
		}
		for (size_t i = 0; i < b->nr; i++)
			if (b->files[i].kind == BID_KERNEL)
				hit[i] = kernel_image;
	}
	v = realloc(env->build_ids, (nr + b->nr + 1) * sizeof(*v));
	if (!v) {
		free(hit);
		return -ENOMEM;
	}
	env->build_ids = v;
	for (size_t i = 0; i < b->nr; i++) {
		const struct bid_file *f = &b->files[i];
		struct ember_env_build_id *e = &v[nr];
		int n;

		/* as perf: the dsos with samples, and [vdso] always */
		if (hit && !hit[i] && f->kind != BID_VDSO)
			continue;
		memset(e, 0, sizeof(*e));
		n = read_one(f, e->build_id, sizeof(e->build_id));
		if (n <= 0)
			continue;
		e->filename = strdup(f->name);
		if (!e->filename) {
			free(hit);
			return -ENOMEM;
		}
		e->size = (uint8_t)n;
		e->pid = -1;
		e->misc = f->kind == BID_KERNEL || f->kind == BID_MODULE ?
				  PERF_RECORD_MISC_KERNEL :
				  PERF_RECORD_MISC_USER;
		env->nr_build_ids = (uint32_t)++nr;
	}
	free(hit);
	ember_env__set_feat(env, EMBER_FEAT_BUILD_ID, true);
	return 0;
}
