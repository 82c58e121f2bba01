// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The kernel for probes: which vmlinux perf probe reads (its search path,
 * the running kernel's build-id), and the names perf probe -F lists, from
 * that vmlinux's .text or, without one, from kallsyms.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>
#include <ember/probe.h>
#include <ember/symbol.h>
#include "probe/probe-priv.h"
#include "symbol/build-id.h"
#include "symbol/symbol-elf.h"
#include "symbol/vmlinux-path.h"

struct vmlinux_find {
	uint8_t running[BUILD_ID_MAX];
	int nrun;
	char *buf;
	size_t size;
	bool too_long;
};

/* A place of perf's path holding the running kernel's vmlinux: copied to the caller's buf. */
static bool is_running_vmlinux(const char *path, void *arg)
{
	struct vmlinux_find *f = arg;
	uint8_t id[BUILD_ID_MAX];

	if (build_id__read_file(path, id, sizeof(id)) != f->nrun || memcmp(id, f->running, f->nrun))
		return false;
	if (snprintf(f->buf, f->size, "%s", path) >= (int)f->size) {
		f->too_long = true;
		return false;
	}
	return true;
}

int ember_probe__find_vmlinux(char *buf, size_t size)
{
	struct vmlinux_find f = { .buf = buf, .size = size };

	if (!size)
		return -ENAMETOOLONG;
	buf[0] = '\0';
	/* without the running kernel's build-id no file can be told to be its */
	f.nrun = build_id__read_notes_file("/sys/kernel/notes", f.running, sizeof(f.running));
	if (f.nrun <= 0)
		return -ENOENT;
	if (vmlinux_path__find(is_running_vmlinux, &f))
		return 0;
	buf[0] = '\0';
	return f.too_long ? -ENAMETOOLONG : -ENOENT;
}

/*
 * perf's kernel symbols from a vmlinux: those it keeps in the kernel's own
 * map are the functions, objects and labels of .text (the other sections'
 * go to maps of their own, which -F does not list).
 */
static int vmlinux_names(const char *path, ember_probe_name_fn fn, void *arg)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -ENODATA;
	Elf_Scn *scn = NULL, *text;
	Elf_Data *data;
	GElf_Shdr sh;
	size_t text_idx;
	Elf *elf;

	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	text = elf ? elf__section_by_name(elf, ".text", &sh) : NULL;
	if (!text)
		goto out;
	text_idx = elf_ndxscn(text);
	while ((scn = elf_nextscn(elf, scn)) && gelf_getshdr(scn, &sh) && sh.sh_type != SHT_SYMTAB)
		;
	data = scn && sh.sh_entsize ? elf_getdata(scn, NULL) : NULL;
	if (!data)
		goto out;
	ret = 0;
	for (size_t i = 1, n = sh.sh_size / sh.sh_entsize; i < n && !ret; i++) {
		GElf_Sym sym;
		const char *name;
		int type;

		if (!gelf_getsym(data, (int)i, &sym))
			break;
		type = GELF_ST_TYPE(sym.st_info);
		if (sym.st_shndx != text_idx ||
		    (type != STT_FUNC && type != STT_OBJECT && type != STT_NOTYPE))
			continue;
		name = elf_strptr(elf, sh.sh_link, sym.st_name);
		if (name && name[0])
			ret = fn(name, arg);
	}
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}

int probe__kallsyms_walk(const char *path, probe_kallsyms_fn fn, void *arg)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int ret = 0;

	if (!f)
		return -errno;
	while (!ret && (len = getline(&line, &cap, f)) > 0) {
		char *p;
		uint64_t addr;

		if (line[len - 1] == '\n')
			line[--len] = '\0';
		addr = strtoull(line, &p, 16);
		if (p == line || p[0] != ' ' || !p[1] || p[2] != ' ' || !p[3])
			continue;
		ret = fn(addr, p[1], p + 3, arg);
	}
	if (!ret && ferror(f))
		ret = -EIO;
	free(line);
	fclose(f);
	return ret;
}

struct name_walk {
	ember_probe_name_fn fn;
	void *arg;
};

/*
 * perf's kernel symbols from kallsyms: types T, W, D and B in either case
 * (text, weak, data, bss), not those of modules ("name\t[module]").
 */
static int kallsyms_name(uint64_t addr, int type, const char *name, void *arg)
{
	struct name_walk *w = arg;

	type = toupper(type);
	if ((type != 'T' && type != 'W' && type != 'D' && type != 'B') || strchr(name, '\t'))
		return 0;
	return w->fn(name, w->arg);
}

int ember_probe__kernel_names(const char *vmlinux, const char *kallsyms, ember_probe_name_fn fn,
			      void *arg)
{
	struct name_walk w = { fn, arg };

	if (vmlinux)
		return vmlinux_names(vmlinux, fn, arg);
	return probe__kallsyms_walk(kallsyms ? kallsyms : "/proc/kallsyms", kallsyms_name, &w);
}

int ember_probe__kernel_places(const char *vmlinux, bool reloc, struct ember_probe_trace *t,
			       size_t nr)
{
	struct ember_symbol_opts opts = { .sz = sizeof(opts), .kallsyms = "" };
	struct ember_dso *dso;
	uint64_t text = 0;
	int ret = 0;

	if (reloc && probe__symbol_start(vmlinux, "_text", &text))
		return -ENOENT;
	dso = ember_dso__open(vmlinux, &opts);
	if (!dso)
		return -errno;
	for (size_t i = 0; i < nr && !ret; i++) {
		const struct ember_symbol *sym = ember_dso__find_symbol(dso, t[i].offset);
		const char *name = reloc ? "_text" : sym ? ember_symbol__name(sym) : NULL;

		if (!name) {
			ret = -ENOENT;
			break;
		}
		t[i].buf = strdup(name);
		if (!t[i].buf) {
			ret = -ENOMEM;
			break;
		}
		t[i].uprobe = false;
		t[i].target = t[i].buf;
		t[i].offset -= reloc ? text : ember_symbol__start(sym);
	}
	ember_dso__delete(dso);
	return ret;
}
