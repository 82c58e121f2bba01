// SPDX-License-Identifier: GPL-2.0-only
/* --control (record and stat): the argument's forms and perf's prefix matching of commands. */
#include <errno.h>
#include "test.h"
#include "record/control.h"
#include "util/control-spec.h"

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

/* The parts record and stat take from the spec, as perf's evlist__parse_control(). */
TEST(control_spec_parts)
{
	struct control_spec cs;

	CHECK_EQ(control_spec__parse(&cs, "fd:0x3,4"), 0);
	CHECK(!cs.fifo && cs.ctl_fd == 3 && cs.ack_fd == 4);
	control_spec__exit(&cs);
	CHECK_EQ(control_spec__parse(&cs, "fd:7"), 0);
	CHECK(cs.ctl_fd == 7 && cs.ack_fd == -1);
	control_spec__exit(&cs);
	CHECK_EQ(control_spec__parse(&cs, "fifo:/a/ctl,/b/ack"), 0);
	CHECK(cs.fifo);
	CHECK_STR(cs.ctl_path, "/a/ctl");
	CHECK_STR(cs.ack_path, "/b/ack");
	control_spec__exit(&cs);
	/* an empty ack is none, as in perf */
	CHECK_EQ(control_spec__parse(&cs, "fifo:ctl,"), 0);
	CHECK_STR(cs.ctl_path, "ctl");
	CHECK(cs.ack_path == NULL);
	control_spec__exit(&cs);
	CHECK_EQ(control_spec__parse(&cs, "fd:3,4,5"), -EINVAL);
	control_spec__exit(&cs);
	CHECK_EQ(control_spec__open_fifo("/nonexistent/ember-ctl"), -ENOENT);
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
