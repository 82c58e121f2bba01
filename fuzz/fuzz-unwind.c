// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the dwarf unwinder's input, a --call-graph dwarf
 * sample (user registers and a stack copy) taken in a process whose maps
 * are this program's own (its binary, libc, ld.so, the [vdso]: real CFI
 * to walk with). The input is
 *   byte 0:      the register mask's choice (which of perf's x86 registers
 *                are sampled; bit 7: the file's ABI 32-bit, not unwound)
 *   bytes 1-2:   max frames
 *   17 x 8:      register values (ip and sp folded onto a mapped text
 *                and into the stack copy's range most of the time)
 *   the rest:    the stack copy, its dyn_size cut by byte 1
 * so the walks go through the file's CFI from a fuzzed state and read a
 * fuzzed stack, or the files where an address points into them. Each
 * input is unwound twice, by the unwinder's cached rules and by libdwfl
 * alone: the frames must be the same.
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <ember/common.h>
#include <ember/machine.h>
#include "machine/machine.h"
#include "unwind/unwind.h"

static struct ember_machine *machine;
static struct ember_thread *thread;
static uint64_t text_start, text_len;

/* Our own file-backed and [vdso] maps into the machine, as MMAP2 records would. */
static void map_self(void)
{
	char line[4096], perm[8], path[4096];
	unsigned long start, end, off;
	FILE *f = fopen("/proc/self/maps", "re");

	if (!f)
		abort();
	while (fgets(line, sizeof(line), f)) {
		struct ember_dso_id id = { 0 };

		path[0] = '\0';
		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %4095s", &start, &end, perm, &off,
			   path) < 4 || (path[0] != '/' && strcmp(path, "[vdso]")))
			continue;
		ember_machine__process_mmap2(machine, PERF_RECORD_MISC_USER, 1, 1, start,
					     end - start, off, PROT_READ | (perm[2] == 'x' ? 4 : 0),
					     0, path, &id);
		if (perm[2] == 'x' && !text_len) {
			text_start = start;
			text_len = end - start;
		}
	}
	fclose(f);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* one warning per unwinder, and there is one per input: not worth printing */
	ember_set_log(NULL, NULL);
	machine = ember_machine__new(NULL);
	if (!machine)
		abort();
	map_self();
	thread = ember_machine__findnew_thread(machine, 1, 1);
	if (!thread || !text_len)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* perf's x86 user registers for dwarf: AX..R15 but the segments */
	static const uint64_t full_mask = 0xff0fffULL;
	uint64_t regs[24], ips[256], ref_ips[256], mask = 0;
	struct ember_sample sm;
	struct unwinder *u, *ref;
	unsigned char *stack;
	int n;
	unsigned int max;
	size_t nr = 0;

	if (size < 3 + 17 * 8)
		return 0;
	/* bit i of byte 0 drops register group i; the ip and sp stay unless bit 6 */
	for (int r = 0; r < 24; r++)
		if ((full_mask >> r & 1) && !(data[0] >> (r % 6) & 1 && r != 7 && r != 8))
			mask |= 1ULL << r;
	if (data[0] & 64)
		mask &= ~(1ULL << 7);
	max = (data[1] | data[2] << 8) % 256;
	memset(&sm, 0, sizeof(sm));
	sm.pid = sm.tid = 1;
	for (int r = 0; r < 24; r++) {
		uint64_t v;

		if (!(mask >> r & 1))
			continue;
		memcpy(&v, data + 3 + (nr % 17) * 8, 8);
		regs[nr++] = v;
	}
	/*
	 * a quarter of the copy's words (low byte under 0x40) folded onto
	 * our text: return addresses, so that walks go past the first frame
	 */
	stack = malloc(size - 3 - 17 * 8 + 1);
	if (!stack)
		abort();
	memcpy(stack, data + 3 + 17 * 8, size - 3 - 17 * 8);
	for (size_t i = 0; i + 8 <= size - 3 - 17 * 8; i += 8) {
		uint64_t w;

		memcpy(&w, stack + i, 8);
		if ((w & 0xff) < 0x40) {
			w = text_start + (w >> 8) % text_len;
			memcpy(stack + i, &w, 8);
		}
	}
	sm.user_stack.data = stack;
	sm.user_stack.size = size - 3 - 17 * 8;
	sm.user_stack.dyn_size = sm.user_stack.size - (data[1] % 8 == 0 ? sm.user_stack.size / 2 : 0);
	/* mostly an ip in our text and an sp at the copy (perf's IP is 8th, SP 7th in the mask) */
	for (size_t i = 0, k = 0; i < 24; i++) {
		if (!(mask >> i & 1))
			continue;
		if (i == 8 && !(data[0] & 128))
			regs[k] = text_start + regs[k] % text_len;
		if (i == 7 && data[2] & 1)
			regs[k] = 0x7ff000000000ULL + (regs[k] & 0xfff);
		k++;
	}
	sm.user_regs.abi = data[0] & 128 && data[2] & 2 ? PERF_SAMPLE_REGS_ABI_32
							: PERF_SAMPLE_REGS_ABI_64;
	sm.user_regs.mask = mask;
	sm.user_regs.nr = (uint32_t)nr;
	sm.user_regs.regs = regs;

	u = unwinder__new();
	ref = unwinder__new();
	if (!u || !ref)
		abort();
	unwinder__set_own_walk(ref, false);
	n = unwinder__unwind(u, thread, &sm, ips, max);
	if (n > (int)max || n != unwinder__unwind(ref, thread, &sm, ref_ips, max) ||
	    (n > 0 && memcmp(ips, ref_ips, (size_t)n * sizeof(*ips))))
		abort();
	unwinder__delete(u);
	unwinder__delete(ref);
	free(stack);
	return 0;
}
