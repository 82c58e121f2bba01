/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* An instruction's text as objdump -d prints it, from capstone's mnemonic and operands. */
#ifndef EMBER_ANNOTATE_INSN_TEXT_H
#define EMBER_ANNOTATE_INSN_TEXT_H

#include <stdbool.h>
#include <stddef.h>

struct insn_text_in {
	const char *mnemonic;		/* capstone's ("movq", "rep stosq") */
	const char *base;		/* the instruction's name without suffix ("mov") */
	const char *ops;		/* capstone's operands ("0x2eb0(%rip), %rdx") */
	unsigned int imm_size;		/* bytes of the immediate operand, 0: none */
	bool intel;
	bool zero_disp;			/* a displacement of 0 is encoded: objdump writes 0x0 */
	bool branch_or_stack;		/* call, jmp, ret, push, pop: objdump never suffixes them */
	const char *target_text;	/* "1171 <hot_a+0x5>" replaces the operands, or NULL */
};

/* Writes the text into buf (always terminated, cut at size). */
void insn_text__format(char *buf, size_t size, const struct insn_text_in *in);

/*
 * The string instructions (movs, cmps, stos, lods, scas: one opcode byte
 * A4-AF after its prefixes) as objdump writes them, their segments and
 * implicit operands spelled out ("rep stos %rax,%es:(%rdi)"): 1 with the
 * text in buf, 0 for another instruction. bytes: the whole instruction.
 */
int insn_text__string_op(char *buf, size_t size, const unsigned char *bytes, size_t len,
			 bool intel);
/*
 * objdump's "data16 " for each operand-size prefix (66) a multi-byte nop
 * repeats before the one it uses: how many bytes of prefix it writes
 * that way (0: none).
 */
size_t insn_text__data16(const unsigned char *bytes, size_t len);

#endif
