// SPDX-License-Identifier: GPL-2.0-only
/*
 * index_lines(), every variant this processor runs (plain C, SSE2,
 * AVX2): the same line ends and key starts as a byte-at-a-time scan, on
 * frame-like and random text, whatever the batch size, never reading
 * past the buffer (each text is its own exact-size allocation, for the
 * sanitizer build).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "collapse/scan.h"
#include "test.h"

static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Text of len bytes: frame lines with hex addresses, and bytes where columns are decided. */
static char *make_text(uint64_t *seed, size_t len)
{
	static const char alphabet[] = "\n\n\t\t    \v\f\r_09afAFzZ+x()[];:-/.#\x80\xff";
	static const char *const pieces[] = {
		"\tffffffff821f2c2b ",
		"\t    7f3a1c2b3d4e ",
		"  12 ",
		"\t",
		"sym+0x1b ([kernel.kallsyms])\n",
		"\n",
		"perf 12/34 [000] 1.5: 1 cpu-clock: \n",
		"\t_x\t\t(",
		"\tffffffffffffffffffffffffffffffffffff ",
		"                                        ",
	};
	char *s = malloc(len ? len : 1);

	for (size_t i = 0; s && i < len;) {
		uint64_t r = next_rand(seed);

		if (r % 3) {
			const char *p = pieces[(r >> 8) % (sizeof(pieces) / sizeof(*pieces))];

			for (; *p && i < len; p++)
				s[i++] = *p;
		} else {
			s[i++] = alphabet[(r >> 8) % (sizeof(alphabet) - 1)];
		}
	}
	return s;
}

/* Checks one variant against the byte scan over the whole text, in batches of at most max. */
static void check_variant(struct unit_test *t, index_lines_fn *fn, const char *s, size_t len,
			  size_t max)
{
	struct line_ix *lines = malloc(max * sizeof(*lines));
	const char *p = s, *end = s + len, *resume = s;
	int bad = 0;

	if (!lines)
		return;
	while (!bad && resume < end) {
		const char *from = resume;
		size_t n = fn(from, end, lines, max, &resume);

		CHECK(n <= max);
		CHECK(resume > from || (resume == end && !n));
		for (size_t i = 0; i < n && !bad; i++) {
			const char *nl = memchr(p, '\n', end - p);
			size_t a, b, k;

			if (!nl || lines[i].end != nl) {
				bad = 1;
				break;
			}
			frame_columns_bytes(p, nl - p, &a, &b, &k);
			if (lines[i].key_at != (b == a ? LINE_NO_ADDR : k))
				bad = 2;
			p = nl + 1;
		}
		/* the batch ends at the next line's start, or at the end past the last '\n' */
		if (!bad && resume != p && !(resume == end && !memchr(p, '\n', end - p)))
			bad = 3;
		if (!n)
			break;
	}
	if (!bad && memchr(p, '\n', end - p))
		bad = 4;
	if (bad)
		fprintf(stderr, "  index_lines: mismatch %d (len %zu, batch %zu)\n", bad, len, max);
	CHECK(!bad);
	free(lines);
}

TEST(collapse_scan_index_lines)
{
	static const size_t batches[] = { 64, 65, 127, 2048 };
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	int variants = 0;

	for (int v = 0; v < 3; v++) {
		index_lines_fn *fn = index_lines_variant(v);

		if (!fn)
			continue;
		variants++;
		for (int round = 0; round < 300; round++) {
			size_t len = round < 100 ? (size_t)round : next_rand(&seed) % 20000;
			char *s = make_text(&seed, len);

			for (size_t b = 0; s && b < sizeof(batches) / sizeof(*batches); b++)
				check_variant(t, fn, s, len, batches[b]);
			free(s);
		}
	}
	CHECK(variants >= 1);
	CHECK(index_lines_pick() != NULL);
}
