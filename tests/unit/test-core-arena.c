// SPDX-License-Identifier: GPL-2.0-only
/* lib/core's arena: alignment, objects that never move, big requests, strings, reuse. */
#include <stdint.h>
#include <string.h>
#include "core/arena.h"
#include "test.h"

struct obj {
	uint64_t a;
	char tag[20];
};

TEST(core_arena_objects)
{
	struct arena a = { .chunk_size = 1024 };
	struct obj *first[200];
	int bad = 0;

	for (int i = 0; i < 200; i++) {
		struct obj *o = arena__new(&a, struct obj);
		char *pad = arena__alloc(&a, i % 7 + 1, 1);	/* misalign the next one */

		if (!o || !pad) {
			bad++;
			break;
		}
		bad += ((uintptr_t)o & (_Alignof(struct obj) - 1)) != 0;
		o->a = i;
		snprintf(o->tag, sizeof(o->tag), "obj%d", i);
		memset(pad, 0xff, i % 7 + 1);
		first[i] = o;
	}
	/* Nothing moved or was overwritten. */
	for (int i = 0; i < 200; i++) {
		char tag[20];

		snprintf(tag, sizeof(tag), "obj%d", i);
		bad += first[i]->a != (uint64_t)i || strcmp(first[i]->tag, tag);
	}
	CHECK_EQ(bad, 0);
	arena__exit(&a);
	CHECK(a.chunks == NULL);
	CHECK_EQ(a.chunk_size, 1024);
}

TEST(core_arena_big_and_strings)
{
	struct arena a = { 0 };
	char *s1 = arena__strndup(&a, "hello world", 5);
	char *big, *s2, *z;

	CHECK_STR(s1, "hello");
	/* A big one gets its own chunk; the current one is still used after it. */
	big = arena__alloc(&a, 1 << 20, 16);
	CHECK(big != NULL);
	if (big)
		memset(big, 'x', 1 << 20);
	s2 = arena__strndup(&a, "again", 5);
	CHECK_STR(s2, "again");
	CHECK(s2 == s1 + 6);
	z = arena__zalloc(&a, 100, 8);
	CHECK(z != NULL);
	if (z) {
		int nonzero = 0;

		for (int i = 0; i < 100; i++)
			nonzero += z[i] != 0;
		CHECK_EQ(nonzero, 0);
	}
	CHECK_STR(arena__strndup(&a, NULL, 0), "");
	CHECK_STR(s1, "hello");
	arena__exit(&a);
	/* reusable */
	CHECK_STR(arena__strndup(&a, "x", 1), "x");
	arena__exit(&a);
}
