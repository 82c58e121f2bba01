// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * zstd for COMPRESSED records. libzstd is loaded with dlopen() when a
 * compressed file is met (or -z is asked for), so libember has no link-time
 * dependency on it: without libzstd.so.1 such files are refused with
 * ENOTSUP and everything else works. Each stream holds its own handle and
 * function pointers; there is no process-wide state.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <zstd.h>
#include "core/log.h"
#include "data/compress.h"

#define ZSTD_SONAME "libzstd.so.1"

struct zstd_api {
	void *handle;
	ZSTD_DStream *(*createDStream)(void);
	size_t (*freeDStream)(ZSTD_DStream *ds);
	size_t (*initDStream)(ZSTD_DStream *ds);
	size_t (*decompressStream)(ZSTD_DStream *ds, ZSTD_outBuffer *out, ZSTD_inBuffer *in);
	ZSTD_CCtx *(*createCCtx)(void);
	size_t (*freeCCtx)(ZSTD_CCtx *cctx);
	size_t (*compressCCtx)(ZSTD_CCtx *cctx, void *dst, size_t cap, const void *src, size_t n,
			       int level);
	size_t (*compressBound)(size_t n);
	unsigned int (*isError)(size_t code);
};

struct data_zstd_dec {
	struct zstd_api api;
	ZSTD_DStream *ds;
};

struct data_zstd_enc {
	struct zstd_api api;
	ZSTD_CCtx *cctx;
	int level;
};

static int api_load(struct zstd_api *a)
{
	a->handle = dlopen(ZSTD_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!a->handle) {
		pr_debug("perf.data: cannot load %s: %s\n", ZSTD_SONAME, dlerror());
		return -ENOTSUP;
	}
#define SYM(field, name)						\
	do {								\
		*(void **)&a->field = dlsym(a->handle, name);		\
		if (!a->field)						\
			goto missing;					\
	} while (0)
	SYM(createDStream, "ZSTD_createDStream");
	SYM(freeDStream, "ZSTD_freeDStream");
	SYM(initDStream, "ZSTD_initDStream");
	SYM(decompressStream, "ZSTD_decompressStream");
	SYM(createCCtx, "ZSTD_createCCtx");
	SYM(freeCCtx, "ZSTD_freeCCtx");
	SYM(compressCCtx, "ZSTD_compressCCtx");
	SYM(compressBound, "ZSTD_compressBound");
	SYM(isError, "ZSTD_isError");
#undef SYM
	return 0;
missing:
	pr_debug("perf.data: %s lacks a needed symbol\n", ZSTD_SONAME);
	dlclose(a->handle);
	a->handle = NULL;
	return -ENOTSUP;
}

struct data_zstd_dec *data_zstd_dec_new(void)
{
	struct data_zstd_dec *d = calloc(1, sizeof(*d));
	int err;

	if (!d)
		return NULL;
	err = api_load(&d->api);
	if (err) {
		free(d);
		errno = -err;
		return NULL;
	}
	d->ds = d->api.createDStream();
	if (!d->ds || d->api.isError(d->api.initDStream(d->ds))) {
		data_zstd_dec_delete(d);
		errno = ENOMEM;
		return NULL;
	}
	return d;
}

void data_zstd_dec_delete(struct data_zstd_dec *d)
{
	if (!d)
		return;
	if (d->ds)
		d->api.freeDStream(d->ds);
	dlclose(d->api.handle);
	free(d);
}

int data_zstd_dec_run(struct data_zstd_dec *d, const void *src, size_t n, struct dbuf *out,
		      size_t limit)
{
	ZSTD_inBuffer in = { src, n, 0 };
	size_t start = out->len;

	/* until the input is used up and the decoder had room to flush everything */
	for (;;) {
		size_t room = limit - (out->len - start);
		ZSTD_outBuffer o;
		size_t ret;

		if (!room) {
			/* a frame that writes more than a ring buffer held: a bomb, or corrupt */
			d->api.initDStream(d->ds);
			return -EFBIG;
		}
		if (dbuf_reserve(out, room < 64 * 1024 ? room : 64 * 1024))
			return out->err;
		o.dst = out->data + out->len;
		o.size = out->cap - out->len < room ? out->cap - out->len : room;
		o.pos = 0;
		ret = d->api.decompressStream(d->ds, &o, &in);
		if (d->api.isError(ret))
			return -EINVAL;
		out->len += o.pos;
		if (in.pos == in.size && o.pos < o.size)
			return 0;
	}
}

struct data_zstd_enc *data_zstd_enc_new(int level)
{
	struct data_zstd_enc *e = calloc(1, sizeof(*e));
	int err;

	if (!e)
		return NULL;
	err = api_load(&e->api);
	if (err) {
		free(e);
		errno = -err;
		return NULL;
	}
	e->cctx = e->api.createCCtx();
	if (!e->cctx) {
		data_zstd_enc_delete(e);
		errno = ENOMEM;
		return NULL;
	}
	e->level = level;
	return e;
}

void data_zstd_enc_delete(struct data_zstd_enc *e)
{
	if (!e)
		return;
	if (e->cctx)
		e->api.freeCCtx(e->cctx);
	dlclose(e->api.handle);
	free(e);
}

int data_zstd_enc_run(struct data_zstd_enc *e, const void *src, size_t n, struct dbuf *out)
{
	size_t bound = e->api.compressBound(n), ret;

	if (dbuf_reserve(out, bound))
		return out->err;
	ret = e->api.compressCCtx(e->cctx, out->data + out->len, out->cap - out->len, src, n,
				  e->level);
	if (e->api.isError(ret))
		return -EINVAL;
	out->len += ret;
	return 0;
}
