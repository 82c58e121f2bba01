// SPDX-License-Identifier: GPL-2.0-only
/* ember heatmap --samples: FlameScope's sample-density view of a perf.data file. */
#include <stdio.h>
#include "heatmap/heatmap.h"

int heatmap_samples(const struct heatmap_cmd *cmd, const char *path, FILE *out)
{
	fprintf(stderr, "ember heatmap: --samples is not available yet\n");
	return 1;
}
