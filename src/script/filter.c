// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "script/filter.h"

static bool str_list__has(const struct str_list *l, const char *s)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!strcmp(l->items[i], s))
			return true;
	return false;
}

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
	for (p = strtok_r(l->buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		/* perf's strlist refuses an entry twice, and with it the whole list */
		if (str_list__has(l, p)) {
			str_list__exit(l);
			return -EEXIST;
		}
		l->items[l->nr++] = p;
	}
	return 0;
}

void str_list__exit(struct str_list *l)
{
	free(l->buf);
	free(l->items);
	memset(l, 0, sizeof(*l));
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
		for (size_t j = 0; j < *nr; j++) {
			if ((*out)[j] == (int)v) {	/* as perf's intlist: no entry twice */
				str_list__exit(&l);
				return -EEXIST;
			}
		}
		(*out)[(*nr)++] = (int)v;
	}
	str_list__exit(&l);
	return 0;
}

int script_filter__init(struct script_filter *f, const char *comms, const char *pids,
			const char *tids, const char *dsos, const char *syms, FILE *err)
{
	const char *what = "dso";
	int ret;

	/* perf's symbol__init() order, which decides the list a message names */
	memset(f, 0, sizeof(*f));
	ret = str_list__parse(&f->dsos, dsos);
	if (!ret) {
		what = "comm";
		ret = str_list__parse(&f->comms, comms);
	}
	if (!ret && pids) {
		what = "pid";
		f->has_pids = true;
		ret = int_list(pids, &f->pids, &f->nr_pids, "pid", err);
	}
	if (!ret && tids) {
		what = "tid";
		f->has_tids = true;
		ret = int_list(tids, &f->tids, &f->nr_tids, "tid", err);
	}
	if (!ret) {
		what = "symbol";
		ret = str_list__parse(&f->syms, syms);
	}
	if (ret == -ENOMEM)
		fprintf(err, "ember script: out of memory\n");
	else if (ret == -EEXIST)
		fprintf(err, "ember script: problems parsing %s list\n", what);
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

/* --time lives in util/perf-time.c, shared with ember flamegraph. */
int script_filter__set_time(struct script_filter *f, const char *str, uint64_t first,
			    uint64_t last, bool reltime)
{
	return perf_time__parse_ranges(str, first, last, reltime, &f->ranges, &f->nr_ranges);
}

bool script_filter__skip_time(const struct script_filter *f, uint64_t time)
{
	return perf_time__skip(f->ranges, f->nr_ranges, time);
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
