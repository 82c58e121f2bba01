// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The user frames of a --call-graph dwarf sample. Such a sample's
 * recorded callchain stops at the kernel (the kernel is asked not to walk
 * user stacks): perf appends what its unwinder finds from the user
 * registers and stack copy (machine.c's thread__resolve_callchain_unwind()),
 * after the kernel part in callee order. This is that: the session
 * appends [PERF_CONTEXT_USER, frames...] to the chain's words, so that
 * every reader of the chain, whether it walks the words or asks
 * ember_session__callchain(), sees the same frames. x86_64 files are
 * unwound (lib/unwind); for other architectures the user registers' ip,
 * taken as it is, is the one user frame, the first thing perf's
 * unwinders find.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include "data/reader.h"
#include "machine/machine.h"
#include "session/session-priv.h"
#include "unwind/unwind.h"

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

/* Whether files of arch (NULL or "": ours) are unwound here: x86_64's. */
bool session__unwinds_arch(const char *arch)
{
	if (!arch || !*arch) {
#if defined(__x86_64__)
		return true;
#else
		return false;
#endif
	}
	return !strcmp(arch, "x86_64");
}

static bool has_user_part(const struct ember_sample *sm)
{
	for (uint64_t i = 0; i < sm->callchain_nr; i++)
		if (sm->callchain[i] == PERF_CONTEXT_USER)
			return true;
	return false;
}

/* The frames perf's unwinder would find: how many went to words, 0 none, or -ENOMEM. */
static int unwound(struct ember_session *s, const struct ember_sample *sm, uint64_t *words,
		   unsigned int max)
{
	struct ember_thread *thread;

	if (!s->unwinder) {
		s->unwinder = unwinder__new();
		if (!s->unwinder)
			return -ENOMEM;
	}
	thread = ember_machine__findnew_thread(s->machine, (pid_t)sm->pid, (pid_t)sm->tid);
	if (!thread)
		return -ENOMEM;
	return unwinder__unwind(s->unwinder, thread, sm, words, max);
}

int session__add_user_frames(struct ember_session *s, const struct perf_event_attr *attr,
			     struct ember_sample *sm)
{
	const uint64_t need = PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	uint64_t ip, nr = sm->callchain_nr, need_words;
	unsigned int max = s->opts.max_stack ? s->opts.max_stack : SESSION_MAX_STACK;
	int n = 1;

	/*
	 * perf unwinds only what has both the registers and a stack copy with
	 * bytes in it: its "size" is the dump's dyn_size, 0 when the kernel
	 * could copy nothing (in execve, in a fault on a fresh stack page).
	 */
	if ((attr->sample_type & need) != need || !sm->callchain || !sm->user_stack.dyn_size)
		return 0;
	if (!s->ip_reg_known) {
		const char *arch = ember_data_reader__env(s->reader)->arch;

		s->ip_reg = session__user_ip_reg(arch);
		s->unwind = session__unwinds_arch(arch);
		s->ip_reg_known = true;
	}
	/* an ip of 0 is no frame to perf either */
	if (!unwind__reg_value(&sm->user_regs, s->ip_reg, &ip) || !ip || has_user_part(sm))
		return 0;
	need_words = nr + 1 + (s->unwind ? max : 1);
	if (need_words > s->words_alloc) {
		uint64_t *w = realloc(s->words, need_words * sizeof(*w));

		if (!w)
			return -ENOMEM;
		s->words = w;
		s->words_alloc = need_words;
	}
	if (s->unwind) {
		n = unwound(s, sm, s->words + nr + 1, max);
		if (n <= 0)
			return n;
	} else {
		s->words[nr + 1] = ip;
	}
	memcpy(s->words, sm->callchain, nr * sizeof(*s->words));
	s->words[nr] = PERF_CONTEXT_USER;
	sm->callchain = s->words;
	sm->callchain_nr = nr + 1 + n;
	return 1;
}
