/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The ABI rule of the structs a caller hands in with their size (size_t sz first). */
#ifndef EMBER_HIST_OPTS_H
#define EMBER_HIST_OPTS_H

#include <stddef.h>
#include <string.h>

/*
 * Copies the caller's struct src, of src_sz bytes (its sz), into dst of
 * dst_sz bytes: the fields an older caller's struct lacks read as zero,
 * those of a newer one the library does not know are left out.
 */
static inline void hist_opts_copy(void *dst, size_t dst_sz, const void *src, size_t src_sz)
{
	memset(dst, 0, dst_sz);
	memcpy(dst, src, src_sz < dst_sz ? src_sz : dst_sz);
}

#endif
