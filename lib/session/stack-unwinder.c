// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * DWARF unwinding outside a perf.data: a sample's user registers and
 * stack copy (from a ring buffer, a BPF program) unwound in any machine's
 * thread, its frames' inline levels named as a session names them.
 */
#include <errno.h>
#include <stdlib.h>
#include <ember/session.h>
#include "session/inline-cache.h"
#include "unwind/unwind.h"

struct ember_stack_unwinder {
	struct unwinder *unwinder;
	struct inline_cache inlines;
};

struct ember_stack_unwinder *ember_stack_unwinder__new(void)
{
	struct ember_stack_unwinder *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	u->unwinder = unwinder__new();
	if (!u->unwinder) {
		free(u);
		errno = ENOMEM;
		return NULL;
	}
	return u;
}

void ember_stack_unwinder__delete(struct ember_stack_unwinder *u)
{
	if (!u)
		return;
	inline_cache__exit(&u->inlines);
	unwinder__delete(u->unwinder);
	free(u);
}

int ember_stack_unwinder__unwind(struct ember_stack_unwinder *u, struct ember_thread *thread,
				 const struct ember_sample *sample, uint64_t *ips, unsigned int max)
{
	return unwinder__unwind(u->unwinder, thread, sample, ips, max);
}

int ember_stack_unwinder__inline_frames(struct ember_stack_unwinder *u,
					struct ember_machine *machine,
					const struct ember_addr_location *al,
					struct ember_addr_location *out, size_t room)
{
	return inline_cache__frames(&u->inlines, machine, al, out, room);
}

bool ember_sample_regs__value(const struct ember_sample_regs *regs, int reg, uint64_t *val)
{
	return unwind__reg_value(regs, reg, val);
}
