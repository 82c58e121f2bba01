// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A symbol's instructions: its bytes read from the binary (the file the
 * symbols came from when it holds code, else the binary itself), decoded
 * by capstone, written as objdump -d writes them, with the targets of
 * direct jumps and calls named <sym+0xoff> and RIP-relative operands
 * followed by "# addr <sym>", and each instruction's source line from the
 * DWARF line table (lib/symbol's srclines).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <capstone/capstone.h>
#include <dwarf.h>
#include <ember/annotate.h>
#include "annotate/elf-syms.h"
#include "annotate/insn-text.h"
#include "annotate/kernel-code.h"
#include "core/arena.h"
#include "core/array.h"
#include "symbol/dso.h"
#include "symbol/dwfl-elf.h"

#define MAX_CHUNKS 8

/* A part of the symbol one section holds */
struct code_chunk {
	uint64_t off, len;
	const char *section;
};

struct ember_annotation {
	struct code_chunk chunks[MAX_CHUNKS];
	size_t nr_chunks;
	uint64_t addr;
	char *path;
	uint8_t *bytes;
	size_t nr_insns;
	struct ember_annotation_insn *insns;
	uint64_t sym_size;
	struct arena arena;		/* the texts */
	struct dso_ctx *ctx;		/* owned by the cache */
	struct ember_annotate_cache *own_cache;
	const char *label;
};

/*
 * The parts of [vaddr, vaddr + size) the file's sections hold, copied to
 * buf at their offsets, one chunk each (a symbol perf extends to the next
 * one may run from .init into .plt). 0, or -ENODATA: none, or code that
 * is not in the file (a debug file's SHT_NOBITS).
 */
static int read_code(struct ember_annotation *a, Elf *elf)
{
	uint64_t vaddr = a->addr, end = a->addr + a->sym_size;
	Elf_Scn *scn = NULL;
	size_t strndx = 0;
	Elf_Data *data;
	GElf_Shdr sh;

	elf_getshdrstrndx(elf, &strndx);
	a->nr_chunks = 0;
	while ((scn = elf_nextscn(elf, scn))) {
		uint64_t lo, hi;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || !sh.sh_size)
			continue;
		lo = sh.sh_addr > vaddr ? sh.sh_addr : vaddr;
		hi = sh.sh_addr + sh.sh_size < end ? sh.sh_addr + sh.sh_size : end;
		if (lo >= hi)
			continue;
		if (sh.sh_type == SHT_NOBITS || !(data = elf_getdata(scn, NULL)) || !data->d_buf ||
		    data->d_size < hi - sh.sh_addr || a->nr_chunks == MAX_CHUNKS)
			return -ENODATA;
		memcpy(a->bytes + (lo - vaddr), (const uint8_t *)data->d_buf + (lo - sh.sh_addr),
		       hi - lo);
		a->chunks[a->nr_chunks++] = (struct code_chunk){
			lo - vaddr, hi - lo, elf_strptr(elf, strndx, sh.sh_name) };
	}
	/* the symbol's start must be code of the file */
	return a->nr_chunks && !a->chunks[0].off ? 0 : -ENODATA;
}

/*
 * What every symbol of one dso needs, made once: the file its code is
 * read from (the file the symbols came from when it has code, a build-id
 * cache copy or the vdso; else the binary), the symbols objdump names
 * addresses after (the debug file's when there is one, unless no_source)
 * with its PLT entries, and the DWARF of its lines and functions.
 */
struct dso_ctx {
	const struct ember_dso *dso;
	bool no_source;
	int err;			/* 0, or why its symbols cannot be annotated */
	char *code_path;
	struct kernel_code kc;		/* the kernel's: a vmlinux's or /proc/kcore's */
	struct elf_syms syms;
	Dwfl *dwfl;			/* NULL: no DWARF */
	Dwfl_Module *mod;
	struct dwfl_elf_lines *lines;	/* line tables' units, for dwfl_elf__line_file_cached() */
};

