/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The x86_64 frame rules at a pc, read once from libdw's CFI and kept
 * per (file, pc), for the unwinder's own walk (unwind.c): libdwfl parses
 * the CFA program of the FDE again at every frame of every sample
 * (dwarf_cfi_addrframe() in its handle_cfi()), most of its time on a
 * dwarf file whose stacks repeat.
 *
 * A rule holds what libdwfl's handle_cfi() would evaluate for each of
 * the 17 registers (DWARF 0-16, the return address in 16), in the forms
 * dwarf_frame_register() and dwarf_frame_cfa() hand out for .eh_frame's
 * common programs: the CFA as a register plus an offset, each register
 * undefined, the same value, saved at CFA + N, CFA + N itself, or
 * another register's value. A pc whose rule is anything else (no FDE, a
 * DWARF expression, a signal frame, a return address column other than
 * 16) is not kept in these forms: the walk leaves it to libdwfl.
 */
#ifndef EMBER_LIB_UNWIND_CFI_RULES_H
#define EMBER_LIB_UNWIND_CFI_RULES_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdint.h>
#include "core/hashtab.h"

/* The registers an x86_64 frame has (libebl's frame_nregs): DWARF 0-16. */
#define CFI_NREGS 17
/* The return address column (rip) of x86_64's CIEs. */
#define CFI_RA 16

/* How a register of the caller's frame is found (libdwfl's handle_cfi() cases). */
enum cfi_how {
	CFI_UNSET,	/* the rule fails: left unset (libdwfl goes on without it) */
	CFI_UNDEFINED,	/* undefined: for the return address, the end of the stack */
	CFI_SAME,	/* the callee's value, if it has one */
	CFI_AT_CFA,	/* the word at CFA + off */
	CFI_CFA_VAL,	/* CFA + off */
	CFI_REG,	/* the callee's register off, if it has it */
};

/* A register found from the CFA or another register (CFI_AT_CFA, CFI_CFA_VAL, CFI_REG). */
struct cfi_reg_rule {
	uint8_t reg, how;
	int64_t off;		/* from the CFA, or the register whose value it takes */
};

/*
 * The rule at a pc, in the form its evaluation wants: the registers that
 * keep the callee's value as a mask, the few computed ones as a list
 * (each register's result depends on the callee's frame alone, so the
 * order libdwfl takes them in does not matter), the undefined and
 * failing ones nowhere (they are left unset).
 */
struct cfi_rule {
	bool walkable;		/* false: libdwfl unwinds this pc (see above) */
	bool ra_undefined;	/* the return address is undefined: the stack ends */
	uint8_t cfa_reg;	/* CFA = callee's cfa_reg + cfa_off; CFI_NREGS: no CFA */
	uint8_t nr_computed;
	uint32_t same;		/* bit i: register i is CFI_SAME */
	int64_t cfa_off;
	struct cfi_reg_rule computed[CFI_NREGS];
};

/* Rules by (file, pc); distinct rules kept once. A zeroed struct is empty. */
struct cfi_rules {
	struct hashtab by_pc;		/* (file, pc) → index + 1 into rules; key in the payload */
	struct hashtab by_rule;		/* the rules' contents → index + 1, to keep each once */
	struct cfi_rule *rules;
	size_t nr, alloc;
};

/*
 * The rule at pc (an address of the CFI's own file, bias taken off) of
 * cfi, which belongs to the file file names (any pointer that stays
 * unique to that file for the cache's life). Read on the first asking,
 * then found in the cache. NULL on ENOMEM.
 */
const struct cfi_rule *cfi_rules__find(struct cfi_rules *c, const void *file, Dwarf_CFI *cfi,
				       uint64_t pc);

/* Frees what the cache holds; it is empty and reusable. */
void cfi_rules__exit(struct cfi_rules *c);

#endif
