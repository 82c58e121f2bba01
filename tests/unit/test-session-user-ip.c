// SPDX-License-Identifier: GPL-2.0-only
/*
 * A --call-graph dwarf sample's chain gets its user ip ([PERF_CONTEXT_USER,
 * ip] after the recorded words) when perf would unwind it: registers and a
 * stack copy sampled, no user part recorded; and not otherwise. These run
 * the path of files the unwinder does not take (s.unwind false, no
 * machine): the user ip alone; tests/e2e/script-dwarf.sh unwinds.
 */
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <ember/session.h>
#include "session/session-priv.h"
#include "test.h"

#define UIP 0x55550000123aULL
/* perf's x86 user registers for dwarf unwinding: AX..R15 but the segments */
#define X86_MASK 0xff0fffULL

struct fixture {
	struct ember_session s;
	struct perf_event_attr attr;
	struct ember_sample sm;
	uint64_t chain[3];
	uint64_t regs[20];
	uint8_t stack[64];
};

static void setup(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	f->s.ip_reg_known = true;
	f->s.ip_reg = 8;	/* PERF_REG_X86_IP */
	f->attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
			      PERF_SAMPLE_STACK_USER;
	f->attr.sample_regs_user = X86_MASK;
	f->chain[0] = PERF_CONTEXT_KERNEL;
	f->chain[1] = 0xffffffff81000c82ULL;
	f->sm.callchain = f->chain;
	f->sm.callchain_nr = 2;
	for (int i = 0; i < 20; i++)
		f->regs[i] = 0x1000 + i;
	f->regs[8] = UIP;	/* the 9th register of the mask: bit 8 */
	f->sm.user_regs.abi = PERF_SAMPLE_REGS_ABI_64;
	f->sm.user_regs.mask = X86_MASK;
	f->sm.user_regs.nr = __builtin_popcountll(X86_MASK);
	f->sm.user_regs.regs = f->regs;
	f->sm.user_stack.size = sizeof(f->stack);
	f->sm.user_stack.data = f->stack;
	f->sm.user_stack.dyn_size = sizeof(f->stack);
}

TEST(session_user_ip_added)
{
	struct fixture f;

	setup(&f);
	CHECK_EQ(session__add_user_frames(&f.s, &f.attr, &f.sm), 1);
	CHECK_EQ(f.sm.callchain_nr, 4);
	CHECK(f.sm.callchain == f.s.words);
	if (f.sm.callchain_nr == 4) {
		CHECK(f.sm.callchain[0] == PERF_CONTEXT_KERNEL);
		CHECK(f.sm.callchain[1] == 0xffffffff81000c82ULL);
		CHECK(f.sm.callchain[2] == PERF_CONTEXT_USER);
		CHECK(f.sm.callchain[3] == UIP);
	}
	/* a user-mode sample: nothing recorded, the ip alone */
	f.sm.callchain = f.chain;
	f.sm.callchain_nr = 0;
	CHECK_EQ(session__add_user_frames(&f.s, &f.attr, &f.sm), 1);
	CHECK_EQ(f.sm.callchain_nr, 2);
	CHECK(f.sm.callchain[0] == PERF_CONTEXT_USER && f.sm.callchain[1] == UIP);
	free(f.s.words);
}

TEST(session_user_ip_not_added)
{
	struct fixture f;

	/* a user part recorded already (the kernel walked the user stack) */
	setup(&f);
	f.chain[2] = PERF_CONTEXT_USER;
	f.sm.callchain_nr = 3;
	CHECK_EQ(session__add_user_frames(&f.s, &f.attr, &f.sm), 0);
	CHECK_EQ(f.sm.callchain_nr, 3);
	/* no stack copied (perf does not unwind then) */
	setup(&f);
	f.sm.user_stack.size = 0;
	f.sm.user_stack.dyn_size = 0;
	CHECK_EQ(session__add_user_frames(&f.s, &f.attr, &f.sm), 0);
	/* a stack copied with nothing in it (in execve): nor then */
	setup(&f);
	f.sm.user_stack.dyn_size = 0;
	CHECK_EQ(session__add_user_frames(&f.s, &f.attr, &f.sm), 0);
	/* no registers: a kernel thread's sample */
	setup(&f);
	f.sm.user_regs.abi = 0;
	f.sm.user_regs.regs = NULL;
	CHECK_EQ(session__add_user_frames(&f.s, &f.attr, &f.sm), 0);
	/* registers sampled without the ip */
	setup(&f);
	f.sm.user_regs.mask = X86_MASK & ~(1ULL << 8);
	f.sm.user_regs.nr--;
	CHECK_EQ(session__add_user_frames(&f.s, &f.attr, &f.sm), 0);
	/* an ip of 0 is no frame */
	setup(&f);
	f.regs[8] = 0;
	CHECK_EQ(session__add_user_frames(&f.s, &f.attr, &f.sm), 0);
	/* events without stack copies, or without callchains */
	setup(&f);
	f.attr.sample_type &= ~PERF_SAMPLE_STACK_USER;
	CHECK_EQ(session__add_user_frames(&f.s, &f.attr, &f.sm), 0);
	setup(&f);
	f.attr.sample_type &= ~PERF_SAMPLE_CALLCHAIN;
	CHECK_EQ(session__add_user_frames(&f.s, &f.attr, &f.sm), 0);
	/* an architecture whose ip register we do not know */
	setup(&f);
	f.s.ip_reg = -1;
	CHECK_EQ(session__add_user_frames(&f.s, &f.attr, &f.sm), 0);
	CHECK_EQ(f.sm.callchain_nr, 2);
	CHECK(f.s.words == NULL);
}

TEST(session_user_ip_reg_by_arch)
{
	CHECK_EQ(session__user_ip_reg("x86_64"), 8);
	CHECK_EQ(session__user_ip_reg("i686"), 8);
	CHECK_EQ(session__user_ip_reg("i386"), 8);
	CHECK_EQ(session__user_ip_reg("aarch64"), 32);
	CHECK_EQ(session__user_ip_reg("armv7l"), 15);
	CHECK_EQ(session__user_ip_reg("riscv64"), -1);
	CHECK_EQ(session__user_ip_reg("i"), -1);
	CHECK_EQ(session__user_ip_reg("ia64"), -1);
#if defined(__x86_64__) || defined(__i386__)
	/* no arch in the file: ours, as perf reads the registers as its own */
	CHECK_EQ(session__user_ip_reg(NULL), 8);
#endif
}
