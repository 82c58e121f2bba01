// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * File mode: the perf_file_header, the attrs section (attr + ids section
 * per entry) and the feature sections, all validated against the file size.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/log.h"
#include "data/features.h"
#include "data/reader.h"

static bool in_file(const struct ember_data_reader *r, uint64_t off, uint64_t size)
{
	return off <= r->file_size && size <= r->file_size - off;
}

static int read_attrs(struct ember_data_reader *r)
{
	const struct perf_file_header *fh = &r->fh;
	uint64_t nr, esz = fh->attr_size, ids_total = 0;

	if (!fh->attrs.size)
		return 0;
	if (esz < ATTR_SIZE_VER0 + sizeof(struct perf_file_section) || esz > RECORD_MAX_SIZE)
		return data_open_fail(r, -EINVAL, "bad attr_size %llu", (unsigned long long)esz);
	if (!in_file(r, fh->attrs.offset, fh->attrs.size))
		return data_open_fail(r, -EINVAL, "attrs section beyond the end of the file");
	nr = fh->attrs.size / esz;
	for (uint64_t i = 0; i < nr; i++) {
		const uint8_t *e = r->mem + fh->attrs.offset + i * esz;
		struct perf_event_attr attr;
		uint32_t fsz = data_attr_from_file(&attr, e, esz - sizeof(struct perf_file_section));
		uint64_t ids_off = get_u64(e + esz - 16), ids_size = get_u64(e + esz - 8);
		uint64_t *ids = NULL;
		int ret;

		if (ids_size && !in_file(r, ids_off, ids_size))
			return data_open_fail(r, -EINVAL, "ids of attr %llu beyond the end of the file",
					      (unsigned long long)i);
		/*
		 * perf writes each attr's ids once, apart: all of them together fit
		 * in the file. Attrs sharing one big ids section would copy it once
		 * per attr (a 10 MB file claiming gigabytes).
		 */
		ids_total += ids_size;
		if (ids_total > r->file_size)
			return data_open_fail(r, -EINVAL, "the attrs' ids claim more than the file holds");
		if (ids_size) {
			ids = malloc(ids_size);
			if (!ids)
				return -ENOMEM;
			memcpy(ids, r->mem + ids_off, ids_size);
		}
		ret = data_attrs_add(&r->attrs, &attr, fsz, ids, ids_size / 8, NULL);
		free(ids);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static void read_features(struct ember_data_reader *r)
{
	const struct perf_file_header *fh = &r->fh;
	uint64_t feat_off = fh->data.offset + fh->data.size;
	uint32_t nr = 0, k = 0;

	for (int i = 0; i < EMBER_FEAT_BITS / 64; i++)
		nr += __builtin_popcountll(fh->adds_features[i]);
	if (!nr)
		return;
	if (!in_file(r, feat_off, (uint64_t)nr * sizeof(struct perf_file_section))) {
		pr_debug("perf.data: feature table beyond the end of the file\n");
		r->truncated = true;
		return;
	}
	for (int feat = 1; feat < EMBER_FEAT_BITS; feat++) {
		const uint8_t *sec;
		uint64_t off, size;

		if (!((fh->adds_features[feat / 64] >> (feat % 64)) & 1))
			continue;
		sec = r->mem + feat_off + (uint64_t)k++ * sizeof(struct perf_file_section);
		off = get_u64(sec);
		size = get_u64(sec + 8);
		if (!in_file(r, off, size)) {
			pr_debug("perf.data: feature %d beyond the end of the file\n", feat);
			r->truncated = true;
			continue;
		}
		if (feat >= EMBER_FEAT_LAST) {
			pr_debug("perf.data: unknown feature %d skipped\n", feat);
			continue;
		}
		/* a broken section is left out: the rest of the file is still useful */
		if (data_feat_parse(&r->env, feat, r->mem + off, size) == -ENOMEM)
			return;
	}
}

/* Give the attrs the names EVENT_DESC recorded for them (matched by index, as perf does). */
static void name_attrs(struct ember_data_reader *r)
{
	for (uint32_t i = 0; i < r->env.nr_events && i < r->attrs.nr; i++) {
		if (!r->attrs.v[i]->name && r->env.events[i].name)
			data_attrs_set_name(&r->attrs, i, r->env.events[i].name);
	}
}

int data_file_open(struct ember_data_reader *r)
{
	struct perf_file_header *fh = &r->fh;
	int err;

	memset(fh, 0, sizeof(*fh));
	if (r->file_size < PERF_FILE_HEADER_SIZE_V0)
		return data_open_fail(r, -EINVAL, "file too short for a header");
	memcpy(fh, r->mem, PERF_FILE_HEADER_SIZE_V0);
	if (fh->size == sizeof(*fh)) {
		if (r->file_size < sizeof(*fh))
			return data_open_fail(r, -EINVAL, "file too short for a header");
		memcpy(fh, r->mem, sizeof(*fh));
	} else if (fh->size != PERF_FILE_HEADER_SIZE_V0) {
		return data_open_fail(r, -EINVAL, "unknown header size %llu",
				      (unsigned long long)fh->size);
	}
	if (fh->attrs.size && fh->size > fh->attrs.offset)
		return data_open_fail(r, -EINVAL, "header overlaps attrs");
	if (fh->size > fh->data.offset)
		return data_open_fail(r, -EINVAL, "header overlaps data");
	if (fh->attrs.size &&
	    ((fh->attrs.offset <= fh->data.offset &&
	      fh->attrs.offset + fh->attrs.size > fh->data.offset) ||
	     (fh->attrs.offset > fh->data.offset && fh->data.size &&
	      fh->data.offset + fh->data.size > fh->attrs.offset)))
		return data_open_fail(r, -EINVAL, "attrs and data overlap");
	if (fh->data.offset > r->file_size)
		return data_open_fail(r, -EINVAL, "data section beyond the end of the file");
	err = read_attrs(r);
	if (err)
		return err;

	r->head = fh->data.offset;
	if (fh->data.size == 0) {
		/* the recorder never finalised the header: everything after is data */
		r->data_size_zero = true;
		r->data_end = r->file_size;
	} else if (fh->data.size > r->file_size - fh->data.offset) {
		r->truncated = true;
		r->data_end = r->file_size;
	} else {
		r->data_end = fh->data.offset + fh->data.size;
		read_features(r);
	}
	name_attrs(r);
	return 0;
}
