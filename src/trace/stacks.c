// SPDX-License-Identifier: GPL-2.0-only
/* --call-graph's frames named by build-id and file offset (see stacks.h). */
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ember/symbol.h>
#include "core/hash.h"
#include "trace/stacks.h"

#define MAX_EXEC 8

/* A file with a build-id: its symbols, and the file ranges mapped executable. */
struct stack_file {
	uint8_t id[20];
	char *path;
	struct ember_dso *dso;
	struct {
		uint64_t start, end;
	} exec[MAX_EXEC];
	int nr_exec;
};

void trace_stacks__init(struct trace_stacks *s)
{
	memset(s, 0, sizeof(*s));
	elf_version(EV_CURRENT);
}

void trace_stacks__exit(struct trace_stacks *s)
{
	struct hashtab_slot *slot;

	hashtab__for_each(&s->by_id, slot) {
		struct stack_file *f = (struct stack_file *)(uintptr_t)slot->val;

		ember_dso__delete(f->dso);
		free(f->path);
		free(f);
	}
	for (int i = 0; i < s->nr_candidates; i++)
		free(s->candidates[i]);
	free(s->candidates);
	hashtab__exit(&s->by_id);
	hashtab__exit(&s->seen);
	hashtab__exit(&s->pids);
	memset(s, 0, sizeof(*s));
}

static uint64_t id_hash(const uint8_t id[20])
{
	return hash_bytes(id, 20);
}

static bool same_id(const struct hashtab_slot *slot, const void *key)
{
	return !memcmp(((const struct stack_file *)(uintptr_t)slot->val)->id, key, 20);
}

static bool same_path(const struct hashtab_slot *slot, const void *key)
{
	return true;	/* hash_str of the real path: a clash only reads a file once less */
}

void trace_stacks__add_file(struct trace_stacks *s, const char *path)
{
	char real[PATH_MAX], **v;
	uint64_t h;
	struct hashtab_slot *slot;

	if (!realpath(path, real) || hashtab__reserve(&s->seen, 1))
		return;
	h = hash_str(real);
	slot = hashtab__slot(&s->seen, h, same_path, NULL);
	if (slot->val)
		return;
	v = realloc(s->candidates, (s->nr_candidates + 1) * sizeof(*v));
	if (!v)
		return;
	s->candidates = v;
	v[s->nr_candidates] = strdup(real);
	if (!v[s->nr_candidates])
		return;
	s->nr_candidates++;
	hashtab__fill(&s->seen, slot, h, 1);
}

void trace_stacks__add_exec(struct trace_stacks *s, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char interp[PATH_MAX] = "";
	size_t nr_phdrs;
	Elf *elf;

	trace_stacks__add_file(s, path);
	if (fd < 0)
		return;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF && !elf_getphdrnum(elf, &nr_phdrs)) {
		for (size_t i = 0; i < nr_phdrs; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_INTERP ||
			    ph.p_filesz >= sizeof(interp))
				continue;
			if (pread(fd, interp, ph.p_filesz, ph.p_offset) != (ssize_t)ph.p_filesz)
				interp[0] = '\0';
			interp[ph.p_filesz] = '\0';
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	if (interp[0])
		trace_stacks__add_file(s, interp);
}

void trace_stacks__add_process(struct trace_stacks *s, pid_t pid)
{
	char path[64], line[PATH_MAX + 128];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *file = strchr(line, '/');

		if (!file || (!strstr(line, " r-xp ") && !strstr(line, " r-xs ")))
			continue;
		file[strcspn(file, "\n")] = '\0';
		trace_stacks__add_file(s, file);
	}
	fclose(f);
}

bool trace_pids__first(struct hashtab *pids, pid_t pid)
{
	uint64_t h = hash_mix64((uint32_t)pid);
	struct hashtab_slot *slot;

	if (hashtab__reserve(pids, 1))
		return false;
	slot = hashtab__slot(pids, h, hashtab__eq_hash, NULL);
	if (slot->val)
		return false;
	hashtab__fill(pids, slot, h, 1);
	return true;
}