struct ember_annotate_cache {
	struct dso_ctx **v;
	size_t nr, alloc;
};

/* Whether the file has code (a debug file's text is SHT_NOBITS). */
static bool has_code(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR) &&
		    sh.sh_type == SHT_PROGBITS && sh.sh_size)
			return true;
	return false;
}

static int first_module(Dwfl_Module *mod, void **userdata, const char *name, Dwarf_Addr start,
			void *arg)
{
	*(Dwfl_Module **)arg = mod;
	return DWARF_CB_ABORT;
}

/*
 * The kernel's: its code from a vmlinux (with its symbols, and DWARF when
 * it has some) or /proc/kcore (neither); -EOPNOTSUPP without either.
 */
static int dso_ctx__init_kernel(struct dso_ctx *c, struct ember_dso *dso,
				const struct ember_annotation_opts *o)
{
	struct elf_file code;
	int err = kernel_code__find(&c->kc, dso, o->vmlinux, o->ignore_vmlinux, NULL);

	if (err)
		return err;
	c->code_path = strdup(c->kc.path);
	if (!c->code_path)
		return -ENOMEM;
	if (c->kc.kcore)
		return 0;
	err = elf_file__open(&code, c->code_path);
	if (err)
		return err;
	err = elf_syms__load(&c->syms, code.elf);
	elf_file__close(&code);
	if (err && err != -ENODATA)
		return err;
	c->dwfl = o->no_source ? NULL : dwfl_elf__open(c->code_path);
	c->lines = dwfl_elf_lines__new();
	if (c->dwfl) {
		Dwfl_Module *m = NULL;

		dwfl_getmodules(c->dwfl, first_module, &m, 0);
		c->mod = m;
	}
	return 0;
}

static int dso_ctx__init(struct dso_ctx *c, struct ember_dso *dso,
			 const struct ember_annotation_opts *o)
{
	const char *src = ember_dso__symsrc_path(dso);
	struct elf_file code = { .fd = -1 }, syms = { .fd = -1 };
	bool no_source = o->no_source;
	char tmp[4096];
	int err;

	c->dso = dso;
	c->no_source = no_source;
	if (dso->kind == DSO_KIND_KERNEL)
		return dso_ctx__init_kernel(c, dso, o);
	if (src && *src && !elf_file__open(&syms, src) && has_code(syms.elf)) {
		code = syms;
		syms = (struct elf_file){ .fd = -1 };
		c->code_path = strdup(src);
	} else {
		sym_conf__path(dso->conf, tmp, sizeof(tmp), dso->name);
		err = elf_file__open(&code, tmp);
		if (err) {
			elf_file__close(&syms);
			/* a missing binary, or (with a debug file) one without code */
			return syms.elf || err != -ENOENT ? err : (src && *src ? -ENODATA : err);
		}
		c->code_path = strdup(tmp);
	}
	err = c->code_path ? 0 : -ENOMEM;
	/* objdump reads a debug file's symbols only with -S (perf's --source) */
	if (!err && syms.elf && !no_source)
		err = elf_syms__load(&c->syms, syms.elf);
	if (!err && !c->syms.syms)
		err = elf_syms__load(&c->syms, code.elf);
	if (err == -ENODATA)
		err = 0;
	if (!err)
		err = elf_syms__add_plt(&c->syms, code.elf);
	elf_file__close(&code);
	elf_file__close(&syms);
	if (!err && dso->kind != DSO_KIND_VDSO) {
		c->dwfl = dwfl_elf__open(src && *src ? src : c->code_path);
		c->lines = dwfl_elf_lines__new();
		c->mod = c->dwfl ? dwfl_addrmodule(c->dwfl, 0) : NULL;
		if (c->dwfl && !c->mod) {
			/* the module is the file's only one */
			Dwfl_Module *m = NULL;

			dwfl_getmodules(c->dwfl, first_module, &m, 0);
			c->mod = m;
		}
	}
	return err;
}

