// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perf report's --comms, --pid, --tid, --dsos, --symbols (the sample is
 * counted but not shown: its entries are "filtered") and --cpu (the
 * sample is dropped).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include "hist/filters.h"
#include "hist/opts.h"

struct str_set {
	char **v;
	size_t nr;
};

static struct str_set *str_set__new(const char *list)
{
	struct str_set *s = calloc(1, sizeof(*s));
	char *copy = strdup(list), *tok, *save = NULL;

	if (!s || !copy)
		goto fail;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char **v = realloc(s->v, (s->nr + 1) * sizeof(*v));

		if (!v)
			goto fail;
		s->v = v;
		if (!(s->v[s->nr] = strdup(tok)))
			goto fail;
		s->nr++;
	}
	free(copy);
	return s;
fail:
	free(copy);
	if (s) {
		while (s->nr)
			free(s->v[--s->nr]);
		free(s->v);
		free(s);
	}
	return NULL;
}

static void str_set__delete(struct str_set *s)
{
	if (!s)
		return;
	while (s->nr)
		free(s->v[--s->nr]);
	free(s->v);
	free(s);
}

static bool str_set__has(const struct str_set *s, const char *str)
{
	size_t i;

	if (!str)
		return false;
	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->v[i], str))
			return true;
	return false;
}

static int int_list(const char *list, int32_t **out, size_t *nr, const char *what, char *bad,
		    size_t badsz)
{
	char *copy = strdup(list), *tok, *save = NULL;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		long v = strtol(tok, &end, 10);
		int32_t *grown;

		if (*end || end == tok) {
			snprintf(bad, badsz, "%s '%s'", what, tok);
			free(copy);
			return -EINVAL;
		}
		grown = realloc(*out, (*nr + 1) * sizeof(**out));
		if (!grown) {
			free(copy);
			return -ENOMEM;
		}
		*out = grown;
		(*out)[(*nr)++] = (int32_t)v;
	}
	free(copy);
	return 0;
}

/* "0-3,7" into a bitmap. */
static int cpu_list(struct ember_hist_filters *f, const char *list, char *bad, size_t badsz)
{
	char *copy = strdup(list), *tok, *save = NULL;

	if (!copy)
		return -ENOMEM;
	f->max_cpu = 4096;
	f->cpus = calloc(f->max_cpu / 64, sizeof(uint64_t));
	if (!f->cpus) {
		free(copy);
		return -ENOMEM;
	}
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		unsigned long a = strtoul(tok, &end, 10), b = a, c;

		if (end != tok && *end == '-')
			b = strtoul(end + 1, &end, 10);
		if (*end || b < a || b >= f->max_cpu) {
			snprintf(bad, badsz, "cpu list '%s'", list);
			free(copy);
			return -EINVAL;
		}
		for (c = a; c <= b; c++)
			f->cpus[c / 64] |= 1ULL << (c % 64);
	}
	free(copy);
	return 0;
}

void ember_hist_filters__delete(struct ember_hist_filters *f)
{
	if (!f)
		return;
	str_set__delete(f->comms);
	str_set__delete(f->dsos);
	str_set__delete(f->syms);
	free(f->pids);
	free(f->tids);
	free(f->cpus);
	free(f);
}

static int parse(struct ember_hist_filters *f, const struct ember_hist_filter_opts *o, char *why,
		 size_t whysz)
{
	int err;

	if ((o->comms && !(f->comms = str_set__new(o->comms))) ||
	    (o->dsos && !(f->dsos = str_set__new(o->dsos))) ||
	    (o->syms && !(f->syms = str_set__new(o->syms))))
		return -ENOMEM;
	if (o->pids && (err = int_list(o->pids, &f->pids, &f->nr_pids, "pid", why, whysz)))
		return err;
	if (o->tids && (err = int_list(o->tids, &f->tids, &f->nr_tids, "tid", why, whysz)))
		return err;
	if (o->cpus && (err = cpu_list(f, o->cpus, why, whysz)))
		return err;
	return 0;
}

struct ember_hist_filters *ember_hist_filters__new(const struct ember_hist_filter_opts *opts,
						   char *why, size_t whysz)
{
	struct ember_hist_filter_opts o;
	struct ember_hist_filters *f;
	int err;

	if (!opts || !opts->sz) {
		errno = EINVAL;
		return NULL;
	}
	hist_opts_copy(&o, sizeof(o), opts, opts->sz);
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	err = parse(f, &o, why, whysz);
	if (err) {
		ember_hist_filters__delete(f);
		errno = -err;
		return NULL;
	}
	return f;
}

static bool has_int(const int32_t *v, size_t nr, int32_t x)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (v[i] == x)
			return true;
	return false;
}

uint8_t hist_filters__mask(const struct ember_hist_filters *f, const struct ember_addr_location *al)
{
	uint8_t m = 0;

	if (!f)
		return 0;
	if (f->comms && !str_set__has(f->comms, al->comm))
		m |= EMBER_HIST_FILTER_COMM;
	if ((f->pids && (!al->thread || !has_int(f->pids, f->nr_pids, ember_thread__pid(al->thread)))) ||
	    (f->tids && (!al->thread || !has_int(f->tids, f->nr_tids, ember_thread__tid(al->thread)))))
		m |= EMBER_HIST_FILTER_THREAD;
	if (f->dsos && (!al->map || !(str_set__has(f->dsos, al->dso_short_name) ||
				      str_set__has(f->dsos, al->dso_name))))
		m |= EMBER_HIST_FILTER_DSO;
	if (f->syms) {
		bool ok = false;

		if (al->sym) {
			char addr[32];

			ok = str_set__has(f->syms, al->sym_name);
			if (!ok) {
				snprintf(addr, sizeof(addr), "0x%" PRIx64, al->ip - al->sym_off);
				ok = str_set__has(f->syms, addr);
			}
		}
		if (!ok)
			m |= EMBER_HIST_FILTER_SYMBOL;
	}
	return m;
}

bool hist_filters__skip_cpu(const struct ember_hist_filters *f, const struct ember_sample *s,
			    uint64_t sample_type)
{
	if (!f || !f->cpus)
		return false;
	if (!(sample_type & PERF_SAMPLE_CPU) || s->cpu >= f->max_cpu)
		return true;
	return !(f->cpus[s->cpu / 64] & (1ULL << (s->cpu % 64)));
}

bool ember_hist_filters__has_cpu(const struct ember_hist_filters *f, uint32_t cpu)
{
	if (!f || !f->cpus)
		return true;
	return cpu < f->max_cpu && (f->cpus[cpu / 64] & (1ULL << (cpu % 64)));
}

bool hist_filters__by_symbol(const struct ember_hist_filters *f)
{
	return f && (f->dsos || f->syms);
}
