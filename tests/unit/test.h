/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small unit-test registry: each TEST() registers itself at start-up;
 * tests/unit/main.c runs them all (or those whose name contains argv[1]).
 */
#ifndef EMBER_UNIT_TEST_H
#define EMBER_UNIT_TEST_H

#include <stdio.h>
#include <string.h>

struct unit_test {
	const char *name;
	void (*fn)(struct unit_test *t);
	int failures;
	const char *skip_reason;
	struct unit_test *next;
};

void unit_test__register(struct unit_test *t);

#define TEST(name_)								\
	static void test_##name_(struct unit_test *t);				\
	static struct unit_test test_reg_##name_ = { #name_, test_##name_ };	\
	__attribute__((constructor)) static void test_ctor_##name_(void)	\
	{									\
		unit_test__register(&test_reg_##name_);				\
	}									\
	static void test_##name_(struct unit_test *t)

#define CHECK(cond)								\
	do {									\
		if (!(cond)) {							\
			fprintf(stderr, "  %s:%d: CHECK(%s) failed\n",		\
				__FILE__, __LINE__, #cond);			\
			t->failures++;						\
		}								\
	} while (0)

#define CHECK_EQ(a, b)								\
	do {									\
		long long a_ = (long long)(a), b_ = (long long)(b);		\
		if (a_ != b_) {							\
			fprintf(stderr, "  %s:%d: %s == %s failed: %lld != %lld\n",	\
				__FILE__, __LINE__, #a, #b, a_, b_);		\
			t->failures++;						\
		}								\
	} while (0)

#define CHECK_STR(a, b)								\
	do {									\
		const char *a_ = (a), *b_ = (b);				\
		if (!a_ || !b_ || strcmp(a_, b_)) {				\
			fprintf(stderr, "  %s:%d: %s == \"%s\" failed: got \"%s\"\n",	\
				__FILE__, __LINE__, #a, b_ ? b_ : "(null)",	\
				a_ ? a_ : "(null)");				\
			t->failures++;						\
		}								\
	} while (0)

/*
 * buf gets build-dir/workloads/NAME (a workload built next to
 * build-dir/unit-tests); returns buf, or NULL when it is not there.
 */
const char *unit_workload_path(const char *name, char *buf, size_t size);

/* Mark the running test skipped, with the reason, and return from it. */
#define SKIP(reason)								\
	do {									\
		t->skip_reason = (reason);					\
		return;								\
	} while (0)

#endif