static void dso_ctx__delete(struct dso_ctx *c)
{
	if (!c)
		return;
	if (c->dwfl)
		dwfl_end(c->dwfl);
	dwfl_elf_lines__delete(c->lines);
	elf_syms__exit(&c->syms);
	kernel_code__exit(&c->kc);
	free(c->code_path);
	free(c);
}

struct ember_annotate_cache *ember_annotate_cache__new(void)
{
	return calloc(1, sizeof(struct ember_annotate_cache));
}

void ember_annotate_cache__delete(struct ember_annotate_cache *cache)
{
	if (!cache)
		return;
	for (size_t i = 0; i < cache->nr; i++)
		dso_ctx__delete(cache->v[i]);
	free(cache->v);
	free(cache);
}

/* The dso's context, made on first use; NULL on ENOMEM. */
static struct dso_ctx *dso_ctx__get(struct ember_annotate_cache *cache, struct ember_dso *dso,
				    const struct ember_annotation_opts *o)
{
	struct dso_ctx *c;

	for (size_t i = 0; i < cache->nr; i++)
		if (cache->v[i]->dso == dso && cache->v[i]->no_source == o->no_source)
			return cache->v[i];
	if (array__reserve((void **)&cache->v, &cache->alloc, cache->nr, sizeof(*cache->v)))
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->err = dso_ctx__init(c, dso, o);
	if (c->err == -ENOMEM) {
		dso_ctx__delete(c);
		return NULL;
	}
	cache->v[cache->nr++] = c;
	return c;
}

static int load_bytes(struct ember_annotation *a)
{
	struct elf_file code;
	int err = elf_file__open(&code, a->ctx->code_path);

	if (err)
		return err;
	if (a->ctx->kc.kcore) {
		/* perf hands objdump the bytes as a file of one .text section */
		err = kernel_code__read_core(code.elf, a->addr, a->bytes, a->sym_size);
		a->chunks[0] = (struct code_chunk){ 0, a->sym_size, ".text" };
		a->nr_chunks = !err;
	} else {
		err = read_code(a, code.elf);
	}
	/* section names live in the file: keep copies */
	for (size_t i = 0; !err && i < a->nr_chunks; i++)
		if (a->chunks[i].section &&
		    !(a->chunks[i].section = arena__strndup(&a->arena, a->chunks[i].section,
							    strlen(a->chunks[i].section))))
			err = -ENOMEM;
	elf_file__close(&code);
	return err;
}

/* "name" or "name+0xoff" of vaddr, as objdump names an address; NULL when none. */
/*
 * "name", "name+0xoff" or, below the symbol, "name-0xoff", kept in the
 * annotation's arena; NULL for no name. An offset above a symbol is
 * unsigned, as objdump writes it (one wrapping past 2^63 included).
 */
static const char *sym_off(struct ember_annotation *a, const char *name, uint64_t off, bool below)
{
	char tmp[512];

	if (!name)
		return NULL;
	if (off)
		snprintf(tmp, sizeof(tmp), "%s%c0x%" PRIx64, name, below ? '-' : '+', off);
	else
		snprintf(tmp, sizeof(tmp), "%s", name);
	return arena__strndup(&a->arena, tmp, strlen(tmp));
}

/* objdump's heading of a block starting at vaddr: "sym", "sym+0x10", "next@plt-0x10" */
static const char *label_of(struct ember_annotation *a, uint64_t vaddr)
{
	int64_t off = 0;
	const char *name = elf_syms__label(&a->ctx->syms, vaddr, &off);

	return sym_off(a, name, off < 0 ? -(uint64_t)off : (uint64_t)off, off < 0);
}

