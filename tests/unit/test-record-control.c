// SPDX-License-Identifier: GPL-2.0-only
/* ember record --control: the argument's forms and perf's prefix matching of commands. */
#include "test.h"
#include "record/control.h"

TEST(record_control_spec)
{
	CHECK_EQ(record_control__check("fd:3"), 0);
	CHECK_EQ(record_control__check("fd:3,4"), 0);
	CHECK_EQ(record_control__check("fd:0x3,4"), 0);
	CHECK_EQ(record_control__check("fifo:ctl"), 0);
	CHECK_EQ(record_control__check("fifo:ctl,ack"), 0);
	CHECK(record_control__check("fd:") != 0);
	CHECK(record_control__check("fd:3,") != 0);
	CHECK(record_control__check("fd:3x") != 0);
	CHECK(record_control__check("fd:-1") != 0);
	CHECK(record_control__check("fifo:") != 0);
	CHECK(record_control__check("fifo:,ack") != 0);
	CHECK(record_control__check("ctl") != 0);
}

TEST(record_control_commands)
{
	const char *arg;
	bool bad;

	CHECK_EQ(record_control__parse_cmd("enable", &arg, &bad), RECORD_CTL_ENABLE);
	CHECK(!arg && !bad);
	CHECK_EQ(record_control__parse_cmd("disable cpu-clock:ppp", &arg, &bad),
		 RECORD_CTL_DISABLE);
	CHECK_STR(arg, "cpu-clock:ppp");
	CHECK(!bad);
	/* perf matches by prefix: "enablex" is a malformed enable, acknowledged */
	CHECK_EQ(record_control__parse_cmd("enablex", &arg, &bad), RECORD_CTL_ENABLE);
	CHECK(bad);
	CHECK_EQ(record_control__parse_cmd("evlist -v", &arg, &bad), RECORD_CTL_EVLIST);
	CHECK_STR(arg, "-v");
	CHECK_EQ(record_control__parse_cmd("snapshot", &arg, &bad), RECORD_CTL_SNAPSHOT);
	CHECK_EQ(record_control__parse_cmd("stop", &arg, &bad), RECORD_CTL_STOP);
	CHECK_EQ(record_control__parse_cmd("ping", &arg, &bad), RECORD_CTL_PING);
	CHECK_EQ(record_control__parse_cmd("bogus", &arg, &bad), RECORD_CTL_UNSUPPORTED);
	CHECK_EQ(record_control__parse_cmd("", &arg, &bad), RECORD_CTL_UNSUPPORTED);
}
