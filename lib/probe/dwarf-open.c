// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* A user binary's DWARF for probing (see dwarf-priv.h). */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>
#include "probe/dwarf-priv.h"
#include "symbol/dwfl-elf.h"
#include "symbol/symbol-elf.h"

static int first_module(Dwfl_Module *mod, void **user, const char *name, Dwarf_Addr start,
			void *arg)
{
	*(Dwfl_Module **)arg = mod;
	return DWARF_CB_ABORT;
}

/* perf's text start of a binary: where .text's addresses and file offsets part. */
static uint64_t text_delta(Elf *elf)
{
	GElf_Shdr sh;

	return elf && elf__section_by_name(elf, ".text", &sh) ? sh.sh_addr - sh.sh_offset : 0;
}

int probe_dwarf__open(struct probe_dwarf *d, const char *path)
{
	Dwfl_Module *mod = NULL;
	GElf_Addr elf_bias;

	memset(d, 0, sizeof(*d));
	if (access(path, R_OK))
		return -errno;
	/* not an ELF file: no debug information either, as perf says */
	d->dwfl = dwfl_elf__open(path);
	if (!d->dwfl)
		return -ENODATA;
	dwfl_getmodules(d->dwfl, first_module, &mod, 0);
	if (mod) {
		d->text_delta = text_delta(dwfl_module_getelf(mod, &elf_bias));
		d->dw = dwfl_module_getdwarf(mod, &d->bias);
	}
	if (!d->dw) {
		probe_dwarf__close(d);
		return -ENODATA;
	}
	return 0;
}

void probe_dwarf__close(struct probe_dwarf *d)
{
	if (d->dwfl)
		dwfl_end(d->dwfl);
	memset(d, 0, sizeof(*d));
}