/* vaddr as objdump names it in an operand: a GOT slot after its relocation, else a symbol. */
static const char *name_of(struct ember_annotation *a, uint64_t vaddr)
{
	const char *name;
	uint64_t off = 0;
	int64_t soff = 0;

	if ((name = elf_syms__slot(&a->ctx->syms, vaddr, &soff)))
		return sym_off(a, name, soff < 0 ? -(uint64_t)soff : (uint64_t)soff, soff < 0);
	name = a->ctx->syms.syms ? elf_syms__name(&a->ctx->syms, vaddr, &off) : NULL;
	/* nothing below it (the PLT's first entry): objdump names it after the next one */
	if (!name && a->ctx->syms.syms)
		return label_of(a, vaddr);
	return sym_off(a, name, off, false);
}

static bool is_group(csh h, const cs_insn *in, int group)
{
	return cs_insn_group(h, in, (uint8_t)group);
}

static int format_insn(struct ember_annotation *a, struct ember_dso *dso, csh h, const cs_insn *in,
		       bool intel, struct ember_annotation_insn *out)
{
	const cs_x86 *x = &in->detail->x86;
	struct insn_text_in ti = {
		.mnemonic = in->mnemonic,
		.base = cs_insn_name(h, in->id),
		.ops = in->op_str,
		.intel = intel,
	};
	char target[600], text[1024], swapped[160];
	const char *comma;
	int64_t rip_disp = 0;
	bool rip = false;
	const char *name;
	size_t len;

	for (int i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];

		if (op->type == X86_OP_IMM && !ti.imm_size)
			ti.imm_size = op->size;
		/* a zero displacement that is encoded (disp8, disp32, or no base) */
		if (op->type == X86_OP_MEM && !op->mem.disp && op->mem.base != X86_REG_RIP &&
		    ((x->modrm >> 6) == 1 || (x->modrm >> 6) == 2 ||
		     op->mem.base == X86_REG_INVALID))
			ti.zero_disp = true;
		if (op->type == X86_OP_MEM && op->mem.base == X86_REG_RIP) {
			rip = true;
			rip_disp = op->mem.disp;
		}
	}
	ti.branch_or_stack = is_group(h, in, CS_GRP_JUMP) || is_group(h, in, CS_GRP_CALL) ||
			     is_group(h, in, CS_GRP_RET) || in->id == X86_INS_PUSH ||
			     in->id == X86_INS_POP;
	if ((is_group(h, in, CS_GRP_JUMP) || is_group(h, in, CS_GRP_CALL)) && x->op_count == 1 &&
	    x->operands[0].type == X86_OP_IMM) {
		out->has_target = true;
		out->is_call = is_group(h, in, CS_GRP_CALL);
		out->target = (uint64_t)x->operands[0].imm;
		name = name_of(a, out->target);
		if (name)
			snprintf(target, sizeof(target), "%" PRIx64 " <%s>", out->target, name);
		else
			snprintf(target, sizeof(target), "%" PRIx64, out->target);
		ti.target_text = target;
	}
	/* xchg's short form (91-97 with eAX): objdump writes the accumulator first */
	if (x->opcode[0] >= 0x91 && x->opcode[0] <= 0x97 && !strncmp(in->mnemonic, "xchg", 4) &&
	    (comma = strstr(ti.ops, ", "))) {
		snprintf(swapped, sizeof(swapped), "%s, %.*s", comma + 2, (int)(comma - ti.ops),
			 ti.ops);
		ti.ops = swapped;
	}
	/* shifts and rotates by an implicit 1 (D0, D1): objdump writes no count */
	if ((x->opcode[0] == 0xd0 || x->opcode[0] == 0xd1) && !strncmp(ti.ops, "$1, ", 4))
		ti.ops += 4;
	insn_text__format(text, sizeof(text), &ti);
	/* a shift by an implicit 1 in Intel syntax: objdump writes the count, decimal */
	len = strlen(text);
	if (intel && (x->opcode[0] == 0xd0 || x->opcode[0] == 0xd1) && len > 4 &&
	    !strcmp(text + len - 4, ",0x1"))
		memcpy(text + len - 3, "1", 2);
	/* string instructions and repeated nop prefixes: objdump's own spelling */
	if (!insn_text__string_op(text, sizeof(text), in->bytes, in->size, intel)) {
		size_t d = insn_text__data16(in->bytes, in->size);

		/* each "data16 " is 7 bytes, as many as the prefix bytes it stands for */
		if (d && d < 8 && strlen(text) + 7 * d < sizeof(text)) {
			memmove(text + 7 * d, text, strlen(text) + 1);
			for (size_t k = 0; k < d; k++)
				memcpy(text + 7 * k, "data16 ", 7);
		}
	}
	/*
	 * 66 90, the two-byte nop, is xchg %ax,%ax to objdump; capstone's movd
	 * of a 64-bit register is movq
	 */
	if (in->size == 2 && in->bytes[0] == 0x66 && in->bytes[1] == 0x90)
		snprintf(text, sizeof(text), "%s", intel ? "xchg   ax,ax" : "xchg   %ax,%ax");
	else if (!strncmp(text, "movd ", 5) && (strstr(text, "%r") || strstr(text, " r")))
		text[3] = 'q';
	len = strlen(text);
	if (rip) {
		uint64_t at = in->address + in->size + (uint64_t)rip_disp;

		name = name_of(a, at);
		if (name)
			snprintf(text + len, sizeof(text) - len, "        # %" PRIx64 " <%s>", at, name);
		else
			snprintf(text + len, sizeof(text) - len, "        # %" PRIx64, at);
		len = strlen(text);
	}
	out->text = arena__strndup(&a->arena, text, len);
	return out->text ? 0 : -ENOMEM;
}

