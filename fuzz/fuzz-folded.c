// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the folded-stack reader (flamegraph.pl's input), then
 * the tree written back as folded stacks and drawn as an SVG, as ember
 * flamegraph does with a folded file. The first byte picks the options
 * (and the palette, chain graphs included); odd sizes use --encoding.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <ember/flame.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ember_flame_opts fo = { .sz = sizeof(fo) };
	struct ember_flame_folded_opts ro = { .sz = sizeof(ro) };
	struct ember_flame_svg_opts so = { .sz = sizeof(so) };
	struct ember_flame_folded_stats st = { 0 };
	struct ember_flame_svg_stats ss;
	struct ember_flame *fl;
	FILE *in, *null;

	if (!size)
		return 0;
	fo.flamechart = data[0] & 1;
	fo.reverse = data[0] & 2;
	ro.annotations = data[0] & 4;
	so.inverted = data[0] & 8;
	so.palette = (data[0] >> 4) % EMBER_FLAME_NR_PALETTES;
	ro.chain = so.palette == EMBER_FLAME_PALETTE_CHAIN;
	/* Odd sizes draw names as bytes, in another encoding than UTF-8. */
	so.encoding = size & 1 ? "ISO-8859-1" : NULL;
	fl = ember_flame__new(&fo);
	in = fmemopen((void *)(data + 1), size - 1 ? size - 1 : 1, "r");
	null = fopen("/dev/null", "w");
	if (!fl || !in || !null)
		abort();
	if (size > 1 && ember_flame__read_folded(fl, in, &ro, &st) == 0) {
		if (ember_flame__is_diff(fl))
			ember_flame__normalize(fl);
		ember_flame__write_folded(fl, null, EMBER_FLAME_FOLDED_ANNOTATE);
		ember_flame__write_svg(fl, null, &so, &ss);
	}
	fclose(in);
	fclose(null);
	ember_flame__delete(fl);
	return 0;
}
