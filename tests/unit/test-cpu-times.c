// SPDX-License-Identifier: GPL-2.0-only
/* /proc/stat's cpu lines: parsed, the aggregate line skipped, bad lines refused, a live read. */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <ember/event.h>
#include "test.h"

TEST(cpu_times_parse)
{
	static const char text[] =
		"cpu  10 1 20 300 4 5 6 7 0 0\n"
		"cpu0 1 2 3 4 5 6 7 8 9 10\n"
		"cpu3 100 0 250 1000 0 0 0\n"
		"intr 12345 0 0\n"
		"ctxt 42\n";
	struct ember_cpu_time ct[4];

	CHECK_EQ(ember_cpu_times__parse(text, sizeof(text) - 1, ct, 4), 2);
	CHECK_EQ(ct[0].cpu, 0);
	CHECK_EQ(ct[0].system, 3);
	CHECK_EQ(ct[0].steal, 8);
	CHECK_EQ(ember_cpu_time__total(&ct[0]), 36);
	/* cpu1 and cpu2 offline: no lines; old kernels stop before steal */
	CHECK_EQ(ct[1].cpu, 3);
	CHECK_EQ(ct[1].user, 100);
	CHECK_EQ(ct[1].system, 250);
	CHECK_EQ(ct[1].steal, 0);
	CHECK_EQ(ember_cpu_times__parse(text, sizeof(text) - 1, ct, 1), 1);
}

TEST(cpu_times_bad)
{
	struct ember_cpu_time ct[2];

	CHECK_EQ(ember_cpu_times__parse("cpu0 1 2\n", 9, ct, 2), -EINVAL);
	CHECK_EQ(ember_cpu_times__parse("cpu0 x\n", 7, ct, 2), -EINVAL);
	CHECK_EQ(ember_cpu_times__parse("cpu9999999999 1 2 3 4\n", 22, ct, 2), -EINVAL);
	CHECK_EQ(ember_cpu_times__parse("", 0, ct, 2), 0);
	/* a line cut short at the end of the text (no newline) still parses */
	CHECK_EQ(ember_cpu_times__parse("cpu1 1 2 3 4", 12, ct, 2), 1);
}

TEST(cpu_times_read)
{
	struct ember_cpu_time ct[1024];
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int n = ember_cpu_times__read(-1, ct, 1024);

	CHECK_EQ(n, online);
	CHECK(n > 0 && ember_cpu_time__total(&ct[0]) > 0);
}
