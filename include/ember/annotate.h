/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Annotation, as perf annotate shows it: the instructions of a symbol,
 * each with the samples that hit it, and the source lines behind them.
 *
 *   session samples ──ember_annotate_hists__add()──> per symbol, the
 *        period and samples of each address, per event
 *   dso + symbol ──ember_annotation__new()──> the instructions
 *        (capstone, text as objdump -d prints it), jump and call
 *        targets, source file and line of each (libdw)
 *   ember_annotation__sum() ──> what an instruction got of a histogram
 *
 * Printing is the caller's (ember annotate --stdio, a TUI).
 */
#ifndef EMBER_ANNOTATE_H
#define EMBER_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ember/common.h>
#include <ember/machine.h>
#include <ember/symbol.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- samples per address of each symbol ------------------------------------ */

struct ember_annotate_hists;
struct ember_annotate_hist;

/* Empty histograms for nr_events events; NULL with errno ENOMEM. Free with __delete(). */
EMBER_API struct ember_annotate_hists *ember_annotate_hists__new(uint32_t nr_events);
/* Frees every symbol's histogram; NULL is fine. */
EMBER_API void ember_annotate_hists__delete(struct ember_annotate_hists *h);
/*
 * Counts one sample of event (< nr_events) with its period at al->addr
 * in al->sym of al->dso. A location without a symbol is not counted
 * (returns 0). 0, -EINVAL (event out of range) or -ENOMEM.
 */
EMBER_API int ember_annotate_hists__add(struct ember_annotate_hists *h,
					const struct ember_addr_location *al, uint32_t event,
					uint64_t period);
/* The histogram of sym in dso, NULL when no sample hit it. Owned by h. */
EMBER_API const struct ember_annotate_hist *
ember_annotate_hists__find(const struct ember_annotate_hists *h, const struct ember_dso *dso,
			   const struct ember_symbol *sym);
/* All of the symbol's samples and their period, for event. */
EMBER_API uint64_t ember_annotate_hist__nr_samples(const struct ember_annotate_hist *hist,
						   uint32_t event);
EMBER_API uint64_t ember_annotate_hist__period(const struct ember_annotate_hist *hist,
					       uint32_t event);
/*
 * Samples and period of event at offsets [from, to) from the symbol's
 * start, added into *nr and *period.
 */
EMBER_API void ember_annotate_hist__range(const struct ember_annotate_hist *hist, uint32_t event,
					  uint64_t from, uint64_t to, uint64_t *nr,
					  uint64_t *period);

/* ---- a symbol's instructions ------------------------------------------------- */

/*
 * What the annotations of one dso share (its symbol names, its DWARF),
 * kept across ember_annotation__new() calls given the same cache: a
 * whole-file annotate reads each binary's debug information once.
 */
struct ember_annotate_cache;

/* An empty cache; NULL on ENOMEM. Delete it after the annotations made with it. */
EMBER_API struct ember_annotate_cache *ember_annotate_cache__new(void);
EMBER_API void ember_annotate_cache__delete(struct ember_annotate_cache *cache);

struct ember_annotation_opts {
	size_t sz;			/* sizeof(struct ember_annotation_opts) */
	bool intel;			/* -M intel; AT&T otherwise */
	/*
	 * No source text: perf --no-source, whose objdump then names addresses
	 * after the binary's own symbols.
	 */
	bool no_source;
	/* Shared with other annotations (must outlive them); NULL: the annotation's own. */
	struct ember_annotate_cache *cache;
	/*
	 * The kernel's code: this vmlinux (perf -k); NULL: one with the
	 * kernel's build-id from the build-id cache or perf's vmlinux path,
	 * else /proc/kcore. ignore_vmlinux: /proc/kcore only.
	 */
	const char *vmlinux;
	bool ignore_vmlinux;
};

/* One instruction. Read-only; owned by the annotation. */
struct ember_annotation_insn {
	uint64_t addr;			/* as objdump prints it (ELF virtual address) */
	uint64_t offset;		/* from the symbol's start */
	uint32_t size;			/* bytes */
	const uint8_t *bytes;
	const char *text;		/* "mov    0x2eb0(%rip),%rdx        # 4028 <sink>" */
	uint64_t target;		/* a direct jump's or call's target address */
	bool has_target;
	bool is_call;			/* target is a call's, not a jump's */
	/* The source line as objdump -l names it (the line table's directory and file) */
	const char *src_file;		/* NULL: not known */
	unsigned int src_line;		/* 0: not known */
	unsigned int src_discriminator;	/* 0: none */
	/* its function or inlined call (the symbol table's without DWARF); NULL: unknown */
	const char *src_function;
	/*
	 * objdump's headings before it: a new section ("Disassembly of section
	 * .plt:"; the first instruction's is the banner's), a label
	 */
	const char *section;		/* NULL: the section goes on */
	const char *label;		/* a symbol starts here (or a section does): its name */
};

struct ember_annotation;

/*
 * Disassembles sym of dso (x86-64) from the binary it was loaded from.
 * NULL with errno: ENOENT (the binary is not there), ENODATA (no bytes
 * for the symbol: a stripped or debug-only file, a symbol outside the
 * file's sections), EOPNOTSUPP (the kernel, a JIT map, or a machine
 * capstone cannot decode here), EINVAL (no sz), ENOMEM. Free with
 * ember_annotation__delete().
 */
EMBER_API struct ember_annotation *ember_annotation__new(struct ember_dso *dso,
							  const struct ember_symbol *sym,
							  const struct ember_annotation_opts *opts);
EMBER_API void ember_annotation__delete(struct ember_annotation *a);
/* The symbol's address as objdump prints it, and the file its bytes came from. */
EMBER_API uint64_t ember_annotation__addr(const struct ember_annotation *a);
/* The name objdump labels the symbol's start with (its symbol table's, versioned); NULL: none. */
EMBER_API const char *ember_annotation__label(const struct ember_annotation *a);
EMBER_API const char *ember_annotation__path(const struct ember_annotation *a);
/*
 * Whether the binary has DWARF for the instructions' source lines and
 * functions; without, each instruction's src_function is the symbol
 * table's function holding it, as objdump -l names it then.
 */
EMBER_API bool ember_annotation__has_dwarf(const struct ember_annotation *a);
/* Instructions in address order: idx in [0, ember_annotation__nr_insns()). */
EMBER_API size_t ember_annotation__nr_insns(const struct ember_annotation *a);
EMBER_API const struct ember_annotation_insn *
ember_annotation__insn(const struct ember_annotation *a, size_t idx);
/*
 * What instruction idx got of event in hist: the samples at its bytes
 * (and, as perf counts them, at any address up to the next instruction).
 */
EMBER_API void ember_annotation__sum(const struct ember_annotation *a, size_t idx,
				     const struct ember_annotate_hist *hist, uint32_t event,
				     uint64_t *nr, uint64_t *period);

#ifdef __cplusplus
}
#endif

#endif
