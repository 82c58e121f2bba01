// SPDX-License-Identifier: GPL-2.0-only
/* lib/core's growing array: doubling from 256, contents kept, no growth while room is left. */
#include <stdlib.h>
#include "core/array.h"
#include "test.h"

TEST(core_array_reserve)
{
	int *v = NULL;
	size_t alloc = 0, nr = 0;
	int bad = 0;

	for (int i = 0; i < 1000; i++) {
		if (array__reserve((void **)&v, &alloc, nr, sizeof(*v))) {
			bad++;
			break;
		}
		v[nr++] = i;
	}
	CHECK_EQ(alloc, 1024);
	for (int i = 0; i < 1000 && !bad; i++)
		bad += v[i] != i;
	CHECK_EQ(bad, 0);
	/* room left: nothing moves */
	int *before = v;
	CHECK_EQ(array__reserve((void **)&v, &alloc, nr, sizeof(*v)), 0);
	CHECK(v == before);
	/* a size no array can have */
	CHECK_EQ(array__reserve((void **)&v, &alloc, alloc, SIZE_MAX / 1024), -ENOMEM);
	CHECK_EQ(alloc, 1024);
	free(v);
}
