// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "script/filter.h"

int str_list__parse(struct str_list *l, const char *s)
{
	char *p, *save = NULL;

	memset(l, 0, sizeof(*l));
	if (!s)
		return 0;
	l->buf = strdup(s);
	l->items = calloc(strlen(s) / 2 + 2, sizeof(*l->items));
	if (!l->buf || !l->items) {
		str_list__exit(l);
		return -ENOMEM;
	}
	for (p = strtok_r(l->buf, ",", &save); p; p = strtok_r(NULL, ",", &save))
		l->items[l->nr++] = p;
	return 0;
}

void str_list__exit(struct str_list *l)
{
	free(l->buf);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

bool str_list__has(const struct str_list *l, const char *s)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!strcmp(l->items[i], s))
			return true;
	return false;
}

static int int_list(const char *s, int **out, size_t *nr, const char *what, FILE *err)
{
	struct str_list l;
	int ret = str_list__parse(&l, s);

	if (ret)
		return ret;
	*out = calloc(l.nr + 1, sizeof(**out));
	if (!*out) {
		str_list__exit(&l);
		return -ENOMEM;
	}
	for (size_t i = 0; i < l.nr; i++) {
		char *end;
		long v = strtol(l.items[i], &end, 10);

		if (*end || end == l.items[i]) {
			fprintf(err, "ember script: bad %s '%s' in '%s'\n", what, l.items[i], s);
			str_list__exit(&l);
			return -EINVAL;
		}
		(*out)[(*nr)++] = (int)v;
	}
	str_list__exit(&l);
	return 0;
}

int script_filter__init(struct script_filter *f, const char *comms, const char *pids,
			const char *tids, const char *dsos, const char *syms, FILE *err)
{
	int ret;

	memset(f, 0, sizeof(*f));
	ret = str_list__parse(&f->comms, comms);
	if (!ret)
		ret = str_list__parse(&f->dsos, dsos);
	if (!ret)
		ret = str_list__parse(&f->syms, syms);
	if (!ret && pids) {
		f->has_pids = true;
		ret = int_list(pids, &f->pids, &f->nr_pids, "pid", err);
	}
	if (!ret && tids) {
		f->has_tids = true;
		ret = int_list(tids, &f->tids, &f->nr_tids, "tid", err);
	}
	if (ret == -ENOMEM)
		fprintf(err, "ember script: out of memory\n");
	return ret;
}

void script_filter__exit(struct script_filter *f)
{
	str_list__exit(&f->comms);
	str_list__exit(&f->dsos);
	str_list__exit(&f->syms);
	free(f->pids);
	free(f->tids);
	free(f->cpus);
	free(f->ranges);
	memset(f, 0, sizeof(*f));
}

int script_filter__set_cpus(struct script_filter *f, const char *list, uint32_t nr_cpus,
			    FILE *err)
{
	const char *p = list;

	f->nr_cpu_bits = nr_cpus;
	f->cpus = calloc(nr_cpus / 8 + 1, 1);
	if (!f->cpus)
		return -ENOMEM;
	while (*p) {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b = a;

		if (end == p)
			goto bad;
		if (*end == '-') {
			p = end + 1;
			b = strtoul(p, &end, 10);
			if (end == p || b < a)
				goto bad;
		}
		for (unsigned long c = a; c <= b; c++) {
			if (c >= nr_cpus) {
				/* perf's words, though the limit is the recording machine's cpus */
				fprintf(err,
					"ember script: Requested CPU %lu too large. "
					"Consider raising MAX_NR_CPUS\n",
					c);
				return -EINVAL;
			}
			f->cpus[c / 8] |= 1 << (c % 8);
		}
		p = end;
		if (*p == ',')
			p++;
		else if (*p)
			goto bad;
	}
	return 0;
bad:
	fprintf(err, "ember script: bad cpu list '%s'\n", list);
	return -EINVAL;
}

int script_time__parse(const char *s, uint64_t *ns)
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
	*ns = sec * 1000000000ULL + frac;
	return 0;
}

