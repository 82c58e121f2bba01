// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* tracefs' uprobe_events and kprobe_events: the probes read, one added, one removed. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/array.h"
#include "probe/probe-priv.h"

struct ember_probe_events {
	struct ember_probe_trace *traces;
	char **lines;
	size_t nr, alloc, lines_alloc;
};

static int events_path(char *buf, size_t size, const char *tracefs, bool uprobe)
{
	if (snprintf(buf, size, "%s/%s", tracefs, uprobe ? "uprobe_events" : "kprobe_events") >=
	    (int)size)
		return -ENAMETOOLONG;
	return 0;
}

void ember_probe_events__delete(struct ember_probe_events *list)
{
	if (!list)
		return;
	for (size_t i = 0; i < list->nr; i++) {
		ember_probe_trace__exit(&list->traces[i]);
		free(list->lines[i]);
	}
	free(list->traces);
	free(list->lines);
	free(list);
}

/* Keep one listed line: a line that does not parse is skipped, as perf skips it. */
static int events_add(struct ember_probe_events *list, const char *line, bool uprobe)
{
	struct ember_probe_trace *t;
	int err;

	if (array__reserve((void **)&list->traces, &list->alloc, list->nr, sizeof(*list->traces)) ||
	    array__reserve((void **)&list->lines, &list->lines_alloc, list->nr,
			   sizeof(*list->lines)))
		return -ENOMEM;
	t = &list->traces[list->nr];
	err = ember_probe_trace__parse(t, line, uprobe);
	if (err)
		return err == -ENOMEM ? err : 0;
	list->lines[list->nr] = strdup(line);
	if (!list->lines[list->nr]) {
		ember_probe_trace__exit(t);
		return -ENOMEM;
	}
	list->nr++;
	return 0;
}

struct ember_probe_events *ember_probe_events__read(const char *tracefs, bool uprobe)
{
	struct ember_probe_events *list;
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *fp;
	int err;

	err = events_path(path, sizeof(path), tracefs, uprobe);
	if (err) {
		errno = -err;
		return NULL;
	}
	fp = fopen(path, "re");
	if (!fp)
		return NULL;
	list = calloc(1, sizeof(*list));
	if (!list)
		goto out_close;
	while ((n = getline(&line, &cap, fp)) > 0) {
		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		err = events_add(list, line, uprobe);
		if (err) {
			ember_probe_events__delete(list);
			list = NULL;
			errno = -err;
			break;
		}
	}
	free(line);
out_close:
	fclose(fp);
	return list;
}

size_t ember_probe_events__nr(const struct ember_probe_events *list)
{
	return list ? list->nr : 0;
}

const struct ember_probe_trace *ember_probe_events__get(const struct ember_probe_events *list,
							size_t idx)
{
	return list && idx < list->nr ? &list->traces[idx] : NULL;
}

const char *ember_probe_events__line(const struct ember_probe_events *list, size_t idx)
{
	return list && idx < list->nr ? list->lines[idx] : NULL;
}

/* One whole write of line to the events file: the kernel takes a definition per write. */
static int write_line(const char *tracefs, bool uprobe, const char *line, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd, err;

	err = events_path(path, sizeof(path), tracefs, uprobe);
	if (err)
		return err;
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, line, len);
	err = n < 0 ? -errno : (size_t)n != len ? -EIO : 0;
	close(fd);
	return err;
}

int ember_probe__add(const char *tracefs, const struct ember_probe_trace *t, const char **why)
{
	char line[EMBER_PROBE_LINE_MAX];
	int len;

	len = ember_probe_trace__format(t, line, sizeof(line), why);
	if (len < 0)
		return len;
	return write_line(tracefs, t->uprobe, line, (size_t)len);
}

int ember_probe__del(const char *tracefs, bool uprobe, const char *group, const char *event)
{
	char line[2 * EMBER_PROBE_NAME_MAX + 4];
	int len;

	if (!ember_probe__is_c_name(group) || !ember_probe__is_c_name(event))
		return -EINVAL;
	len = snprintf(line, sizeof(line), "-:%s/%s", group, event);
	if (len < 0 || (size_t)len >= sizeof(line))
		return -ENAMETOOLONG;
	return write_line(tracefs, uprobe, line, (size_t)len);
}
