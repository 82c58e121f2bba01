/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * SDT (USDT) events perf has cached: `perf record` and `perf buildid-cache`
 * store each binary's SDT notes in <debug dir>/<path>/<build-id>/probes
 * as lines "%group:event=event", reached through
 * <debug dir>/.build-id/<2 hex>/<38 hex> symlinks. perf list shows them.
 */
#ifndef EMBER_LIB_SDT_CACHE_H
#define EMBER_LIB_SDT_CACHE_H

#include <stddef.h>
#include <ember/event.h>

/*
 * The build-id cache directory perf uses: $PERF_BUILDID_DIR, else
 * $HOME/.debug. Written into buf; returns buf, or NULL when neither is set.
 */
const char *sdt_cache__dir(char *buf, size_t size);

#endif
