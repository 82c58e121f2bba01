// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf record's --control channel (see control.h). The commands, their
 * messages on stderr and the acknowledgement are perf 6.1's: "Events
 * enabled", "Event NAME disabled", "failed: can't find 'NAME' event",
 * and "ack\n" plus its terminating NUL (perf writes sizeof("ack\n")).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ember/perf-data.h>
#include "record/control.h"
#include "record/record.h"
#include "util/control-spec.h"

static const struct {
	const char *tag;
	enum record_ctl_cmd cmd;
} tags[] = {
	{ "enable", RECORD_CTL_ENABLE },	{ "disable", RECORD_CTL_DISABLE },
	{ "snapshot", RECORD_CTL_SNAPSHOT },	{ "evlist", RECORD_CTL_EVLIST },
	{ "stop", RECORD_CTL_STOP },		{ "ping", RECORD_CTL_PING },
};

int record_control__check(const char *spec)
{
	struct control_spec cs;
	int err = control_spec__parse(&cs, spec);

	control_spec__exit(&cs);
	return err;
}

int record_control__open(struct record_control *ctl, const char *spec)
{
	struct control_spec cs;
	int err;

	ctl->fd = ctl->ack = ctl->pollfd = -1;
	ctl->owned = false;
	if (!spec)
		return 0;
	err = control_spec__parse(&cs, spec);
	if (err) {
		control_spec__exit(&cs);
		if (err == -ENOMEM)
			record_err("out of memory");
		return err == -ENOMEM ? 1 : 2;
	}
	if (!cs.fifo) {
		if (fcntl(cs.ctl_fd, F_GETFD) < 0 ||
		    (cs.ack_fd >= 0 && fcntl(cs.ack_fd, F_GETFD) < 0)) {
			record_err("--control %s: %s", spec, strerror(errno));
			return 1;
		}
		ctl->fd = cs.ctl_fd;
		ctl->ack = cs.ack_fd;
		return 0;
	}
	ctl->owned = true;
	ctl->fd = control_spec__open_fifo(cs.ctl_path);
	if (ctl->fd < 0) {
		record_err("cannot open the control fifo %s: %s", cs.ctl_path, strerror(-ctl->fd));
		ctl->fd = -1;
		control_spec__exit(&cs);
		return 1;
	}
	if (cs.ack_path) {
		ctl->ack = control_spec__open_fifo(cs.ack_path);
		if (ctl->ack < 0) {
			record_err("cannot open the ack fifo %s: %s", cs.ack_path, strerror(-ctl->ack));
			ctl->ack = -1;
			control_spec__exit(&cs);
			record_control__close(ctl);
			return 1;
		}
	}
	control_spec__exit(&cs);
	return 0;
}

void record_control__close(struct record_control *ctl)
{
	if (!ctl->owned)
		return;
	if (ctl->fd >= 0)
		close(ctl->fd);
	if (ctl->ack >= 0)
		close(ctl->ack);
	ctl->fd = ctl->ack = -1;
	ctl->owned = false;
}

enum record_ctl_cmd record_control__parse_cmd(const char *line, const char **arg,
					      bool *malformed)
{
	*arg = NULL;
	*malformed = false;
	for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		size_t n = strlen(tags[i].tag);

		if (strncmp(line, tags[i].tag, n))
			continue;
		if (line[n] == ' ')
			*arg = line + n + 1;
		else if (line[n])
			*malformed = true;
		return tags[i].cmd;
	}
	return RECORD_CTL_UNSUPPORTED;
}

/*
 * One line, read a byte at a time as perf does: a blocking fd given with
 * fd: never blocks once a whole line is there. Returns its length, 0 when
 * nothing was there, -1 at end of file or on an error.
 */
static int read_line(int fd, char *buf)
{
	size_t n = 0;

	memset(buf, 0, RECORD_CTL_MAX_LEN);
	while (n < RECORD_CTL_MAX_LEN - 1) {
		char c;
		ssize_t r = read(fd, &c, 1);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (r <= 0)
			return n ? (int)n : -1;
		if (c == '\n' || c == '\0')
			break;
		buf[n++] = c;
	}
	return (int)n;
}

static void ack(const struct record *rec)
{
	static const char msg[] = "ack\n";

	if (rec->ctl.ack >= 0 && write(rec->ctl.ack, msg, sizeof(msg)) < 0)
		record_err("cannot write to the --control ack fd %d: %s", rec->ctl.ack,
			   strerror(errno));
}