void trace_stacks__see_pid(struct trace_stacks *s, pid_t pid)
{
	if (trace_pids__first(&s->pids, pid))
		trace_stacks__add_process(s, pid);
}

/* The GNU build-id of an ELF file, and its executable PT_LOAD ranges. 0 or -1. */
static int read_elf(const char *path, struct stack_file *sf)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -1;
	Elf_Scn *scn = NULL;
	size_t nr_phdrs;
	Elf *elf;

	if (fd < 0)
		return -1;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getphdrnum(elf, &nr_phdrs))
		goto out;
	for (size_t i = 0; i < nr_phdrs && sf->nr_exec < MAX_EXEC; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, i, &ph) && ph.p_type == PT_LOAD && (ph.p_flags & PF_X)) {
			sf->exec[sf->nr_exec].start = ph.p_offset;
			sf->exec[sf->nr_exec++].end = ph.p_offset + ph.p_filesz;
		}
	}
	while ((scn = elf_nextscn(elf, scn)) && ret) {
		GElf_Shdr sh;
		Elf_Data *data;
		GElf_Nhdr nh;
		size_t off = 0, name_off, desc_off;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE || !(data = elf_getdata(scn, NULL)))
			continue;
		while ((off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && nh.n_descsz == 20 &&
			    !memcmp((char *)data->d_buf + name_off, "GNU", 4)) {
				memcpy(sf->id, (char *)data->d_buf + desc_off, 20);
				ret = 0;
				break;
			}
		}
	}
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}

/* Read the files seen since last time, each into the table by its build-id. */
static void read_candidates(struct trace_stacks *s)
{
	for (int i = 0; i < s->nr_candidates; i++) {
		struct stack_file *sf = calloc(1, sizeof(*sf));
		struct hashtab_slot *slot;
		uint64_t h;

		if (!sf || read_elf(s->candidates[i], sf) || hashtab__reserve(&s->by_id, 1)) {
			free(sf);
			free(s->candidates[i]);
			continue;
		}
		h = id_hash(sf->id);
		slot = hashtab__slot(&s->by_id, h, same_id, sf->id);
		if (slot->val) {	/* the same file under another name */
			free(sf);
			free(s->candidates[i]);
			continue;
		}
		sf->path = s->candidates[i];
		hashtab__fill(&s->by_id, slot, h, (uintptr_t)sf);
	}
	s->nr_candidates = 0;
}

static struct stack_file *file_of(struct trace_stacks *s, const uint8_t id[20])
{
	uint64_t h = id_hash(id);
	struct hashtab_slot *slot = hashtab__find(&s->by_id, h, same_id, id);

	if (!slot && s->nr_candidates) {
		read_candidates(s);
		slot = hashtab__find(&s->by_id, h, same_id, id);
	}
	return slot ? (struct stack_file *)(uintptr_t)slot->val : NULL;
}

static bool in_exec(const struct stack_file *sf, uint64_t off)
{
	for (int i = 0; i < sf->nr_exec; i++)
		if (off >= sf->exec[i].start && off < sf->exec[i].end)
			return true;
	return false;
}

void trace_stacks__fprintf(struct trace_stacks *s, const struct ember_systrace_frame *f, FILE *out)
{
	struct stack_file *sf = f->status == 1 ? file_of(s, f->build_id) : NULL;
	const struct ember_symbol *sym = NULL;

	/* perf knows executable maps only: elsewhere, and for an ip alone, no map at all */
	if (!sf || !in_exec(sf, f->offset_or_ip)) {
		fprintf(out, "[0] ([unknown])\n");
		return;
	}
	if (!sf->dso) {
		struct ember_symbol_opts opts = { .sz = sizeof(opts) };

		sf->dso = ember_dso__open(sf->path, &opts);
	}
	if (sf->dso && ember_dso__load(sf->dso) > 0)
		sym = ember_dso__find_symbol(sf->dso, f->offset_or_ip);
	if (sym)
		fprintf(out, "%s (%s)\n", ember_symbol__name(sym), sf->path);
	else
		fprintf(out, "[%#" PRIx64 "] (%s)\n", f->offset_or_ip, sf->path);
}
