/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * zstd streams for COMPRESSED records. libzstd.so.1 is loaded at run time:
 * without it the constructors fail with ENOTSUP and the rest of lib/data
 * still works.
 */
#ifndef EMBER_LIB_DATA_COMPRESS_H
#define EMBER_LIB_DATA_COMPRESS_H

#include <stddef.h>
#include "data/dbuf.h"

struct data_zstd_dec;
struct data_zstd_enc;

/* NULL with errno ENOTSUP (no libzstd) or ENOMEM. */
struct data_zstd_dec *data_zstd_dec_new(void);
void data_zstd_dec_delete(struct data_zstd_dec *d);
/*
 * Decompress src (a COMPRESSED record's payload) onto the end of out, at
 * most limit bytes of it. -EFBIG when the frame would write more (the
 * decoder is reset for the next record), -EINVAL when it is not zstd.
 */
int data_zstd_dec_run(struct data_zstd_dec *d, const void *src, size_t n, struct dbuf *out,
		      size_t limit);

struct data_zstd_enc *data_zstd_enc_new(int level);
void data_zstd_enc_delete(struct data_zstd_enc *e);
/* Compress src into one complete frame appended to out. 0, -EINVAL, -ENOMEM. */
int data_zstd_enc_run(struct data_zstd_enc *e, const void *src, size_t n, struct dbuf *out);

#endif
