// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Maps of the machine model: MMAP/MMAP2 records for processes and for the
 * kernel, KSYMBOL records, and the kernel maps of the running system, as
 * perf's map__new() and machine__process_kernel_mmap_event() build them.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/perf_event.h>
#include "core/log.h"
#include "machine/machine.h"
#include "symbol/kallsyms.h"

#define VDSO_NAME "[vdso]"

/* Anonymous memory, in perf's sense: executable ones are JIT code. */
static bool is_anon_memory(const char *name)
{
	return !strcmp(name, "//anon") || !strncmp(name, "/dev/zero", 9) ||
	       !strncmp(name, "/anon_hugepage", 14);
}

static bool is_no_dso_memory(const char *name)
{
	return !strncmp(name, "[stack", 6) || !strncmp(name, "/SYSV", 5) || !strcmp(name, "[heap]");
}

/* A file name that is not a file: "[vsyscall]", "[anon:name]", "//anon" mapped read-only... */
static enum dso_kind dso_kind__of_name(const char *name)
{
	if (!strcmp(name, VDSO_NAME))
		return DSO_KIND_VDSO;
	if (name[0] == '[' || is_anon_memory(name) || is_no_dso_memory(name) ||
	    !strncmp(name, "//", 2))
		return DSO_KIND_ANON;
	return DSO_KIND_USER;
}

static struct ember_dso *machine__kernel_dso(struct ember_machine *m)
{
	if (!m->dsos.kernel)
		m->dsos.kernel = dsos__findnew(&m->dsos, KERNEL_DSO_NAME, DSO_KIND_KERNEL, NULL);
	return m->dsos.kernel;
}

/* "/lib/modules/.../kernel/fs/ext4/ext4.ko.xz" → "[ext4]", as perf's kmod_path__parse_name(). */
static void module__name(const char *path, char *buf, size_t size)
{
	const char *base = strrchr(path, '/');
	char *dot;

	if (path[0] == '[') {
		snprintf(buf, size, "%s", path);
		return;
	}
	snprintf(buf, size, "[%s", base ? base + 1 : path);
	dot = strstr(buf, ".ko");
	if (dot)
		*dot = '\0';
	for (char *p = buf; *p; p++) {
		if (*p == '-')
			*p = '_';
	}
	strncat(buf, "]", size - strlen(buf) - 1);
}

/* Adds a map for module name at [start, start + size) to the kernel maps. */
static int machine__add_module_map(struct ember_machine *m, const char *name, uint64_t start,
				   uint64_t size, const struct ember_dso_id *id)
{
	struct ember_dso *dso = dsos__findnew(&m->dsos, name, DSO_KIND_MODULE, id);
	struct ember_map *map;

	if (!dso)
		return -ENOMEM;
	if (!dso->loaded)
		dso->kmod_start = start;
	map = map__new(start, start + size, 0, dso);
	if (!map)
		return -ENOMEM;
	return maps__insert(m->kmaps, map);
}

static int machine__set_kernel_map(struct ember_machine *m, uint64_t start, uint64_t end)
{
	struct ember_dso *kernel = machine__kernel_dso(m);
	struct ember_map *map;

	if (!kernel)
		return -ENOMEM;
	if (!end)
		end = ~0ULL;
	map = map__new(start, end, start, kernel);
	if (!map)
		return -ENOMEM;
	map->identity = true;
	if (m->kernel_map)
		maps__remove(m->kmaps, m->kernel_map);
	m->kernel_map = map;
	return maps__insert(m->kmaps, map);
}

static int machine__process_kernel_mmap(struct ember_machine *m, uint64_t start, uint64_t len,
					uint64_t pgoff, const char *filename,
					const struct ember_dso_id *id)
{
	size_t klen = strlen(KERNEL_DSO_NAME);
	char name[256];

	if (!strncmp(filename, KERNEL_DSO_NAME, klen)) {
		struct ember_dso *kernel = machine__kernel_dso(m);

		if (!kernel)
			return -ENOMEM;
		if (id && id->build_id_size && !kernel->loaded)
			dso__set_build_id(kernel, id->build_id, id->build_id_size);
		/* "[kernel.kallsyms]_text" at pgoff = _text's address when recorded. */
		if (filename[klen] && pgoff && !kernel->loaded) {
			free(kernel->ref_reloc_name);
			kernel->ref_reloc_name = strdup(filename + klen);
			kernel->ref_reloc_addr = pgoff;
		}
		return machine__set_kernel_map(m, start, start + len);
	}
	if (filename[0] == '/' || filename[0] == '[') {
		module__name(filename, name, sizeof(name));
		return machine__add_module_map(m, name, start, len, id);
	}
	return 0;
}

