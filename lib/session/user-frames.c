// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The user frame of a --call-graph dwarf sample, before its stack copy is
 * unwound. Such a sample's recorded callchain stops at the kernel (the
 * kernel is asked not to walk user stacks): perf appends what its unwinder
 * finds from the user registers and stack copy (machine.c's
 * thread__resolve_callchain_unwind()), and the first thing both its
 * unwinders find is the user registers' ip, taken as it is (an activation
 * frame, not decremented). When the walk goes no further, that ip is the
 * whole user part perf shows, after the kernel part in callee order. This
 * is that: the session appends [PERF_CONTEXT_USER, user ip] to the chain's
 * words, so that every reader of the chain, whether it walks the words or
 * asks ember_session__callchain(), sees the same frames.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include "data/reader.h"
#include "session/session-priv.h"

/*
 * The ip's bit in sample_regs_user for the file's architecture (perf's
 * PERF_REG_IP of its arch/<arch>/include/perf_regs.h, from the uapi
 * asm/perf_regs.h): x86 PERF_REG_X86_IP, arm64 PERF_REG_ARM64_PC, arm
 * PERF_REG_ARM_PC. -1 for an architecture not known here: no user ip then.
 */
int session__user_ip_reg(const char *arch)
{
	if (!arch || !*arch) {
		/* perf reads the registers as its own architecture's: so do we */
#if defined(__x86_64__) || defined(__i386__)
		return 8;
#elif defined(__aarch64__)
		return 32;
#elif defined(__arm__)
		return 15;
#else
		return -1;
#endif
	}
	if (!strcmp(arch, "x86_64") || !strcmp(arch, "x86") ||
	    (arch[0] == 'i' && arch[1] && !strcmp(arch + 2, "86")))
		return 8;
	if (!strcmp(arch, "aarch64") || !strcmp(arch, "arm64"))
		return 32;
	if (!strncmp(arch, "arm", 3))
		return 15;
	return -1;
}

/* The value of register bit `reg` in regs (packed in mask order); false when not sampled. */
static bool reg_value(const struct ember_sample_regs *regs, int reg, uint64_t *val)
{
	uint64_t bit;

	if (reg < 0 || reg > 63 || !regs->abi || !regs->regs)
		return false;
	bit = 1ULL << reg;
	if (!(regs->mask & bit))
		return false;
	*val = regs->regs[__builtin_popcountll(regs->mask & (bit - 1))];
	return true;
}

static bool has_user_part(const struct ember_sample *sm)
{
	for (uint64_t i = 0; i < sm->callchain_nr; i++)
		if (sm->callchain[i] == PERF_CONTEXT_USER)
			return true;
	return false;
}

int session__add_user_ip(struct ember_session *s, const struct perf_event_attr *attr,
			 struct ember_sample *sm)
{
	const uint64_t need = PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	uint64_t ip, nr = sm->callchain_nr;

	/*
	 * perf unwinds only what has both the registers and a stack copy with
	 * bytes in it: its "size" is the dump's dyn_size, 0 when the kernel
	 * could copy nothing (in execve, in a fault on a fresh stack page).
	 */
	if ((attr->sample_type & need) != need || !sm->callchain || !sm->user_stack.dyn_size)
		return 0;
	if (!s->ip_reg_known) {
		s->ip_reg = session__user_ip_reg(ember_data_reader__env(s->reader)->arch);
		s->ip_reg_known = true;
	}
	/* an ip of 0 is no frame to perf either */
	if (!reg_value(&sm->user_regs, s->ip_reg, &ip) || !ip || has_user_part(sm))
		return 0;
	if (nr + 2 > s->words_alloc) {
		uint64_t *w = realloc(s->words, (nr + 2) * sizeof(*w));

		if (!w)
			return -ENOMEM;
		s->words = w;
		s->words_alloc = nr + 2;
	}
	memcpy(s->words, sm->callchain, nr * sizeof(*s->words));
	s->words[nr] = PERF_CONTEXT_USER;
	s->words[nr + 1] = ip;
	sm->callchain = s->words;
	sm->callchain_nr = nr + 2;
	return 1;
}
