// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/hash.h"
#include "data/attrs.h"
#include "data/format.h"

/* Points id at attr idx (a later attr with the same id takes it over); room was reserved. */
static void id_put(struct data_attrs *t, uint64_t id, uint32_t idx)
{
	uint64_t h = hash_mix64(id);
	struct hashtab_slot *s = hashtab__slot(&t->by_id, h, hashtab__eq_hash, NULL);

	if (s->val)
		s->val = idx + 1;
	else
		hashtab__fill(&t->by_id, s, h, idx + 1);
}

static int calc_id_pos(uint64_t st)
{
	int idx = 0;

	if (st & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	idx += !!(st & PERF_SAMPLE_IP);
	idx += !!(st & PERF_SAMPLE_TID);
	idx += !!(st & PERF_SAMPLE_TIME);
	idx += !!(st & PERF_SAMPLE_ADDR);
	return idx;
}

static int calc_is_pos(uint64_t st)
{
	int idx = 1;

	if (st & PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	idx += !!(st & PERF_SAMPLE_CPU);
	idx += !!(st & PERF_SAMPLE_STREAM_ID);
	return idx;
}

/* The largest id range mapped directly: 16 KB of table. */
#define DMAP_MAX 4096

/*
 * Widens the direct map to the new attr's ids and enters them: the cost
 * is the new ids (and a copy when the range grows), not every id so far,
 * so a file of many attrs stays linear. A range too wide turns it off.
 */
static void update_dmap(struct data_attrs *t, const struct ember_data_attr *a)
{
	uint64_t lo = t->dmap_len ? t->dmap_min : UINT64_MAX;
	uint64_t hi = t->dmap_len ? t->dmap_min + t->dmap_len - 1 : 0;
	uint32_t *map = t->dmap;

	if (t->dmap_off || !a->nr_ids)
		return;
	for (uint32_t j = 0; j < a->nr_ids; j++) {
		lo = a->ids[j] < lo ? a->ids[j] : lo;
		hi = a->ids[j] > hi ? a->ids[j] : hi;
	}
	if (hi - lo >= DMAP_MAX)
		goto off;
	if (!t->dmap_len || lo != t->dmap_min || hi - lo + 1 != t->dmap_len) {
		map = calloc(hi - lo + 1, sizeof(*map));
		if (!map)
			goto off;
		if (t->dmap_len)
			memcpy(map + (t->dmap_min - lo), t->dmap, t->dmap_len * sizeof(*map));
		free(t->dmap);
		t->dmap = map;
		t->dmap_min = lo;
		t->dmap_len = hi - lo + 1;
	}
	/* a later attr's id wins, as in the hash */
	for (uint32_t j = 0; j < a->nr_ids; j++)
		map[a->ids[j] - lo] = a->idx + 1;
	return;
off:
	free(t->dmap);
	t->dmap = NULL;
	t->dmap_len = 0;
	t->dmap_off = true;
}

int data_attrs_add(struct data_attrs *t, const struct perf_event_attr *attr, uint32_t file_size,
		   const void *ids, uint32_t nr_ids, const char *name)
{
	struct ember_data_attr *a;
	uint64_t *idcopy = NULL;
	char *namecopy = NULL;

	if (t->nr == t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 8;
		struct ember_data_attr **v = realloc(t->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->v = v;
		t->cap = cap;
	}
	if (hashtab__reserve(&t->by_id, nr_ids))
		return -ENOMEM;
	a = calloc(1, sizeof(*a));
	if (nr_ids)
		idcopy = malloc(nr_ids * sizeof(*idcopy));
	if (name)
		namecopy = strdup(name);
	if (!a || (nr_ids && !idcopy) || (name && !namecopy)) {
		free(a);
		free(idcopy);
		free(namecopy);
		return -ENOMEM;
	}
	a->attr = *attr;
	a->file_attr_size = file_size;
	a->idx = t->nr;
	a->nr_ids = nr_ids;
	if (nr_ids)
		memcpy(idcopy, ids, nr_ids * sizeof(*idcopy));
	a->ids = idcopy;
	a->name = namecopy;
	for (uint32_t i = 0; i < nr_ids; i++)
		id_put(t, idcopy[i], a->idx);
	if (t->nr == 0) {
		t->id_pos = calc_id_pos(attr->sample_type);
		t->is_pos = calc_is_pos(attr->sample_type);
	}
	t->v[t->nr++] = a;
	/* without a map (too wide, out of memory) the hash still answers */
	update_dmap(t, a);
	return a->idx;
}

int data_attrs_set_name(struct data_attrs *t, uint32_t idx, const char *name)
{
	char *copy;

	if (idx >= t->nr)
		return -ENOENT;
	if (t->v[idx]->name && !strcmp(t->v[idx]->name, name))
		return 0;
	copy = strdup(name);
	if (!copy)
		return -ENOMEM;
	if (t->v[idx]->name) {
		/* Keep the old one alive: a caller may still point at it. */
		char **old = realloc(t->old_names, (t->nr_old_names + 1) * sizeof(*old));

		if (!old) {
			free(copy);
			return -ENOMEM;
		}
		t->old_names = old;
		t->old_names[t->nr_old_names++] = (char *)t->v[idx]->name;
	}
	t->v[idx]->name = copy;
	return 0;
}

const struct ember_data_attr *data_attrs_find(const struct data_attrs *t, uint64_t id)
{
	uint64_t idx;

	if (t->dmap_len) {
		uint64_t d = id - t->dmap_min;

		/* every id is in the map: one outside it is nobody's */
		if (d >= t->dmap_len || !t->dmap[d])
			return NULL;
		return t->v[t->dmap[d] - 1];
	}
	idx = hashtab__get(&t->by_id, hash_mix64(id), hashtab__eq_hash, NULL);
	return idx ? t->v[idx - 1] : NULL;
}

const struct ember_data_attr *data_attrs_of(const struct data_attrs *t,
					    const struct perf_event_header *rec)
{
	const uint8_t *p = (const uint8_t *)rec;
	uint32_t words = (rec->size - sizeof(*rec)) / 8;
	uint64_t id;

	if (!t->nr)
		return NULL;
	if (t->nr == 1)
		return t->v[0];
	if (rec->type == PERF_RECORD_SAMPLE) {
		if (t->id_pos < 0)
			return t->v[0];
		if ((uint32_t)t->id_pos >= words)
			return NULL;
		id = get_u64(p + 8 + 8 * t->id_pos);
	} else {
		if (!t->v[0]->attr.sample_id_all || t->is_pos < 0)
			return t->v[0];
		if ((uint32_t)t->is_pos > words)
			return NULL;
		id = get_u64(p + 8 + 8 * (words - t->is_pos));
	}
	/* records perf synthesizes carry a zero id: they belong to the first event */
	if (!id)
		return t->v[0];
	return data_attrs_find(t, id);
}

void data_attrs_exit(struct data_attrs *t)
{
	for (uint32_t i = 0; i < t->nr; i++) {
		free((void *)t->v[i]->ids);
		free((char *)t->v[i]->name);
		free(t->v[i]);
	}
	for (uint32_t i = 0; i < t->nr_old_names; i++)
		free(t->old_names[i]);
	free(t->old_names);
	free(t->v);
	hashtab__exit(&t->by_id);
	free(t->dmap);
	memset(t, 0, sizeof(*t));
}
