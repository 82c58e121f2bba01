// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The edit distance behind every "did you mean" (see edit-distance.h). */
#include "core/edit-distance.h"

int edit_distance(const char *a, size_t la, const char *b, size_t lb, int limit)
{
	int d[3][130], *prev2 = d[0], *prev = d[1], *cur = d[2];

	if (la > 128 || lb > 128 || (la > lb ? la - lb : lb - la) > (size_t)limit)
		return limit + 1;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		int row_min, *t;

		cur[0] = row_min = i;
		for (size_t j = 1; j <= lb; j++) {
			int cost = a[i - 1] != b[j - 1];
			int v = prev[j] + 1;

			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (prev[j - 1] + cost < v)
				v = prev[j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
			if (v < row_min)
				row_min = v;
		}
		if (row_min > limit)
			return limit + 1;
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}
