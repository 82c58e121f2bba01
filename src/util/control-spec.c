// SPDX-License-Identifier: GPL-2.0-only
/* --control fd:/fifo: for record and stat (see control-spec.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include "util/control-spec.h"

/* A descriptor number as perf's strtoul(s, &end, 0) reads it, up to *end. */
static int parse_fd(const char *s, const char **end)
{
	char *e;
	long v;

	errno = 0;
	v = strtol(s, &e, 0);
	*end = e;
	if (e == s || errno || v < 0 || v > 1 << 20)
		return -EINVAL;
	return (int)v;
}

int control_spec__parse(struct control_spec *cs, const char *spec)
{
	const char *end;
	char *comma;

	memset(cs, 0, sizeof(*cs));
	cs->ctl_fd = cs->ack_fd = -1;
	if (!strncmp(spec, "fd:", 3)) {
		cs->ctl_fd = parse_fd(spec + 3, &end);
		if (cs->ctl_fd >= 0 && *end == ',')
			cs->ack_fd = parse_fd(end + 1, &end);
		if (cs->ctl_fd < 0 || cs->ack_fd < -1 || *end)
			return -EINVAL;
		return 0;
	}
	if (strncmp(spec, "fifo:", 5) || !spec[5] || spec[5] == ',')
		return -EINVAL;
	cs->fifo = true;
	cs->buf = strdup(spec + 5);
	if (!cs->buf)
		return -ENOMEM;
	cs->ctl_path = cs->buf;
	comma = strchr(cs->buf, ',');
	if (comma) {
		*comma++ = '\0';
		if (*comma)
			cs->ack_path = comma;
	}
	return 0;
}

void control_spec__exit(struct control_spec *cs)
{
	free(cs->buf);
	cs->buf = NULL;
	cs->ctl_path = cs->ack_path = NULL;
}

int control_spec__open_fifo(const char *path)
{
	int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}