static void info(const struct record *rec, const char *fmt, const char *name)
{
	if (!rec->opts.quiet)
		fprintf(stderr, fmt, name);
}

static void enable(struct record *rec, const char *name, bool on)
{
	struct ember_evsel *pos;

	if (!name) {
		if (on)
			ember_evlist__enable(rec->evlist);
		else
			ember_evlist__disable(rec->evlist);
		info(rec, "%s\n", on ? "Events enabled" : "Events disabled");
		return;
	}
	ember_evlist__for_each(rec->evlist, pos) {
		if (strcmp(ember_evsel__name(pos), name))
			continue;
		/* every fd of that one evsel: perf's evlist__enable_evsel() for a name */
		if (on)
			ember_evsel__enable(pos);
		else
			ember_evsel__disable(pos);
		if (!rec->opts.quiet)
			fprintf(stderr, "Event %s %s\n", name, on ? "enabled" : "disabled");
		return;
	}
	info(rec, "failed: can't find '%s' event\n", name);
}

/* perf's " -v" form: "NAME: type: 1, size: 128, ..." from the attr printer's ", k = v". */
static void print_attr(const struct ember_evsel *evsel)
{
	char *buf = NULL, *p;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return;
	ember_attr__fprintf(f, ember_evsel__attr(evsel));
	fclose(f);
	fprintf(stderr, "%s:", ember_evsel__name(evsel));
	p = buf && !strncmp(buf, ",", 1) ? buf + 1 : buf;
	for (; p && *p; p++) {
		if (!strncmp(p, " = ", 3)) {
			fputs(": ", stderr);
			p += 2;
		} else {
			fputc(*p, stderr);
		}
	}
	fputc('\n', stderr);
	free(buf);
}

static void evlist(struct record *rec, const char *arg)
{
	struct ember_evsel *pos;

	if (arg && strcmp(arg, "-v") && strcmp(arg, "-g") && strcmp(arg, "-F")) {
		info(rec, "%s", "failed: wrong command\n");
		return;
	}
	ember_evlist__for_each(rec->evlist, pos) {
		if (arg && !strcmp(arg, "-v"))
			print_attr(pos);
		else if (arg && !strcmp(arg, "-F") && ember_evsel__attr(pos)->freq)
			fprintf(stderr, "%s: sample_freq=%llu\n", ember_evsel__name(pos),
				(unsigned long long)ember_evsel__attr(pos)->sample_freq);
		else
			fprintf(stderr, "%s\n", ember_evsel__name(pos));
	}
}

static void run(struct record *rec, const char *line)
{
	enum record_ctl_cmd cmd;
	const char *arg;
	bool bad;

	cmd = record_control__parse_cmd(line, &arg, &bad);
	switch (cmd) {
	case RECORD_CTL_UNSUPPORTED:
		return;	/* perf neither answers nor acks */
	case RECORD_CTL_ENABLE:
	case RECORD_CTL_DISABLE:
		/* a malformed command is still acknowledged, as perf does */
		if (bad)
			info(rec, "%s", "failed: wrong command\n");
		else
			enable(rec, arg, cmd == RECORD_CTL_ENABLE);
		break;
	case RECORD_CTL_EVLIST:
		if (bad)
			info(rec, "%s", "failed: wrong command\n");
		else
			evlist(rec, arg);
		break;
	case RECORD_CTL_SNAPSHOT:
		/* ember's SIGUSR2: the --overwrite buffers' contents into the file */
		if (rec->ow.nr)
			rec->loop.usr2 = true;
		break;
	case RECORD_CTL_STOP:
		rec->loop.done = true;
		break;
	case RECORD_CTL_PING:
		break;
	}
	ack(rec);
}

void record_control__process(struct record *rec, short revents)
{
	struct pollfd *p;
	char line[RECORD_CTL_MAX_LEN];

	if (rec->ctl.pollfd < 0)
		return;
	p = &rec->loop.pollfds[rec->ctl.pollfd];
	if (revents & POLLIN) {
		/* every whole line there; poll before each so a blocking fd never waits */
		for (;;) {
			struct pollfd one = { .fd = rec->ctl.fd, .events = POLLIN };
			int n;

			if (poll(&one, 1, 0) <= 0 || !(one.revents & POLLIN))
				break;
			n = read_line(rec->ctl.fd, line);
			if (n < 0) {
				revents |= POLLHUP;
				break;
			}
			if (n == 0)
				break;
			run(rec, line);
		}
	}
	if (revents & (POLLHUP | POLLERR))
		p->fd = -1;	/* the writer is gone for good (fd: form): stop polling it */
}
