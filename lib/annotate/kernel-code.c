// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The kernel's code for annotate: a vmlinux with the kernel's build-id,
 * looked for where perf looks (the one given with -k, the build-id
 * cache's copy that 'perf buildid-cache -u vmlinux' makes, then perf's
 * vmlinux path for this kernel release), else /proc/kcore.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "annotate/kernel-code.h"
#include "annotate/elf-syms.h"
#include "symbol/build-id.h"
#include "symbol/dso.h"
#include "symbol/vmlinux-path.h"

/* The address of symbol name in elf's .symtab; 0 when none. */
static uint64_t symtab_addr(Elf *elf, const char *name)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data;
		GElf_Sym sym;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB ||
		    !(data = elf_getdata(scn, NULL)) || !sh.sh_entsize)
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			const char *n;

			if (!gelf_getsym(data, (int)i, &sym))
				break;
			n = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (n && !strcmp(n, name))
				return sym.st_value;
		}
	}
	return 0;
}

/*
 * Whether path is a vmlinux for dso: an ELF file with its build-id (any
 * ELF file when dso has none); sets kc on success.
 */
static bool try_vmlinux(struct kernel_code *kc, const struct ember_dso *dso, const char *path)
{
	uint8_t bid[BUILD_ID_MAX];
	struct elf_file f;
	int n;

	if (elf_file__open(&f, path))
		return false;
	n = build_id__read_elf(f.elf, bid, sizeof(bid));
	if (dso->id.build_id_size &&
	    (n != (int)dso->id.build_id_size || memcmp(bid, dso->id.build_id, (size_t)n))) {
		elf_file__close(&f);
		return false;
	}
	kc->reloc = 0;
	if (dso->ref_reloc_name && dso->ref_reloc_addr) {
		uint64_t at = symtab_addr(f.elf, dso->ref_reloc_name);

		if (at)
			kc->reloc = dso->ref_reloc_addr - at;
	}
	elf_file__close(&f);
	kc->path = strdup(path);
	kc->kcore = false;
	return true;
}

struct vmlinux_try {
	struct kernel_code *kc;
	const struct ember_dso *dso;
};

static bool try_vmlinux_at(const char *path, void *arg)
{
	struct vmlinux_try *t = arg;

	return try_vmlinux(t->kc, t->dso, path);
}

/* perf's vmlinux path (vmlinux_path__init()), for this kernel release */
static bool try_vmlinux_path(struct kernel_code *kc, const struct ember_dso *dso)
{
	struct vmlinux_try t = { kc, dso };

	return vmlinux_path__find(try_vmlinux_at, &t);
}

int kernel_code__find(struct kernel_code *kc, const struct ember_dso *dso, const char *vmlinux,
		      bool ignore_vmlinux, const char *kcore_path)
{
	char path[4096], hex[BUILD_ID_HEX_MAX];

	memset(kc, 0, sizeof(*kc));
	if (vmlinux) {
		if (try_vmlinux(kc, dso, vmlinux))
			goto found;
	} else if (!ignore_vmlinux) {
		if (dso->id.build_id_size && dso->conf && dso->conf->buildid_dir &&
		    dso->conf->buildid_dir[0]) {
			build_id__hex(dso->id.build_id, dso->id.build_id_size, hex);
			snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s/elf",
				 dso->conf->buildid_dir, hex, hex + 2);
			if (try_vmlinux(kc, dso, path))
				goto found;
		}
		if (try_vmlinux_path(kc, dso))
			goto found;
	}
	if (!kcore_path)
		kcore_path = "/proc/kcore";
	if (access(kcore_path, R_OK))
		return -EOPNOTSUPP;
	kc->path = strdup(kcore_path);
	kc->kcore = true;
found:
	return kc->path ? 0 : -ENOMEM;
}

void kernel_code__exit(struct kernel_code *kc)
{
	free(kc->path);
	kc->path = NULL;
}

int kernel_code__read_core(Elf *elf, uint64_t vaddr, uint8_t *buf, size_t len)
{
	size_t nr = 0, done = 0;

	if (elf_getphdrnum(elf, &nr))
		return -ENODATA;
	while (done < len) {
		uint64_t at = vaddr + done;
		size_t got = 0;

		for (size_t i = 0; i < nr; i++) {
			GElf_Phdr ph;
			Elf_Data *d;
			uint64_t n;

			if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
			    at < ph.p_vaddr || at >= ph.p_vaddr + ph.p_filesz)
				continue;
			n = ph.p_vaddr + ph.p_filesz - at;
			if (n > len - done)
				n = len - done;
			d = elf_getdata_rawchunk(elf, (int64_t)(ph.p_offset + (at - ph.p_vaddr)), n,
						 ELF_T_BYTE);
			if (!d || !d->d_buf)
				return -ENODATA;
			memcpy(buf + done, d->d_buf, n);
			got = n;
			break;
		}
		if (!got)
			return -ENODATA;
		done += got;
	}
	return 0;
}
