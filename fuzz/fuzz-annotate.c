// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: annotation's readers of a binary (lib/annotate): the
 * input is an ELF file, opened as a dso; for each of its first symbols
 * the code is read per section, decoded by capstone (AT&T, and Intel for
 * every other one), its targets named from the symbol table, versions,
 * PLT entries and dynamic relocations, and its source lines and inlined
 * functions read from DWARF. Every text is read whole, so ASan checks its
 * end. The same input is also read as /proc/kcore is, a core file: the
 * bytes of its segments, and across their ends, by virtual address.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <gelf.h>
#include <ember/annotate.h>
#include "annotate/kernel-code.h"

#define MAX_SYMS 16

static char elf_path[64];

static void remove_elf(void)
{
	unlink(elf_path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd;

	(void)argc;
	(void)argv;
	strcpy(elf_path, "/tmp/ember-fuzz-annotate-XXXXXX");
	fd = mkstemp(elf_path);
	if (fd < 0)
		abort();
	close(fd);
	atexit(remove_elf);
	return 0;
}

static size_t read_all(const struct ember_annotation *a)
{
	volatile size_t len = 0;

	for (size_t i = 0; i < ember_annotation__nr_insns(a); i++) {
		const struct ember_annotation_insn *in = ember_annotation__insn(a, i);

		len += strlen(in->text) + in->size;
		if (in->src_file)
			len += strlen(in->src_file);
		if (in->src_function)
			len += strlen(in->src_function);
		if (in->label)
			len += strlen(in->label);
		if (in->section)
			len += strlen(in->section);
	}
	if (ember_annotation__label(a))
		len += strlen(ember_annotation__label(a));
	return len;
}

/* The input as a kcore: each PT_LOAD's first bytes, and a range across its end. */
static void read_as_core(void)
{
	static uint8_t buf[4096];
	int fd = open(elf_path, O_RDONLY);
	size_t nr = 0;
	Elf *elf;

	if (fd < 0)
		return;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && !elf_getphdrnum(elf, &nr)) {
		for (size_t i = 0; i < nr && i < 16; i++) {
			GElf_Phdr ph;
			size_t len;

			if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
				continue;
			len = ph.p_filesz < sizeof(buf) ? ph.p_filesz : sizeof(buf);
			kernel_code__read_core(elf, ph.p_vaddr, buf, len);
			kernel_code__read_core(elf, ph.p_vaddr + ph.p_filesz - 1, buf, 16);
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ember_annotate_cache *cache;
	struct ember_dso *dso;
	FILE *f = fopen(elf_path, "w");
	int n;

	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f))
		abort();
	read_as_core();
	dso = ember_dso__open(elf_path, NULL);
	if (!dso)
		return 0;
	cache = ember_annotate_cache__new();
	n = ember_dso__load(dso);
	for (int i = 0; cache && i < n && i < MAX_SYMS; i++) {
		const struct ember_symbol *sym = ember_dso__symbol(dso, (size_t)i);
		struct ember_annotation_opts o = {
			.sz = sizeof(o), .intel = i & 1, .no_source = i & 2, .cache = cache,
		};
		struct ember_annotation *a;

		/* perf's symbols are small; a fuzzed size is not worth decoding in full */
		if (ember_symbol__end(sym) - ember_symbol__start(sym) > 1 << 16)
			continue;
		a = ember_annotation__new(dso, sym, &o);
		if (a) {
			read_all(a);
			ember_annotation__delete(a);
		}
	}
	ember_annotate_cache__delete(cache);
	ember_dso__delete(dso);
	return 0;
}

/* elfutils' leak when dwarf_getscopes() fails half-way: see lsan.supp. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:dwarf_getscopes\n";
}
