// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the perf-script-text collapser (ember collapse,
 * stackcollapse-perf.pl's rules). The input is fed in two pieces cut at a
 * place the first byte chooses, so lines split across feeds are covered;
 * the first byte's bits also pick the options.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <ember/collapse.h>

static int on_stack(void *ctx, const char *stack, size_t len, const char *count)
{
	size_t *total = ctx;

	*total += len + (count[0] != '\0');
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ember_collapse_opts opts = { .sz = sizeof(opts) };
	struct ember_collapse_stats st;
	struct ember_collapse *c;
	size_t cut, total = 0;
	FILE *null;

	if (!size)
		return 0;
	opts.include_pid = data[0] & 1;
	opts.include_tid = data[0] & 2;
	opts.annotate_kernel = data[0] & 4;
	opts.annotate_jit = data[0] & 8;
	opts.include_addrs = data[0] & 16;
	opts.srcline = data[0] & 32;
	/* --inline reads DWARF of files the input names: not this target's business */
	cut = size > 1 ? 1 + data[0] % (size - 1) : 1;
	c = ember_collapse__new(&opts);
	if (!c)
		abort();
	ember_collapse__feed(c, data + 1, cut - 1);
	ember_collapse__feed(c, data + cut, size - cut);
	ember_collapse__end_file(c);
	ember_collapse__foreach(c, on_stack, &total);
	null = fopen("/dev/null", "w");
	if (null) {
		ember_collapse__write(c, null);
		fclose(null);
	}
	ember_collapse__stats(c, &st);
	ember_collapse__delete(c);
	return 0;
}
