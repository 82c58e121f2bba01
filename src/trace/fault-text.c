// SPDX-License-Identifier: GPL-2.0-only
/*
 * A page fault's sample in perf trace's words (see fault-text.h): the
 * places of its ip and of its address, as perf 6.1's trace__pgfault and
 * print_location() write them, and its callchain as perf trace prints one.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include "core/scnprintf.h"
#include "trace/fault-text.h"

/* perf trace's callchain column: the frames under a line start here */
#define CHAIN_INDENT 39

/*
 * perf's print_location(): the place's dso (with_dso), then its symbol and
 * offset (with_sym), else the map-relative address, else the bare address.
 */
static int location(char *buf, size_t size, const struct ember_addr_location *al,
		    uint64_t bare, bool with_dso, bool with_sym)
{
	int n = 0;

	if (with_dso && al->map)
		n += scnprintf(buf + n, size - n, "%s@", al->dso_name);
	if (with_sym && al->sym)
		return n + scnprintf(buf + n, size - n, "%s+0x%" PRIx64, al->sym_name,
				     al->sym_off);
	return n + scnprintf(buf + n, size - n, "0x%" PRIx64, al->map ? al->addr : bare);
}

/*
 * A fault's stack as perf trace prints a sample's callchain under its line:
 * "sym (dso)" per frame, "[0x1f0] (dso)" without a symbol, "[0] ([unknown])"
 * without a map. Returns -ENOMEM, or 0 with the text in chain.
 */
static int format_chain(struct ember_machine *m, const struct ember_sample *s, char *chain,
			size_t size)
{
	uint8_t cpumode = s->cpumode;
	size_t n = 0;

	chain[0] = '\0';
	for (uint64_t i = 0; i < s->callchain_nr; i++) {
		struct ember_addr_location al;
		uint64_t ip = s->callchain[i];

		if (ember_callchain__context(ip, &cpumode))
			continue;	/* a marker (or one perf does not know) */
		if (ember_machine__resolve(m, (pid_t)s->pid, (pid_t)s->tid, cpumode, ip,
					   &al) == -ENOMEM)
			return -ENOMEM;
		n += scnprintf(chain + n, size - n, "%-*s", CHAIN_INDENT, "");
		if (al.sym)
			n += scnprintf(chain + n, size - n, "%s", al.sym_name);
		else	/* perf's address of a frame is 0 outside every map */
			n += scnprintf(chain + n, size - n, "[%#" PRIx64 "]",
				       al.map ? al.addr : 0);
		n += scnprintf(chain + n, size - n, " (%s)\n",
			       al.map ? al.dso_name : "[unknown]");
	}
	return 0;
}

int trace_fault__describe(struct ember_machine *m, const struct ember_sample *s, bool major,
			  char *text, size_t size, char *chain, size_t chain_size,
			  struct trace_fault *f)
{
	struct ember_addr_location al;
	char map_type = 'd';
	int n;

	*f = (struct trace_fault){
		.time = s->time, .pid = (pid_t)s->pid, .tid = (pid_t)s->tid, .major = major,
		.text = text,
	};
	if (ember_machine__resolve(m, f->pid, f->tid, s->cpumode, s->ip, &al) == -ENOMEM)
		return -ENOMEM;
	snprintf(f->comm, sizeof(f->comm), "%s", al.comm ? al.comm : "");
	/* perf's slip, kept: an ip without a map is shown as the faulting address */
	n = scnprintf(text, size, "%sfault [", major ? "maj" : "min");
	n += location(text + n, size - n, &al, s->addr, false, true);
	n += scnprintf(text + n, size - n, "] => ");
	if (ember_machine__resolve(m, f->pid, f->tid, s->cpumode, s->addr, &al) == -ENOMEM)
		return -ENOMEM;
	/* perf looks a second time, in the same maps: 'x' can never come, '?' says none */
	if (!al.map)
		map_type = '?';
	n += location(text + n, size - n, &al, s->addr, true, false);
	scnprintf(text + n, size - n, " (%c%c)", map_type, al.level);
	if (s->callchain_nr && chain && chain_size) {
		if (format_chain(m, s, chain, chain_size))
			return -ENOMEM;
		f->chain = chain;
	}
	return 0;
}