/*
 * A function's or inlined call's name as binutils gives it: the linkage name demangled,
 * or the name.
 */
static const char *die_name(struct ember_annotation *a, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name = NULL;

	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr)) {
		char *d = ember_demangle(dwarf_formstring(&attr) ?: "", true);

		if (d) {
			name = arena__strndup(&a->arena, d, strlen(d));
			free(d);
			return name;
		}
		name = dwarf_formstring(&attr);
	}
	if (!name && dwarf_attr_integrate(die, DW_AT_name, &attr))
		name = dwarf_formstring(&attr);
	return name ? arena__strndup(&a->arena, name, strlen(name)) : NULL;
}

/*
 * The function objdump -l names for addr: the innermost function or
 * inlined call covering it (libdw's scopes at addr).
 */
static const char *function_of(struct ember_annotation *a, Dwfl_Module *mod, uint64_t addr)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, &bias), *scopes = NULL;
	const char *name = NULL;
	int n;

	if (!cu || (n = dwarf_getscopes(cu, addr - bias, &scopes)) <= 0)
		return NULL;
	for (int i = 0; i < n && !name; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine)
			name = die_name(a, &scopes[i]);
	}
	free(scopes);
	return name;
}

/*
 * The same for every instruction at once: the ranges of the function
 * holding the symbol's start and of the calls inlined into it, in the
 * order of their entries, walked once instead of libdw's scopes per instruction (a
 * function of glibc has thousands of instructions and its unit
 * thousands of entries).
 */
struct fn_range {
	uint64_t lo, hi;
	int depth;
	const char *name;
};

struct fn_ranges {
	struct fn_range *v;
	size_t nr, alloc;
};

static int add_ranges(struct ember_annotation *a, struct fn_ranges *r, Dwarf_Die *die, int depth,
		      Dwarf_Addr bias)
{
	Dwarf_Addr base, lo, hi;
	const char *name = die_name(a, die);
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (array__reserve((void **)&r->v, &r->alloc, r->nr, sizeof(*r->v)))
			return -ENOMEM;
		r->v[r->nr++] = (struct fn_range){ lo + bias, hi + bias, depth, name };
	}
	return 0;
}

