// SPDX-License-Identifier: GPL-2.0-only
/* ember trace's lines, in perf trace's layout. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <ember/syscall.h>
#include "trace/print.h"

/* perf trace pads "name(args)" to this many columns before "= ret". */
#define ARGS_ALIGNMENT 70

void trace_printer__init(struct trace_printer *p, FILE *out)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
}

static double msecs(uint64_t ns)
{
	return ns / 1e6;
}

static int print_args(FILE *out, const struct ember_syscall_rec *enter)
{
	const char *name = ember_syscall__name(enter->nr);
	int n = 0;

	n += fprintf(out, "%s(", name ? name : "unknown");
	for (int i = 0; i < EMBER_SYSCALL_MAX_ARGS; i++) {
		if (enter->strs[i])
			n += fprintf(out, "%sarg%d: \"%s\"", i ? ", " : "", i, enter->strs[i]);
		else
			n += fprintf(out, "%sarg%d: %#" PRIx64, i ? ", " : "", i, enter->args[i]);
	}
	n += fprintf(out, ")");
	return n;
}

int trace_printer__event(void *ctx, const struct ember_syscall_rec *enter,
			 const struct ember_syscall_rec *exit)
{
	struct trace_printer *p = ctx;
	int n;

	if (!p->have_base) {
		p->base_time = exit ? exit->time : enter->time;
		p->have_base = true;
	}
	if (!exit)
		return 0;
	if (enter) {
		fprintf(p->out, "%10.3f (%6.3f ms): %s/%d ", msecs(enter->time - p->base_time),
			msecs(exit->time - enter->time), exit->comm, exit->tid);
		n = print_args(p->out, enter);
	} else {
		const char *name = ember_syscall__name(exit->nr);

		fprintf(p->out, "%10s (%9s): %s/%d  ... [continued]: ", "?", "", exit->comm,
			exit->tid);
		n = fprintf(p->out, "%s())", name ? name : "unknown");
	}
	fprintf(p->out, "%*s= %" PRId64 "\n", n < ARGS_ALIGNMENT ? ARGS_ALIGNMENT - n : 1, "",
		exit->ret);
	return 0;
}
