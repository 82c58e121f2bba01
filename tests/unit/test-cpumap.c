// SPDX-License-Identifier: GPL-2.0-only
/* Cpu maps: list parsing, bad lists, offline cpus, the online default, refcounts. */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <ember/event.h>
#include "test.h"

/* The highest online cpu, from the map of online cpus. */
static int last_online(void)
{
	struct ember_cpu_map *m = ember_cpu_map__new(NULL);
	int last = m ? ember_cpu_map__cpu(m, ember_cpu_map__nr(m) - 1) : -1;

	ember_cpu_map__put(m);
	return last;
}

TEST(cpumap_online_default)
{
	struct ember_cpu_map *m = ember_cpu_map__new(NULL);
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	CHECK(m != NULL);
	if (!m)
		return;
	CHECK_EQ(ember_cpu_map__nr(m), n);
	CHECK_EQ(ember_cpu_map__cpu(m, 0), 0);
	CHECK_EQ(ember_cpu_map__cpu(m, ember_cpu_map__nr(m)), -1);
	CHECK_EQ(ember_cpu_map__cpu(m, -1), -1);
	CHECK(!ember_cpu_map__is_any(m));
	ember_cpu_map__put(m);
}

TEST(cpumap_lists)
{
	struct ember_cpu_map *m;
	int last = last_online();
	char list[64];

	if (last < 1)
		SKIP("needs at least 2 online cpus");
	m = ember_cpu_map__new("0");
	CHECK(m && ember_cpu_map__nr(m) == 1 && ember_cpu_map__cpu(m, 0) == 0);
	ember_cpu_map__put(m);

	/* Unsorted, duplicated and overlapping entries come out sorted and unique. */
	snprintf(list, sizeof(list), "%d,0,0-%d,%d", last, last, last);
	m = ember_cpu_map__new(list);
	CHECK(m != NULL);
	if (m) {
		CHECK_EQ(ember_cpu_map__nr(m), last + 1);
		for (int i = 0; i <= last; i++)
			CHECK_EQ(ember_cpu_map__cpu(m, i), i);
		CHECK_EQ(ember_cpu_map__idx(m, last), last);
		CHECK_EQ(ember_cpu_map__idx(m, last + 1), -1);
	}
	ember_cpu_map__put(m);

	/* sysfs-style trailing newline */
	m = ember_cpu_map__new("0-1\n");
	CHECK(m && ember_cpu_map__nr(m) == 2);
	ember_cpu_map__put(m);
}

TEST(cpumap_malformed)
{
	static const char *const bad[] = { "", ",", "0,", ",0", "a", "0-", "-1", "1-0", "0--1",
					   "0 1", "0x1", "0,,1", "99999999999", "0-1-2", " 0" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ember_cpu_map *m;

		errno = 0;
		m = ember_cpu_map__new(bad[i]);
		if (m || errno != EINVAL)
			fprintf(stderr, "  list \"%s\": map %p errno %d\n", bad[i], (void *)m,
				errno);
		CHECK(m == NULL);
		CHECK_EQ(errno, EINVAL);
	}
}

TEST(cpumap_offline)
{
	char list[64];
	int last = last_online();
	struct ember_cpu_map *m;

	snprintf(list, sizeof(list), "%d", last + 1);
	errno = 0;
	m = ember_cpu_map__new(list);
	CHECK(m == NULL);
	CHECK_EQ(errno, ENODEV);

	/* A huge range fails fast, without expanding it. */
	errno = 0;
	m = ember_cpu_map__new("0-2000000000");
	CHECK(m == NULL);
	CHECK_EQ(errno, ENODEV);
}

TEST(cpumap_any_and_refcount)
{
	struct ember_cpu_map *m = ember_cpu_map__new_any(), *m2;

	CHECK(m != NULL);
	if (!m)
		return;
	CHECK_EQ(ember_cpu_map__nr(m), 1);
	CHECK_EQ(ember_cpu_map__cpu(m, 0), -1);
	CHECK(ember_cpu_map__is_any(m));
	m2 = ember_cpu_map__get(m);
	CHECK(m2 == m);
	ember_cpu_map__put(m);
	CHECK_EQ(ember_cpu_map__cpu(m2, 0), -1);	/* still alive: one reference left */
	ember_cpu_map__put(m2);
	ember_cpu_map__put(NULL);
	CHECK(ember_cpu_map__get(NULL) == NULL);
	CHECK_EQ(ember_cpu_map__nr(NULL), 0);
}