static int add_range(struct script_filter *f, uint64_t start, uint64_t end)
{
	struct time_range *r = realloc(f->ranges, (f->nr_ranges + 1) * sizeof(*r));

	if (!r)
		return -ENOMEM;
	f->ranges = r;
	r[f->nr_ranges++] = (struct time_range){ start, end };
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

static int add_percent(struct script_filter *f, double a, double b, uint64_t first, uint64_t last)
{
	uint64_t total = last - first;
	uint64_t start = first + (uint64_t)round(a * total), end = first + (uint64_t)round(b * total);

	if (a < 0 || b > 1 || a > b)
		return -EINVAL;
	/* adjacent slices must not share their boundary */
	if (end > start && end != last)
		end--;
	return add_range(f, start, end);
}

static int parse_percents(struct script_filter *f, const char *str, uint64_t first, uint64_t last)
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
		return add_percent(f, p * (i - 1), p * i, first, last);
	}
	for (const char *p = str; *p;) {
		const char *comma = strchr(p, ','), *stop = comma ? comma : p + strlen(p);
		const char *dash = memchr(p, '-', stop - p);
		double a, b;

		if (!dash)
			return -EINVAL;
		a = percent(p, dash);
		b = percent(dash + 1, stop);
		if (a < 0 || b < 0 || add_percent(f, a, b, first, last))
			return -EINVAL;
		p = comma ? comma + 1 : stop;
	}
	return 0;
}

int script_filter__set_time(struct script_filter *f, const char *str, uint64_t first,
			    uint64_t last, bool reltime)
{
	const char *comma = strchr(str, ',');
	uint64_t start = 0, end = 0;
	char buf[64];

	if (strchr(str, '%'))
		return parse_percents(f, str, first, last);
	if (!comma || strchr(comma + 1, ','))
		return -EINVAL;
	if (comma > str) {
		if ((size_t)(comma - str) >= sizeof(buf))
			return -EINVAL;
		memcpy(buf, str, comma - str);
		buf[comma - str] = '\0';
		if (script_time__parse(buf, &start))
			return -EINVAL;
	}
	if (comma[1] && script_time__parse(comma + 1, &end))
		return -EINVAL;
	if (start && end && start > end)
		return -EINVAL;
	if (reltime) {
		if (start)
			start += first;
		if (end)
			end += first;
	}
	return add_range(f, start, end);
}

bool script_filter__skip_time(const struct script_filter *f, uint64_t time)
{
	if (!f->nr_ranges)
		return false;
	for (size_t i = 0; i < f->nr_ranges; i++) {
		const struct time_range *r = &f->ranges[i];

		if ((!r->start || time >= r->start) && (!r->end || time <= r->end))
			return false;
	}
	return true;
}

static bool has_int(const int *v, size_t nr, int x)
{
	for (size_t i = 0; i < nr; i++)
		if (v[i] == x)
			return true;
	return false;
}

bool script_filter__skip_sample(const struct script_filter *f, const struct ember_addr_location *al)
{
	if (f->comms.nr && (!al->comm || !str_list__has(&f->comms, al->comm)))
		return true;
	if (f->has_pids && (!al->thread || !has_int(f->pids, f->nr_pids,
						      ember_thread__pid(al->thread))))
		return true;
	if (f->has_tids && (!al->thread || !has_int(f->tids, f->nr_tids,
						      ember_thread__tid(al->thread))))
		return true;
	if (f->dsos.nr && (!al->dso_short_name || !(str_list__has(&f->dsos, al->dso_short_name) ||
						    (al->dso_name &&
						     str_list__has(&f->dsos, al->dso_name)))))
		return true;
	if (f->syms.nr) {
		char addr[32];

		if (!al->sym_name)
			return true;
		if (str_list__has(&f->syms, al->sym_name))
			return false;
		snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)(al->ip - al->sym_off));
		return !str_list__has(&f->syms, addr);
	}
	return false;
}
