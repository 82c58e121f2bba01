/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Feature sections: parse into, and serialise from, struct ember_env. */
#ifndef EMBER_LIB_DATA_FEATURES_H
#define EMBER_LIB_DATA_FEATURES_H

#include <stddef.h>
#include <ember/perf-data.h>
#include "data/dbuf.h"

/*
 * Parse the section of feature `feat` (`size` bytes at `data`) into env and
 * set its bit. Fields of a feature seen twice are replaced. Returns 0,
 * -EINVAL for a malformed section (env keeps what it had), -ENOMEM.
 */
int data_feat_parse(struct ember_env *env, int feat, const void *data, size_t size);

/*
 * Append build_id records (the BUILD_ID section, or pipe-mode HEADER_BUILD_ID
 * records) to env->build_ids. 0, or -EINVAL for a malformed one (those before
 * it are kept).
 */
int data_env_add_build_ids(struct ember_env *env, const void *data, size_t size);

/*
 * Append the section of feature `feat` from env to b. EVENT_DESC is not
 * written from env (see data_feat_write_event_desc). Returns 0, -ENOENT when the
 * env has nothing to write for it, -ENOMEM.
 */
int data_feat_write(const struct ember_env *env, int feat, struct dbuf *b);

/* One event for EVENT_DESC. */
struct data_feat_event {
	const struct perf_event_attr *attr;
	uint32_t attr_size;		/* bytes of attr to write */
	const char *name;
	uint32_t nr_ids;
	const uint64_t *ids;
};

/* Append an EVENT_DESC section for `nr` events. */
void data_feat_write_event_desc(struct dbuf *b, const struct data_feat_event *ev, uint32_t nr,
			   uint32_t attr_size);

/* Copy a file attr of `size` bytes into a zeroed native attr; returns the on-file size used. */
uint32_t data_attr_from_file(struct perf_event_attr *out, const void *p, uint32_t size);
/*
 * The attr size to write: perf 6.1's 128 bytes (PERF_ATTR_SIZE_VER7), or
 * more if a later field is in use (perf 6.1 refuses larger attrs).
 */
uint32_t data_attr_write_size(const struct perf_event_attr *attr);

#endif
