// SPDX-License-Identifier: GPL-2.0-only
/* perf's --time strings: see perf-time.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/perf-time.h"

int perf_time__parse_secs(const char *s, uint64_t *ns)
{
	const char *dot = strchr(s, '.');
	uint64_t sec = 0, frac = 0;
	size_t ndig;
	char *end;

	if (!*s)
		return -EINVAL;
	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	sec = strtoull(s, &end, 10);
	if (errno || (end != dot && *end))
		return -EINVAL;
	if (dot) {
		ndig = strlen(dot + 1);
		if (ndig > 9 || strspn(dot + 1, "0123456789") != ndig)
			return -EINVAL;
		for (size_t i = 0; i < 9; i++)
			frac = frac * 10 + (i < ndig ? (uint64_t)(dot[1 + i] - '0') : 0);
	}
	if (sec > (UINT64_MAX - frac) / 1000000000ULL)
		return -EINVAL;
	*ns = sec * 1000000000ULL + frac;
	return 0;
}

static int add_range(struct time_range **ranges, size_t *nr, uint64_t start, uint64_t end)
{
	struct time_range *r = realloc(*ranges, (*nr + 1) * sizeof(*r));

	if (!r)
		return -ENOMEM;
	*ranges = r;
	r[(*nr)++] = (struct time_range){ start, end };
	return 0;
}

/* "12.5%" → 0.125; negative on garbage. */
static double percent(const char *s, const char *stop)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end != '%' || end + 1 != stop || v < 0)
		return -1;
	return v / 100;
}

static int add_percent(struct time_range **ranges, size_t *nr, double a, double b, uint64_t first,
		       uint64_t last)
{
	uint64_t total = last - first;
	uint64_t start = first + (uint64_t)round(a * total), end = first + (uint64_t)round(b * total);

	if (a < 0 || b > 1 || a > b)
		return -EINVAL;
	/* adjacent slices must not share their boundary */
	if (end > start && end != last)
		end--;
	return add_range(ranges, nr, start, end);
}

static int parse_percents(const char *str, uint64_t first, uint64_t last,
			  struct time_range **ranges, size_t *nr)
{
	const char *slash = strchr(str, '/');

	if (!first || last <= first)
		return -EINVAL;
	if (slash) {
		double p = percent(str, slash);
		char *end;
		long i = strtol(slash + 1, &end, 10);

		if (p <= 0 || *end || end == slash + 1 || i < 1)
			return -EINVAL;
		return add_percent(ranges, nr, p * (i - 1), p * i, first, last);
	}
	for (const char *p = str; *p;) {
		const char *comma = strchr(p, ','), *stop = comma ? comma : p + strlen(p);
		const char *dash = memchr(p, '-', stop - p);
		double a, b;

		if (!dash)
			return -EINVAL;
		a = percent(p, dash);
		b = percent(dash + 1, stop);
		if (a < 0 || b < 0 || add_percent(ranges, nr, a, b, first, last))
			return -EINVAL;
		p = comma ? comma + 1 : stop;
	}
	return 0;
}

bool perf_time__is_percent(const char *str)
{
	return strchr(str, '%') != NULL;
}

int perf_time__parse_ranges(const char *str, uint64_t first, uint64_t last, bool reltime,
			    struct time_range **ranges, size_t *nr)
{
	const char *comma = strchr(str, ',');
	uint64_t start = 0, end = 0;
	char buf[64];

	if (perf_time__is_percent(str))
		return parse_percents(str, first, last, ranges, nr);
	if (!comma || strchr(comma + 1, ','))
		return -EINVAL;
	if (comma > str) {
		if ((size_t)(comma - str) >= sizeof(buf))
			return -EINVAL;
		memcpy(buf, str, comma - str);
		buf[comma - str] = '\0';
		if (perf_time__parse_secs(buf, &start))
			return -EINVAL;
	}
	if (comma[1] && perf_time__parse_secs(comma + 1, &end))
		return -EINVAL;
	if (start && end && start > end)
		return -EINVAL;
	if (reltime) {
		if (start)
			start += first;
		if (end)
			end += first;
	}
	return add_range(ranges, nr, start, end);
}

bool perf_time__skip(const struct time_range *ranges, size_t nr, uint64_t time)
{
	if (!nr)
		return false;
	for (size_t i = 0; i < nr; i++) {
		const struct time_range *r = &ranges[i];

		if ((!r->start || time >= r->start) && (!r->end || time <= r->end))
			return false;
	}
	return true;
}