static int walk_inlines(struct ember_annotation *a, struct fn_ranges *r, Dwarf_Die *parent,
			int depth, Dwarf_Addr bias)
{
	Dwarf_Die child;
	int err = 0;

	if (dwarf_child(parent, &child))
		return 0;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_inlined_subroutine || tag == DW_TAG_subprogram) {
			err = add_ranges(a, r, &child, depth + 1, bias);
			if (!err)
				err = walk_inlines(a, r, &child, depth + 1, bias);
		} else if (tag == DW_TAG_lexical_block) {
			err = walk_inlines(a, r, &child, depth, bias);
		}
	} while (!err && !dwarf_siblingof(&child, &child));
	return err;
}

/* The functions of the symbol's instructions, into src_function. */
static int add_functions(struct ember_annotation *a, Dwfl_Module *mod)
{
	struct fn_ranges r = { 0 };
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(mod, a->addr, &bias), *scopes = NULL, *top = NULL;
	int n = cu ? dwarf_getscopes(cu, a->addr - bias, &scopes) : 0, err = 0;

	for (int i = 0; i < n; i++)
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram)
			top = &scopes[i];
	if (top) {
		Dwarf_Die child;

		/*
		 * every function of the unit at the symbol's start, in the
		 * unit's order: an assembler's aliases are functions of the
		 * same range, and binutils names the later one
		 */
		bool top_added = false;

		if (dwarf_child(cu, &child) == 0) {
			do {
				bool is_top = dwarf_dieoffset(&child) == dwarf_dieoffset(top);

				top_added |= is_top;
				if (is_top || (dwarf_tag(&child) == DW_TAG_subprogram &&
					       dwarf_haspc(&child, a->addr - bias) == 1))
					err = add_ranges(a, &r, &child, 0, bias);
			} while (!err && dwarf_siblingof(&child, &child) == 0);
		}
		/* a function nested deeper (in a namespace): itself only */
		if (!err && !top_added)
			err = add_ranges(a, &r, top, 0, bias);
		if (!err)
			err = walk_inlines(a, &r, top, 0, bias);
	}
	for (size_t i = 0; !err && i < a->nr_insns; i++) {
		struct ember_annotation_insn *in = &a->insns[i];
		const struct fn_range *best = NULL;

		/* binutils' choice: the smallest range holding it, the later entry on a tie */
		for (size_t j = 0; j < r.nr; j++)
			if (in->addr >= r.v[j].lo && in->addr < r.v[j].hi &&
			    (!best || r.v[j].hi - r.v[j].lo <= best->hi - best->lo))
				best = &r.v[j];
		in->src_function = best ? best->name : function_of(a, mod, in->addr);
	}
	free(scopes);
	free(r.v);
	return err;
}

/*
 * Source lines as objdump -l names them: libdw's file name of the line
 * table row (the directory joined to a relative name), its line, and
 * " (discriminator N)" where the row has one.
 */
