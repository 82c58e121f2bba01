// SPDX-License-Identifier: GPL-2.0-only
/* ember heatmap on trace2heatmap.pl's input: "TIME LATENCY" lines. */
#include <errno.h>
#include <string.h>
#include "heatmap/heatmap.h"

int heatmap_text(const struct heatmap_cmd *cmd, FILE *in, const char *name, FILE *out)
{
	struct ember_heatmap_text_stats st = { 0 };
	struct ember_heatmap_points *p = ember_heatmap_points__new();
	int err, ret = 1;

	if (!p) {
		fprintf(stderr, "ember heatmap: out of memory\n");
		return 1;
	}
	err = ember_heatmap_points__read_text(p, in, &st);
	if (err) {
		fprintf(stderr, "ember heatmap: cannot read %s: %s\n", name, strerror(-err));
		goto out;
	}
	if (!st.points) {
		if (st.skipped)
			fprintf(stderr, "ember heatmap: %s has no line of two numbers (time latency); "
				"line %llu is not one\n", name,
				(unsigned long long)st.first_skipped);
		else
			fprintf(stderr, "ember heatmap: %s is empty: expected lines of two numbers "
				"(time latency)\n", name);
		goto out;
	}
	if (st.skipped)
		fprintf(stderr, "ember heatmap: skipped %llu line%s of %s that %s not two numbers "
			"(first: line %llu)\n", (unsigned long long)st.skipped,
			st.skipped == 1 ? "" : "s", name, st.skipped == 1 ? "is" : "are",
			(unsigned long long)st.first_skipped);
	ret = heatmap_cmd__draw(cmd, p, name, out);
out:
	ember_heatmap_points__delete(p);
	return ret;
}
