// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A binary's DWARF for probes: opened once through libdwfl (the file at
 * its own addresses, separate debug information found as perf finds it,
 * by build-id under /usr/lib/debug or .gnu_debuglink), the file offsets
 * of uprobes turned into DWARF addresses, the function scope at an
 * address, and frame bases from the call frame information.
 */
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>
#include <ember/probe.h>
#include "probe/dwarf-file.h"
#include "symbol/dwfl-elf.h"
#include "symbol/symbol-elf.h"

static int first_module(Dwfl_Module *mod, void **userdata, const char *name, Dwarf_Addr start,
			void *arg)
{
	*(Dwfl_Module **)arg = mod;
	return DWARF_CB_ABORT;
}

/* Whether the unit list holds a unit with debugging entries (not a stub). */
static bool has_units(Dwarf *dw)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	return dw && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0;
}

/* perf's text start of a binary: where .text's addresses and file offsets part. */
static uint64_t text_delta(Elf *elf)
{
	GElf_Shdr sh;

	return elf__section_by_name(elf, ".text", &sh) ? sh.sh_addr - sh.sh_offset : 0;
}

static bool has_eh_frame(Elf *elf)
{
	GElf_Shdr sh;

	return elf && elf__section_by_name(elf, ".eh_frame", &sh) && sh.sh_type == SHT_PROGBITS;
}

struct ember_probe_dwarf *ember_probe_dwarf__open(const char *path)
{
	struct ember_probe_dwarf *d = calloc(1, sizeof(*d));
	int err = ENODATA;

	if (!d)
		return NULL;
	if (access(path, R_OK)) {
		err = errno;
		goto fail;
	}
	/* not an ELF file: no debug information either, as perf says */
	d->dwfl = dwfl_elf__open(path);
	if (!d->dwfl)
		goto fail;
	dwfl_getmodules(d->dwfl, first_module, &d->mod, 0);
	if (!d->mod)
		goto fail;
	d->elf = dwfl_module_getelf(d->mod, &d->elf_bias);
	d->dw = dwfl_module_getdwarf(d->mod, &d->dw_bias);
	if (!d->elf || !has_units(d->dw))
		goto fail;
	d->text_delta = text_delta(d->elf);
	/*
	 * perf's call frame information: the .eh_frame of the file the DWARF
	 * is in (none in a separate debug file, where it is NOBITS), and its
	 * .debug_frame. Without either, a frame base of DW_OP_call_frame_cfa
	 * stays unread, and what lives on the stack has no place (perf's).
	 */
	if (has_eh_frame(dwarf_getelf(d->dw)))
		d->cfi_eh = dwarf_getcfi_elf(dwarf_getelf(d->dw));
	d->cfi_dbg = dwarf_getcfi(d->dw);
	return d;
fail:
	ember_probe_dwarf__delete(d);
	errno = err;
	return NULL;
}

void ember_probe_dwarf__delete(struct ember_probe_dwarf *d)
{
	if (!d)
		return;
	/* the .eh_frame CFI is ours; libdw frees .debug_frame's with the Dwarf */
	if (d->cfi_eh)
		dwarf_cfi_end(d->cfi_eh);
	if (d->dwfl)
		dwfl_end(d->dwfl);
	arena__exit(&d->strings);
	free(d);
}

int probe_dwarf__open(struct ember_probe_dwarf **d, const char *path)
{
	*d = ember_probe_dwarf__open(path);
	return *d ? 0 : -errno;
}

int probe_dwarf__addr(const struct ember_probe_dwarf *d, uint64_t off, Dwarf_Addr *addr)
{
	size_t n;

	if (elf_getphdrnum(d->elf, &n))
		return -ERANGE;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(d->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (off < ph.p_offset || off - ph.p_offset >= ph.p_filesz)
			continue;
		*addr = off - ph.p_offset + ph.p_vaddr + d->elf_bias - d->dw_bias;
		return 0;
	}
	return -ERANGE;
}

