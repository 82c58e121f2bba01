// SPDX-License-Identifier: GPL-2.0-only
/* ember heatmap on perf.data: latency between start and end events matched by a key. */
#include <stdio.h>
#include "heatmap/heatmap.h"

int heatmap_latency(struct heatmap_cmd *cmd, const char *path, FILE *out)
{
	fprintf(stderr, "ember heatmap: perf.data input is not available yet\n");
	return 1;
}
