// SPDX-License-Identifier: GPL-2.0-only
/* Welford's running mean and variance, for the -r noise column. */
#include <math.h>
#include "stat/stat-stats.h"

void stat_stats__init(struct stat_stats *s)
{
	s->n = s->mean = s->M2 = 0.0;
}

void stat_stats__update(struct stat_stats *s, double val)
{
	double delta;

	s->n++;
	delta = val - s->mean;
	s->mean += delta / s->n;
	s->M2 += delta * (val - s->mean);
}

double stat_stats__avg(const struct stat_stats *s)
{
	return s->mean;
}

double stat_stats__stddev(const struct stat_stats *s)
{
	double variance;

	if (s->n < 2)
		return 0.0;
	variance = s->M2 / (s->n - 1);
	/* perf prints the error of the mean, not the spread of the samples. */
	return sqrt(variance / s->n);
}

double stat_stats__rel_stddev(double stddev, double avg)
{
	return avg ? 100.0 * stddev / avg : 0.0;
}
