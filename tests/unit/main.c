// SPDX-License-Identifier: GPL-2.0-only
/* Runs every registered unit test; ends with "N passed, N failed[, N skipped]". */
#include <stdlib.h>
#include "test.h"

static struct unit_test *tests, **tail = &tests;

void unit_test__register(struct unit_test *t)
{
	*tail = t;
	tail = &t->next;
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0, skipped = 0;

	for (struct unit_test *t = tests; t; t = t->next) {
		if (argc > 1 && !strstr(t->name, argv[1]))
			continue;
		t->fn(t);
		if (t->skip_reason) {
			printf("skip unit/%s: %s\n", t->name, t->skip_reason);
			skipped++;
		} else if (t->failures) {
			printf("FAIL unit/%s\n", t->name);
			failed++;
		} else {
			printf("ok   unit/%s\n", t->name);
			passed++;
		}
	}
	printf("unit: %d passed, %d failed, %d skipped\n", passed, failed, skipped);
	return failed ? 1 : 0;
}