static int add_source(struct ember_annotation *a)
{
	Dwfl_Module *mod = a->ctx->mod;
	const char *prev = NULL, *prev_name = NULL;

	/*
	 * no DWARF: objdump -l names the function of each address from the
	 * symbol table it was given, .symtab (not .dynsym: none then)
	 */
	if (!ember_annotation__has_dwarf(a)) {
		for (size_t i = 0; a->ctx->syms.from_symtab && i < a->nr_insns; i++) {
			uint64_t off;

			a->insns[i].src_function =
				elf_syms__name(&a->ctx->syms, a->insns[i].addr, &off);
		}
		return 0;
	}
	if (add_functions(a, mod))
		return -ENOMEM;
	for (size_t i = 0; mod && i < a->nr_insns; i++) {
		struct ember_annotation_insn *in = &a->insns[i];
		Dwfl_Line *l = dwfl_module_getsrc(mod, in->addr);
		unsigned int disc = 0;
		Dwarf_Addr bias;
		Dwarf_Line *dl;
		const char *name, *comp_dir;
		Dwarf_Attribute attr;
		Dwarf_Die *cu;
		char tmp[4096];
		int line = 0;

		if (!l || !(name = dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL)))
			continue;
		/* binutils' name for rows before a sequence's first set_file (lib/symbol's rule) */
		name = dwfl_elf__line_file_cached(a->ctx->lines, l, name);
		dl = dwfl_dwarf_line(l, &bias);
		if (dl)
			dwarf_linediscriminator(dl, &disc);
		in->src_line = line > 0 ? (unsigned int)line : 0;
		in->src_discriminator = disc;
		if (prev_name && !strcmp(prev_name, name)) {
			in->src_file = prev;
			continue;
		}
		/* binutils joins a name still relative to the unit's directory */
		comp_dir = NULL;
		if (name[0] != '/' && (cu = dwfl_linecu(l)) &&
		    dwarf_attr(cu, DW_AT_comp_dir, &attr))
			comp_dir = dwarf_formstring(&attr);
		if (comp_dir)
			snprintf(tmp, sizeof(tmp), "%s/%s", comp_dir, name);
		else
			snprintf(tmp, sizeof(tmp), "%s", name);
		in->src_file = arena__strndup(&a->arena, tmp, strlen(tmp));
		if (!in->src_file)
			return -ENOMEM;
		prev = in->src_file;
		prev_name = in->src_file;
	}
	return 0;
}

static int disassemble_chunk(struct ember_annotation *a, struct ember_dso *dso, csh h,
			     bool intel, const struct code_chunk *c, size_t *alloc)
{
	uint64_t off = c->off, end = c->off + c->len;
	size_t first = a->nr_insns;
	cs_insn *insns = NULL;
	int err = 0;

	while (off < end && !err) {
		size_t n = cs_disasm(h, a->bytes + off, end - off, a->addr + off, 0, &insns);

		/* room for the n decoded and one "(bad)" byte */
		while (!err && a->nr_insns + n + 1 > *alloc)
			err = array__reserve((void **)&a->insns, alloc, *alloc, sizeof(*a->insns));
		for (size_t i = 0; i < n && !err; i++) {
			struct ember_annotation_insn *in = &a->insns[a->nr_insns++];

			memset(in, 0, sizeof(*in));
			in->addr = insns[i].address;
			in->offset = in->addr - a->addr;
			in->size = insns[i].size;
			in->bytes = a->bytes + in->offset;
			err = format_insn(a, dso, h, &insns[i], intel, in);
			off = in->offset + in->size;
		}
		cs_free(insns, n);
		if (err || off >= end)
			break;
		/* bytes capstone cannot decode: one "(bad)" byte, as objdump */
		struct ember_annotation_insn *bad = &a->insns[a->nr_insns++];

		memset(bad, 0, sizeof(*bad));
		bad->addr = a->addr + off;
		bad->offset = off;
		bad->size = 1;
		bad->bytes = a->bytes + off;
		bad->text = "(bad)";
		off++;
	}
	/* the first instruction's too: objdump's banner names its section (.init for _init) */
	if (!err && a->nr_insns > first)
		a->insns[first].section = c->section;
	return err;
}

static int disassemble(struct ember_annotation *a, struct ember_dso *dso, bool intel)
{
	size_t alloc = 0;
	csh h;
	int err = 0;

	if (cs_open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK)
		return -EOPNOTSUPP;
	cs_option(h, CS_OPT_SYNTAX, intel ? CS_OPT_SYNTAX_INTEL : CS_OPT_SYNTAX_ATT);
	cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
	for (size_t i = 0; i < a->nr_chunks && !err; i++)
		err = disassemble_chunk(a, dso, h, intel, &a->chunks[i], &alloc);
	cs_close(&h);
	/* objdump labels every symbol that starts inside the range */
	for (size_t i = 1; !err && i < a->nr_insns; i++) {
		uint64_t off = 1;
		const char *name = elf_syms__name(&a->ctx->syms, a->insns[i].addr, &off);

		if (a->insns[i].section || (name && !off))
			a->insns[i].label = label_of(a, a->insns[i].addr);
	}
	return err;
}