/* Where functions are defined: a unit, or a namespace or class within one. */
static bool holds_functions(int tag)
{
	return tag == DW_TAG_compile_unit || tag == DW_TAG_partial_unit ||
	       tag == DW_TAG_namespace || tag == DW_TAG_module || tag == DW_TAG_class_type ||
	       tag == DW_TAG_structure_type;
}

/* perf's die_find_realfunc(): the function definition (not inlined) holding addr. */
static bool find_real_function(Dwarf_Die *parent, Dwarf_Addr addr, Dwarf_Die *out)
{
	Dwarf_Die child;

	if (dwarf_child(parent, &child))
		return false;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_subprogram && dwarf_haspc(&child, addr) == 1) {
			*out = child;
			return true;
		}
		if (holds_functions(tag) && find_real_function(&child, addr, out))
			return true;
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

/*
 * The innermost inlined call named func that holds addr, inside scope
 * (through its blocks and inlined calls); false when there is none.
 */
static bool find_inlined(Dwarf_Die *scope, Dwarf_Addr addr, const char *func, Dwarf_Die *out)
{
	Dwarf_Die child;
	bool found = false;

	if (dwarf_child(scope, &child))
		return false;
	do {
		int tag = dwarf_tag(&child);
		const char *name;

		if ((tag != DW_TAG_inlined_subroutine && tag != DW_TAG_lexical_block) ||
		    dwarf_haspc(&child, addr) != 1)
			continue;
		name = tag == DW_TAG_inlined_subroutine ? dwarf_diename(&child) : NULL;
		if (name && !strcmp(name, func)) {
			*out = child;
			found = true;
		}
		/* deeper is more inner: it wins */
		if (find_inlined(&child, addr, func, out))
			return true;
		return found;
	} while (dwarf_siblingof(&child, &child) == 0);
	return found;
}

int probe_dwarf__scope(struct ember_probe_dwarf *d, Dwarf_Addr addr, const char *func,
		       Dwarf_Die *cu, Dwarf_Die *scope, Dwarf_Die *sp)
{
	const char *name;

	if (!dwarf_addrdie(d->dw, addr, cu) || !find_real_function(cu, addr, sp))
		return -ENOENT;
	*scope = *sp;
	name = dwarf_diename(sp);
	/* the probed function's scope: itself, or its copy inlined here */
	if (func && (!name || strcmp(name, func)))
		find_inlined(sp, addr, func, scope);
	return 0;
}

int probe_dwarf__frame_base(struct ember_probe_dwarf *d, Dwarf_Die *sp, Dwarf_Addr addr,
			    Dwarf_Op **ops, size_t *nops)
{
	Dwarf_Attribute attr;
	Dwarf_Frame *frame = NULL;
	Dwarf_Op *cfa;
	size_t ncfa;
	Dwarf_Op *copy;

	*ops = NULL;
	*nops = 0;
	if (!dwarf_attr(sp, DW_AT_frame_base, &attr) ||
	    dwarf_getlocation_addr(&attr, addr, ops, nops, 1) <= 0 || *nops == 0) {
		*ops = NULL;
		*nops = 0;
		return 0;
	}
	if (*nops != 1 || (*ops)[0].atom != DW_OP_call_frame_cfa || (!d->cfi_eh && !d->cfi_dbg))
		return 0;
	/* .eh_frame first, then .debug_frame (perf's order) */
	if ((!d->cfi_eh || dwarf_cfi_addrframe(d->cfi_eh, addr, &frame)) &&
	    (!d->cfi_dbg || dwarf_cfi_addrframe(d->cfi_dbg, addr, &frame)))
		return -ENOENT;
	if (dwarf_frame_cfa(frame, &cfa, &ncfa)) {
		free(frame);
		return -ENOENT;
	}
	/* the rule lives in the frame: keep a copy */
	copy = arena__alloc(&d->strings, ncfa * sizeof(*copy) + 1, _Alignof(Dwarf_Op));
	if (copy)
		memcpy(copy, cfa, ncfa * sizeof(*copy));
	free(frame);
	if (!copy)
		return -ENOMEM;
	*ops = copy;
	*nops = ncfa;
	return 0;
}
