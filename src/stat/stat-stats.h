/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Running mean and variance (Welford) of a value over -r runs, as perf
 * keeps them: the noise column is the standard error of the mean relative
 * to the mean.
 */
#ifndef EMBER_STAT_STATS_H
#define EMBER_STAT_STATS_H

struct stat_stats {
	double n, mean, M2;
};

/* Reset to no samples. */
void stat_stats__init(struct stat_stats *s);
/* Add one sample. */
void stat_stats__update(struct stat_stats *s, double val);
/* The mean, 0 without samples. */
double stat_stats__avg(const struct stat_stats *s);
/* The standard error of the mean (stddev / sqrt(n)), 0 with fewer than 2 samples. */
double stat_stats__stddev(const struct stat_stats *s);
/* 100 * stddev / avg, or 0 when avg is 0: the "( +- x.xx% )" figure. */
double stat_stats__rel_stddev(double stddev, double avg);

#endif
