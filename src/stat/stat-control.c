// SPDX-License-Identifier: GPL-2.0-only
/* --control: enable/disable commands on a descriptor or fifo while ember stat counts. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "stat/stat-control.h"

void stat_control__init(struct stat_control *ctl)
{
	memset(ctl, 0, sizeof(*ctl));
	ctl->ctl_fd = ctl->ack_fd = -1;
}

static int parse_fd(const char *s, int *fd)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || *end || v < 0 || v > 1 << 20)
		return -EINVAL;
	*fd = (int)v;
	return 0;
}

/* A fifo opened read-write: no wait for a writer, and no end of file when one leaves. */
static int open_fifo(const char *path, int *fd)
{
	*fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK);
	return *fd < 0 ? -errno : 0;
}

int stat_control__parse(struct stat_control *ctl, const char *spec)
{
	bool fifo = !strncmp(spec, "fifo:", 5);
	char *copy, *ack;
	int err;

	if (!fifo && strncmp(spec, "fd:", 3))
		return -EINVAL;
	copy = strdup(spec + (fifo ? 5 : 3));
	if (!copy)
		return -ENOMEM;
	ack = strchr(copy, ',');
	if (ack)
		*ack++ = '\0';
	if (fifo) {
		ctl->opened = true;
		err = open_fifo(copy, &ctl->ctl_fd);
		if (!err && ack)
			err = open_fifo(ack, &ctl->ack_fd);
	} else {
		err = parse_fd(copy, &ctl->ctl_fd);
		if (!err && ack)
			err = parse_fd(ack, &ctl->ack_fd);
	}
	free(copy);
	if (err)
		stat_control__exit(ctl);
	return err;
}

void stat_control__exit(struct stat_control *ctl)
{
	if (ctl->opened) {
		if (ctl->ctl_fd >= 0)
			close(ctl->ctl_fd);
		if (ctl->ack_fd >= 0)
			close(ctl->ack_fd);
	}
	stat_control__init(ctl);
}

static void ack(const struct stat_control *ctl)
{
	/* perf writes its tag with the string's NUL. */
	static const char tag[] = "ack\n";

	if (ctl->ack_fd >= 0 && write(ctl->ack_fd, tag, sizeof(tag)) < 0)
		return;
}

static bool is_cmd(const char *line, const char *cmd)
{
	size_t n = strlen(cmd);

	return !strncmp(line, cmd, n) && (line[n] == '\0' || line[n] == ' ');
}

static void run_command(struct stat_control *ctl, const char *line, struct ember_evlist *evlist,
			bool quiet)
{
	if (is_cmd(line, "enable")) {
		ember_evlist__enable(evlist);
		if (!quiet)
			fprintf(stderr, "Events enabled\n");
	} else if (is_cmd(line, "disable")) {
		ember_evlist__disable(evlist);
		if (!quiet)
			fprintf(stderr, "Events disabled\n");
	} else if (!is_cmd(line, "ping")) {
		return;		/* not a command: no ack, as perf */
	}
	ack(ctl);
}

bool stat_control__process(struct stat_control *ctl, struct ember_evlist *evlist, bool quiet)
{
	char c;
	ssize_t n;

	/* A byte at a time: a command ends at a newline or a NUL. */
	while ((n = read(ctl->ctl_fd, &c, 1)) == 1) {
		if (c == '\n' || c == '\0') {
			ctl->buf[ctl->len] = '\0';
			if (ctl->len)
				run_command(ctl, ctl->buf, evlist, quiet);
			ctl->len = 0;
		} else if (ctl->len + 1 < sizeof(ctl->buf)) {
			ctl->buf[ctl->len++] = c;
		}
	}
	return !(n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR));
}
