/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The running kernel's symbols and modules: /proc/kallsyms, /proc/modules. */
#ifndef EMBER_LIB_KALLSYMS_H
#define EMBER_LIB_KALLSYMS_H

#include <stdbool.h>
#include <stdint.h>
#include "symbol/symbol.h"

#define KERNEL_DSO_NAME "[kernel.kallsyms]"

typedef int (*module_fn_t)(void *arg, const char *name, uint64_t start, uint64_t size);

/*
 * Calls fn(arg, "[name]", start, size) for each module in a /proc/modules
 * style file. Returns 0, the first non-zero fn result, or -errno (-ENOENT
 * when there is no such file: a kernel without modules).
 */
int modules__parse(const char *path, module_fn_t fn, void *arg);

/*
 * The parsed /proc/kallsyms kept between runs (kallsyms-cache.c). Its
 * key: what the table depends on, compared whole; fixed size, zero
 * padded, so it can be hashed and compared as bytes.
 */
struct kallsyms_key {
	uint8_t build_id[20];	/* /sys/kernel/notes */
	uint32_t build_id_size;
	char boot_id[40];	/* /proc/sys/kernel/random/boot_id */
	uint64_t modules;	/* hash of /proc/modules' names, sizes and addresses */
	uint32_t uid;		/* the reader: what kallsyms shows depends on who asks */
	uint32_t pad;
	char first_line[128];	/* its first text symbol's line now: addresses shown or hidden */
};

/* What the parse found besides the symbols (kallsyms.c). */
struct kallsyms_cache_info {
	uint64_t text, stext, etext;	/* _text, _stext, _etext */
	uint64_t nonzero;		/* lines with an address other than 0 */
};

struct kallsyms_cache;

/* The key of the kallsyms file at path (/proc/kallsyms) as it reads now; 0 or -errno. */
int kallsyms_key__get(const char *kallsyms, struct kallsyms_key *key);
/*
 * False when there is no cache directory: $EMBER_KALLSYMS_CACHE_DIR set
 * to "", or none of it, $XDG_CACHE_HOME and $HOME set.
 */
bool kallsyms_cache__enabled(void);
/* The cached table for key when there is a valid one, else NULL. */
struct kallsyms_cache *kallsyms_cache__open(const struct kallsyms_key *key);
void kallsyms_cache__close(struct kallsyms_cache *c);
/*
 * Fills the empty table t as the parse left it, and *info; 0 or -ENOMEM
 * (t empty). With lend_names, t's names point into c's mapping instead
 * of a copy in t's pool (megabytes not copied): c must then stay open
 * for as long as t is used.
 */
int kallsyms_cache__fill(struct kallsyms_cache *c, struct symtab *t,
			 struct kallsyms_cache_info *info, bool lend_names);
/*
 * Saves t (sorted, fixed up, before the module split) under key, through
 * a temporary file and rename(); removes other keys' files. 0 or -errno,
 * which callers ignore: no cache is only slower.
 */
int kallsyms_cache__write(const struct kallsyms_key *key, const struct symtab *t,
			  const struct kallsyms_cache_info *info);

#endif
