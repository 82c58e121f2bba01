// SPDX-License-Identifier: GPL-2.0-only
/*
 * probed N: a target for ember probe. Each of N rounds calls
 * probed_add(i, 2 * i) (returns 3 * i), probed_name() with one of three
 * names (returns its length) and probed_take() with a struct item
 * (returns weight + id): known arguments and return values for uprobes,
 * in registers (%di, %si) and in memory (+16(%di) is the item's name).
 * The sink keeps every call in the loop.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct item {
	int id;
	long weight;
	const char *name;
};

static volatile long sink;

__attribute__((noinline)) int probed_add(int a, int b)
{
	sink += a;
	return a + b;
}

__attribute__((noinline)) size_t probed_name(const char *s)
{
	sink += s[0];
	return strlen(s);
}

__attribute__((noinline)) long probed_take(struct item *it)
{
	sink += it->id;
	return it->weight + it->id;
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "alpha", "beta", "gamma" };
	int n = argc > 1 ? atoi(argv[1]) : 10;
	long total = 0;

	for (int i = 0; i < n; i++) {
		struct item it = { .id = i, .weight = 100 + i, .name = names[i % 3] };

		total += probed_add(i, 2 * i);
		total += (long)probed_name(names[i % 3]);
		total += probed_take(&it);
	}
	printf("%ld\n", total);
	return 0;
}
