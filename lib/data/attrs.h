/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The events of a perf.data file: attrs, their sample ids, and id → attr lookup. */
#ifndef EMBER_LIB_DATA_ATTRS_H
#define EMBER_LIB_DATA_ATTRS_H

#include <ember/perf-data.h>
#include "core/hashtab.h"

struct data_attrs {
	struct ember_data_attr **v;	/* each allocated alone, so pointers stay valid */
	uint32_t nr, cap;
	struct hashtab by_id;		/* attr index + 1 by hash_mix64(id), a bijection */
	/*
	 * The ids of a file mostly are a few consecutive numbers: then the
	 * table is indexed by id - dmap_min (attr index + 1, 0: none), every
	 * id lies in it, and a lookup (one or two a sample) costs no hash.
	 */
	uint32_t *dmap;
	uint64_t dmap_min, dmap_len;	/* dmap_len 0: no map, the hash answers */
	bool dmap_off;			/* the ids grew too wide (or out of memory): never again */
	/* where the sample id sits, computed from the first attr as perf does */
	int id_pos;			/* u64 index after the header in a SAMPLE, -1: none */
	int is_pos;			/* u64 index from the end of other records, -1: none */
	/* Names replaced by a later EVENT_UPDATE: callers may still hold them. */
	char **old_names;
	uint32_t nr_old_names;
};

/*
 * Add an event: a copy of attr (file_size: attr size found in the file),
 * its ids (nr_ids u64, possibly unaligned) and name (both copied; name may
 * be NULL). Returns its index or -ENOMEM.
 */
int data_attrs_add(struct data_attrs *t, const struct perf_event_attr *attr, uint32_t file_size,
		   const void *ids, uint32_t nr_ids, const char *name);
int data_attrs_set_name(struct data_attrs *t, uint32_t idx, const char *name);
const struct ember_data_attr *data_attrs_find(const struct data_attrs *t, uint64_t id);
/* The attr of a kernel record (see ember_data_reader__attr_of). */
const struct ember_data_attr *data_attrs_of(const struct data_attrs *t,
					    const struct perf_event_header *rec);
void data_attrs_exit(struct data_attrs *t);

#endif