struct ember_annotation *ember_annotation__new(struct ember_dso *dso,
					       const struct ember_symbol *sym,
					       const struct ember_annotation_opts *opts)
{
	struct ember_annotation_opts o = { 0 };
	struct ember_annotate_cache *cache;
	struct ember_annotation *a;
	int err;

	if (!opts || !opts->sz) {
		errno = EINVAL;
		return NULL;
	}
	memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	if (dso->kind != DSO_KIND_USER && dso->kind != DSO_KIND_VDSO &&
	    dso->kind != DSO_KIND_KERNEL) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	cache = o.cache;
	if (!cache && !(cache = a->own_cache = ember_annotate_cache__new())) {
		err = -ENOMEM;
		goto out_err;
	}
	a->ctx = dso_ctx__get(cache, dso, &o);
	if (!a->ctx) {
		err = -ENOMEM;
		goto out_err;
	}
	if (a->ctx->err) {
		err = a->ctx->err;
		goto out_err;
	}
	/* a vmlinux's addresses are the kernel's before KASLR moved it */
	a->addr = ember_dso__addr_to_vaddr(dso, ember_symbol__start(sym)) - a->ctx->kc.reloc;
	a->sym_size = ember_symbol__end(sym) - ember_symbol__start(sym);
	a->bytes = malloc(a->sym_size ? a->sym_size : 1);
	if (!a->bytes) {
		err = -ENOMEM;
		goto out_err;
	}
	err = a->sym_size ? load_bytes(a) : -ENODATA;
	if (!err) {
		a->label = label_of(a, a->addr);
		err = disassemble(a, dso, o.intel);
	}
	if (!err)
		err = add_source(a);
	if (!err)
		return a;
out_err:
	ember_annotation__delete(a);
	errno = -err;
	return NULL;
}

void ember_annotation__delete(struct ember_annotation *a)
{
	if (!a)
		return;
	arena__exit(&a->arena);
	ember_annotate_cache__delete(a->own_cache);
	free(a->insns);
	free(a->bytes);
	free(a);
}

uint64_t ember_annotation__addr(const struct ember_annotation *a)
{
	return a->addr;
}

const char *ember_annotation__label(const struct ember_annotation *a)
{
	return a->label;
}

const char *ember_annotation__path(const struct ember_annotation *a)
{
	return a->ctx ? a->ctx->code_path : NULL;
}

bool ember_annotation__has_dwarf(const struct ember_annotation *a)
{
	Dwarf_Addr bias;

	return a->ctx && a->ctx->mod && dwfl_module_getdwarf(a->ctx->mod, &bias);
}

size_t ember_annotation__nr_insns(const struct ember_annotation *a)
{
	return a->nr_insns;
}

const struct ember_annotation_insn *ember_annotation__insn(const struct ember_annotation *a,
							  size_t idx)
{
	return idx < a->nr_insns ? &a->insns[idx] : NULL;
}

void ember_annotation__sum(const struct ember_annotation *a, size_t idx,
			   const struct ember_annotate_hist *hist, uint32_t event, uint64_t *nr,
			   uint64_t *period)
{
	uint64_t from, to;

	*nr = 0;
	*period = 0;
	if (idx >= a->nr_insns)
		return;
	from = a->insns[idx].offset;
	to = idx + 1 < a->nr_insns ? a->insns[idx + 1].offset : a->sym_size;
	ember_annotate_hist__range(hist, event, from, to, nr, period);
}
