// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Frame rules read from libdw's CFI once per (file, pc) (see cfi-rules.h):
 * the operations dwarf_frame_cfa() and dwarf_frame_register() give are
 * read back into the cases libdwfl's handle_cfi() and expr_eval() make of
 * them, so that evaluating a rule (unwind.c) is what libdwfl does.
 */
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/array.h"
#include "core/hash.h"
#include "unwind/cfi-rules.h"

/* The by_pc payload: the key. */
struct pc_key {
	const void *file;
	uint64_t pc;
};

/* The CFA's operations: one DW_OP_breg* (execute_cfi()'s cfa_offset rule), else not walkable. */
static void read_cfa(struct cfi_rule *r, Dwarf_Frame *frame)
{
	Dwarf_Op *ops;
	size_t nops;
	uint64_t reg;
	int64_t off;

	/* an error, or no CFA: expr_eval() fails for every rule that needs it */
	if (dwarf_frame_cfa(frame, &ops, &nops) != 0 || !nops)
		return;
	if (nops == 1 && ops[0].atom == DW_OP_bregx) {
		reg = ops[0].number;
		off = (int64_t)ops[0].number2;
	} else if (nops == 1 && ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		reg = ops[0].atom - DW_OP_breg0;
		off = (int64_t)ops[0].number;
	} else {
		/* an expression: libdwfl's to evaluate */
		r->walkable = false;
		return;
	}
	/* a register libdwfl's frames do not hold reads as unset: no CFA then */
	if (reg < CFI_NREGS) {
		r->cfa_reg = (uint8_t)reg;
		r->cfa_off = off;
	}
}

/* Register regno's rule, as handle_cfi() reads dwarf_frame_register()'s answer. */
static void read_reg(struct cfi_rule *r, Dwarf_Frame *frame, int regno)
{
	Dwarf_Op mem[3], *ops;
	size_t nops, i = 0;
	struct cfi_reg_rule c = { .reg = (uint8_t)regno };

	/* an error: left unset */
	if (dwarf_frame_register(frame, regno, mem, &ops, &nops) != 0)
		return;
	if (!nops) {
		if (ops == mem)
			r->ra_undefined |= regno == CFI_RA;
		else if (!ops)
			r->same |= 1U << regno;
		return;
	}
	if (nops == 1 && ops[0].atom == DW_OP_regx) {
		/* a register outside the frame's reads as unset */
		if (ops[0].number >= CFI_NREGS)
			return;
		c.how = CFI_REG;
		c.off = (int64_t)ops[0].number;
		r->computed[r->nr_computed++] = c;
		return;
	}
	/* DW_OP_call_frame_cfa [DW_OP_plus_uconst N] [DW_OP_stack_value] */
	if (ops[i].atom != DW_OP_call_frame_cfa) {
		r->walkable = false;
		return;
	}
	i++;
	if (i < nops && ops[i].atom == DW_OP_plus_uconst)
		c.off = (int64_t)ops[i++].number;
	if (i == nops) {
		c.how = CFI_AT_CFA;
	} else if (i + 1 == nops && ops[i].atom == DW_OP_stack_value) {
		c.how = CFI_CFA_VAL;
	} else {
		r->walkable = false;
		return;
	}
	r->computed[r->nr_computed++] = c;
}

/* The rule at pc, read from cfi; not walkable where it is not in the forms kept. */
static void read_rule(struct cfi_rule *r, Dwarf_CFI *cfi, uint64_t pc)
{
	Dwarf_Frame *frame;
	Dwarf_Addr start, end;
	bool signal = false;

	memset(r, 0, sizeof(*r));
	r->cfa_reg = CFI_NREGS;
	if (dwarf_cfi_addrframe(cfi, pc, &frame) != 0)
		return;
	r->walkable = dwarf_frame_info(frame, &start, &end, &signal) == CFI_RA && !signal;
	if (r->walkable)
		read_cfa(r, frame);
	for (int regno = 0; r->walkable && regno < CFI_NREGS; regno++)
		read_reg(r, frame, regno);
	free(frame);
	if (!r->walkable) {
		memset(r, 0, sizeof(*r));
		r->cfa_reg = CFI_NREGS;
	}
}

static bool pc_eq(const struct hashtab_slot *s, const void *key)
{
	const struct pc_key *a = hashtab__payload(s), *b = key;

	return a->file == b->file && a->pc == b->pc;
}

struct rule_key {
	const struct cfi_rules *c;
	const struct cfi_rule *rule;
};

static bool rule_eq(const struct hashtab_slot *s, const void *key)
{
	const struct rule_key *k = key;

	return !memcmp(&k->c->rules[s->val - 1], k->rule, sizeof(*k->rule));
}

/* The index + 1 of rule among the kept ones, added when new; 0 on ENOMEM. */
static uint32_t intern_rule(struct cfi_rules *c, const struct cfi_rule *rule)
{
	struct rule_key k = { c, rule };
	uint64_t h = hash_bytes(rule, sizeof(*rule));
	struct hashtab_slot *s;

	if (hashtab__reserve(&c->by_rule, 1))
		return 0;
	s = hashtab__slot(&c->by_rule, h, rule_eq, &k);
	if (s->val)
		return (uint32_t)s->val;
	if (c->nr >= UINT32_MAX ||
	    array__reserve((void **)&c->rules, &c->alloc, c->nr, sizeof(*c->rules)))
		return 0;
	/* memcpy, padding and all: rules are compared and hashed as bytes */
	memcpy(&c->rules[c->nr++], rule, sizeof(*rule));
	hashtab__fill(&c->by_rule, s, h, c->nr);
	return (uint32_t)c->nr;
}

const struct cfi_rule *cfi_rules__find(struct cfi_rules *c, const void *file, Dwarf_CFI *cfi,
				       uint64_t pc)
{
	struct pc_key key = { file, pc };
	uint64_t h = hash_mum((uintptr_t)file ^ HASH_K0, pc ^ HASH_K1);
	struct hashtab_slot *s;
	struct cfi_rule rule;
	uint32_t idx;

	if (!c->by_pc.stride)
		c->by_pc.stride = sizeof(struct hashtab_slot) + sizeof(struct pc_key);
	if (hashtab__reserve(&c->by_pc, 1))
		return NULL;
	s = hashtab__slot(&c->by_pc, h, pc_eq, &key);
	if (s->val)
		return &c->rules[s->val - 1];
	read_rule(&rule, cfi, pc);
	idx = intern_rule(c, &rule);
	if (!idx)
		return NULL;
	/* the interning did not touch by_pc: s is still its empty slot */
	hashtab__fill(&c->by_pc, s, h, idx);
	*(struct pc_key *)hashtab__payload(s) = key;
	return &c->rules[idx - 1];
}

void cfi_rules__exit(struct cfi_rules *c)
{
	hashtab__exit(&c->by_pc);
	hashtab__exit(&c->by_rule);
	free(c->rules);
	memset(c, 0, sizeof(*c));
}
