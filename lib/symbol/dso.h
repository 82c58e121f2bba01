/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A dso: one binary (or kernel, vdso, JIT map) and its symbols, loaded
 * lazily on the first lookup; and the cache of dsos a machine keeps,
 * keyed by name plus build-id/inode, so each file is read once.
 */
#ifndef EMBER_LIB_DSO_H
#define EMBER_LIB_DSO_H

#include <stdbool.h>
#include <stdint.h>
#include <ember/symbol.h>
#include "core/hashtab.h"
#include "symbol/demangle.h"
#include "symbol/symbol.h"

enum dso_kind {
	DSO_KIND_USER,		/* an ELF file on disk */
	DSO_KIND_KERNEL,	/* [kernel.kallsyms] */
	DSO_KIND_MODULE,	/* [modname]: symbols split out of kallsyms */
	DSO_KIND_VDSO,		/* [vdso]: the image in this process's memory */
	DSO_KIND_JIT_MAP,	/* /tmp/perf-PID.map */
	DSO_KIND_KSYMBOL,	/* one kernel symbol (a BPF program): its map's only symbol */
	DSO_KIND_ANON,		/* no symbols: [stack], [heap], data-only anonymous maps */
};

/* A PT_LOAD program header: file offsets ↔ virtual addresses. */
struct elf_seg {
	uint64_t vaddr;
	uint64_t offset;
	uint64_t filesz;
	uint64_t memsz;
};

/* Where symbols are searched for; shared by every dso of a machine. */
struct sym_conf {
	char *symfs;		/* "" for none */
	char *buildid_dir;	/* "" for none */
	char *kallsyms;		/* "" for none */
	bool kallsyms_forced;	/* given by the user: used whatever its build-id */
	enum demangle_mode demangle;
	bool allow_aliases;	/* no symtab__fixup_duplicate() */
};

struct dsos;

struct dso_sym_slot {
	uint64_t addr;
	const struct ember_symbol *sym;
};

struct ember_dso {
	char *name;			/* long name, owned */
	const char *short_name;		/* basename, inside name, or own_short_name */
	char *own_short_name;		/* "[JIT] tid N" for /tmp/perf-N.map, owned */
	enum dso_kind kind;
	struct ember_dso_id id;
	bool loaded;
	int load_err;			/* 0 or -errno once loaded */
	struct symtab symtab;
	struct elf_seg *segs;		/* PT_LOADs of the runtime binary */
	size_t nr_segs;
	char *symsrc_path;		/* file the symbols came from, owned */
	const struct sym_conf *conf;
	struct sym_conf *own_conf;	/* standalone dsos (ember_dso__open) own theirs */
	struct dsos *dsos;		/* the cache it belongs to, NULL when standalone */
	struct ember_dso *older;	/* the dso made before this one with its name */
	/*
	 * Recent lookups, direct-mapped by address: a profile asks for the
	 * same few thousand addresses over and over, and each binary search
	 * of a big table (kallsyms) misses the cache a dozen times.
	 */
	struct dso_sym_slot *sym_cache;
	size_t sym_cache_mask;
	size_t sym_cache_gen;		/* the table's nr_added and nr_sorted when filled */

	/* The kernel: from its MMAP record, and what kallsyms said. */
	char *ref_reloc_name;		/* "_text" of "[kernel.kallsyms]_text", owned */
	uint64_t ref_reloc_addr;
	uint64_t ktext_start, ktext_end; /* _text/_stext and _etext, 0 when unknown */
	/* A module: the address its map starts at (its symbols are relative to it). */
	uint64_t kmod_start;
};

struct kallsyms_prefetch;

struct dsos {
	struct hashtab by_name;	/* the newest dso of each name, by hash_str() */
	struct sym_conf conf;
	struct ember_dso *kernel;	/* the host kernel, once created */
	/* conf.kallsyms being read by a thread, NULL when not asked for */
	struct kallsyms_prefetch *prefetch;
	/* kernel symbols looked up late (dsos__defer_kernel()), while being read */
	bool defer_kernel;
};

/* An empty cache using a copy of opts. 0 or -ENOMEM. */
int dsos__init(struct dsos *dsos, const struct ember_symbol_opts *opts);
/* Frees every dso of the cache. */
void dsos__exit(struct dsos *dsos);
/*
 * Starts reading the kernel's symbol file (conf.kallsyms) in a thread: the
 * kernel takes tens of milliseconds to print /proc/kallsyms, time a
 * report can spend on its samples. The kernel dso's load takes the text
 * when it reads that same file. 0, or -errno (nothing started).
 */
int dsos__prefetch_kallsyms(struct dsos *dsos);
/* True when no prefetch thread is reading (any more): taking its text will not wait. */
bool dsos__prefetch_done(const struct dsos *dsos);
/* Waits for the prefetch thread and drops what it read, if it was not used. */
void dsos__prefetch_exit(struct dsos *dsos);
/*
 * The dso named name whose build-id/inode (id, may be NULL) do not
 * conflict with what is known about it, filling in what was missing; a
 * new one of the given kind when there is none. NULL on ENOMEM.
 */
struct ember_dso *dsos__findnew(struct dsos *dsos, const char *name, enum dso_kind kind,
				const struct ember_dso_id *id);
/* The first dso named name, or NULL. */
struct ember_dso *dsos__find(struct dsos *dsos, const char *name);

/* Sets the build-id (truncated to EMBER_BUILD_ID_MAX). */
void dso__set_build_id(struct ember_dso *dso, const uint8_t *bid, size_t size);
/* Loads the symbols once; the number of symbols or -errno (see ember_dso__load). */
int dso__load(struct ember_dso *dso);
/* The symbol at addr, loading first; NULL when none. */
const struct ember_symbol *dso__find_symbol(struct ember_dso *dso, uint64_t addr);

/* The loaders dso__load() dispatches to, by kind; each returns a count or -errno. */
int dso__load_elf(struct ember_dso *dso);	/* dso-elf.c */
int dso__load_vdso(struct ember_dso *dso);	/* vdso.c */
/* Copies this process's [vdso] mapping: a malloc'd image (size in *size), or NULL. */
void *vdso__copy_self(size_t *size);
int dso__load_kallsyms(struct ember_dso *dso);	/* kallsyms.c */
int dso__load_perf_map(struct ember_dso *dso);	/* perf-map.c */

/* Joins conf->symfs and path into buf; returns buf. */
char *sym_conf__path(const struct sym_conf *conf, char *buf, size_t size, const char *path);

#endif
