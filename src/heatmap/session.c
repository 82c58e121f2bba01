// SPDX-License-Identifier: GPL-2.0-only
/* Opening perf.data for ember heatmap. */
#include <stdio.h>
#include "heatmap/session.h"
#include "util/session-open.h"

struct ember_session *heatmap_session_open(const char *path, bool force, bool need_ips)
{
	/* latency maps pair tracepoints by their fields: no sample's ip is looked up */
	struct ember_session_opts opts = { .sz = sizeof(opts), .force = force,
					   .lazy_sample_ip = !need_ips };

	return session_open("heatmap", path, &opts);
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
