// SPDX-License-Identifier: GPL-2.0-only
/* Opening perf.data for ember heatmap, with perf's messages. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "heatmap/session.h"

struct ember_session *heatmap_session_open(const char *path, bool force, bool need_ips)
{
	/* latency maps pair tracepoints by their fields: no sample's ip is looked up */
	struct ember_session_opts opts = { .sz = sizeof(opts), .force = force,
					   .lazy_sample_ip = !need_ips };
	struct ember_session *s = ember_session__open(path, &opts);

	if (s)
		return s;
	switch (errno) {
	case ENODATA:
		fprintf(stderr, "ember heatmap: %s is empty\n", path);
		break;
	case EPERM:
		fprintf(stderr, "ember heatmap: %s is not owned by you or root (use -f to read it "
			"anyway)\n", path);
		break;
	case EINVAL:
		fprintf(stderr, "ember heatmap: %s is not a perf.data file\n", path);
		break;
	default:
		fprintf(stderr, "ember heatmap: cannot read %s: %s\n", path, strerror(errno));
	}
	return NULL;
}

void heatmap_session_events(struct ember_session *s, char *buf, size_t size)
{
	struct ember_data_reader *r = ember_session__reader(s);
	uint32_t nr = ember_data_reader__nr_attrs(r);
	size_t len = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < nr && len < size; i++) {
		const struct ember_data_attr *a = ember_data_reader__attr(r, i);
		int n = snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
				 a->name ? a->name : "?");

		if (n < 0)
			break;
		len += n;
	}
}