int ember_machine__process_mmap2(struct ember_machine *m, uint16_t misc, pid_t pid, pid_t tid,
				 uint64_t start, uint64_t len, uint64_t pgoff, uint32_t prot,
				 uint32_t flags, const char *filename,
				 const struct ember_dso_id *id)
{
	uint8_t cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct ember_thread *thread;
	struct ember_dso *dso;
	struct ember_map *map;
	char jit_name[64];
	bool anon, no_dso;

	if (!filename)
		return -EINVAL;
	if (cpumode == PERF_RECORD_MISC_KERNEL)
		return machine__process_kernel_mmap(m, start, len, pgoff, filename, id);
	if (cpumode == PERF_RECORD_MISC_GUEST_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_USER)
		return 0; /* guests are not modelled */
	if (!len)
		return 0;
	thread = machine__findnew_thread(m, pid, tid);
	if (!thread)
		return -ENOMEM;

	anon = is_anon_memory(filename) || (flags & MAP_HUGETLB);
	no_dso = is_no_dso_memory(filename);
	if ((anon || no_dso) && (prot & PROT_EXEC)) {
		/* Executable anonymous memory is JIT code, described by the JIT's map file. */
		snprintf(jit_name, sizeof(jit_name), "/tmp/perf-%d.map", thread->pid);
		dso = dsos__findnew(&m->dsos, jit_name, DSO_KIND_JIT_MAP, NULL);
	} else if (!strcmp(filename, VDSO_NAME)) {
		pgoff = 0;
		dso = dsos__findnew(&m->dsos, VDSO_NAME, DSO_KIND_VDSO, NULL);
	} else {
		dso = dsos__findnew(&m->dsos, filename, dso_kind__of_name(filename), id);
	}
	if (!dso)
		return -ENOMEM;
	map = map__new(start, start + len, pgoff, dso);
	if (!map)
		return -ENOMEM;
	map->prot = prot;
	map->flags = flags;
	map->identity = anon || no_dso;
	return maps__insert(thread->maps, map);
}

int ember_machine__process_mmap(struct ember_machine *m, uint16_t misc, pid_t pid, pid_t tid,
				uint64_t start, uint64_t len, uint64_t pgoff, const char *filename)
{
	uint32_t prot = misc & PERF_RECORD_MISC_MMAP_DATA ? 0 : PROT_EXEC;

	return ember_machine__process_mmap2(m, misc, pid, tid, start, len, pgoff, prot, 0,
					    filename, NULL);
}

int ember_machine__process_ksymbol(struct ember_machine *m, uint64_t addr, uint32_t len,
				   uint16_t ksym_type, uint16_t flags, const char *name)
{
	struct ember_dso *dso;
	struct ember_map *map;

	(void)ksym_type;
	if (flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER) {
		map = maps__find(m->kmaps, addr);
		if (map && map != m->kernel_map && map->dso->kind == DSO_KIND_KSYMBOL)
			maps__remove(m->kmaps, map);
		return 0;
	}
	if (!name || !len)
		return -EINVAL;
	dso = dsos__findnew(&m->dsos, name, DSO_KIND_KSYMBOL, NULL);
	if (!dso)
		return -ENOMEM;
	if (!dso->loaded) {
		/* Its only symbol spans the whole map, at map-relative address 0. */
		if (symtab__add(&dso->symtab, 0, len, STB_GLOBAL, STT_FUNC, name, strlen(name)))
			return -ENOMEM;
		symtab__sort(&dso->symtab);
		dso->loaded = true;
	}
	map = map__new(addr, addr + len, 0, dso);
	if (!map)
		return -ENOMEM;
	return maps__insert(m->kmaps, map);
}

int ember_machine__set_build_id(struct ember_machine *m, bool kernel, const char *filename,
				const uint8_t *build_id, size_t size)
{
	struct ember_dso_id id = { 0 };
	struct ember_dso *dso;
	char name[256];

	if (!filename || !build_id || !size)
		return -EINVAL;
	memcpy(id.build_id, build_id, size < sizeof(id.build_id) ? size : sizeof(id.build_id));
	id.build_id_size = size < sizeof(id.build_id) ? size : sizeof(id.build_id);
	if (kernel && !strncmp(filename, KERNEL_DSO_NAME, strlen(KERNEL_DSO_NAME))) {
		dso = machine__kernel_dso(m);
		if (dso && !dso->loaded)
			dso__set_build_id(dso, id.build_id, id.build_id_size);
		return dso ? 0 : -ENOMEM;
	}
	if (kernel) {
		module__name(filename, name, sizeof(name));
		dso = dsos__findnew(&m->dsos, name, DSO_KIND_MODULE, &id);
	} else {
		dso = dsos__findnew(&m->dsos, filename, dso_kind__of_name(filename), &id);
	}
	return dso ? 0 : -ENOMEM;
}

static int machine__add_running_module(void *arg, const char *name, uint64_t start, uint64_t size)
{
	return machine__add_module_map(arg, name, start, size, NULL);
}

int ember_machine__create_kernel_maps(struct ember_machine *m)
{
	struct ember_dso *kernel;
	uint64_t start = 0, end = 0;
	int err;

	if (m->kernel_map)
		return 0;
	kernel = machine__kernel_dso(m);
	if (!kernel)
		return -ENOMEM;
	/* Modules first: loading kallsyms hands their symbols to their dsos. */
	err = modules__parse("/proc/modules", machine__add_running_module, m);
	if (err && err != -ENOENT && err != -EACCES)
		return err;
	if (dso__load(kernel) >= 0) {
		start = kernel->ktext_start;
		end = kernel->ktext_end;
	}
	if (!end) {
		/* Without _etext, the kernel runs up to the first module above it, or to the end. */
		for (size_t i = 0; i < m->kmaps->nr; i++) {
			uint64_t s = m->kmaps->entries[i]->start;

			if (s > start && (!end || s < end))
				end = s;
		}
	}
	return machine__set_kernel_map(m, start, end);
}

struct maps *machine__kernel_maps(struct ember_machine *m)
{
	if (!m->kernel_map)
		ember_machine__create_kernel_maps(m);
	return m->kmaps;
}
