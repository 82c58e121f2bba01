// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/hash.h"
#include "symbol/dso.h"

#define OPTS_HAS(opts, field) \
	((opts) && (opts)->sz >= offsetof(typeof(*(opts)), field) + sizeof((opts)->field))

static void sym_conf__exit(struct sym_conf *conf)
{
	free(conf->symfs);
	free(conf->buildid_dir);
	free(conf->kallsyms);
	memset(conf, 0, sizeof(*conf));
}

/* Initialises conf from opts (NULL: defaults); 0 or -ENOMEM. Free with sym_conf__exit(). */
static int sym_conf__init(struct sym_conf *conf, const struct ember_symbol_opts *opts)
{
	const char *home = getenv("HOME");
	char buf[4096];

	memset(conf, 0, sizeof(*conf));
	conf->symfs = strdup(OPTS_HAS(opts, symfs) && opts->symfs ? opts->symfs : "");
	if (OPTS_HAS(opts, buildid_dir) && opts->buildid_dir) {
		conf->buildid_dir = strdup(opts->buildid_dir);
	} else {
		snprintf(buf, sizeof(buf), "%s/.debug", home ? home : "");
		conf->buildid_dir = strdup(home && *home ? buf : "");
	}
	if (OPTS_HAS(opts, kallsyms) && opts->kallsyms) {
		conf->kallsyms = strdup(opts->kallsyms);
		conf->kallsyms_forced = true;
	} else {
		conf->kallsyms = strdup("/proc/kallsyms");
	}
	conf->demangle = DEMANGLE_NAME;
	if (OPTS_HAS(opts, demangle_params) && opts->demangle_params)
		conf->demangle = DEMANGLE_PARAMS;
	if (OPTS_HAS(opts, no_demangle) && opts->no_demangle)
		conf->demangle = DEMANGLE_NONE;
	conf->allow_aliases = OPTS_HAS(opts, allow_aliases) && opts->allow_aliases;
	if (!conf->symfs || !conf->buildid_dir || !conf->kallsyms) {
		sym_conf__exit(conf);
		return -ENOMEM;
	}
	return 0;
}

char *sym_conf__path(const struct sym_conf *conf, char *buf, size_t size, const char *path)
{
	snprintf(buf, size, "%s%s", conf->symfs, path);
	return buf;
}

/* A dso outside any cache (conf must outlive it). Free with dso__free(). */
static struct ember_dso *dso__new(const char *name, enum dso_kind kind,
				  const struct sym_conf *conf)
{
	struct ember_dso *dso = calloc(1, sizeof(*dso));
	const char *slash;
	int tid;

	if (!dso)
		return NULL;
	dso->name = strdup(name);
	if (!dso->name) {
		free(dso);
		return NULL;
	}
	slash = strrchr(dso->name, '/');
	/* "[kernel.kallsyms]" and friends are their own short name. */
	dso->short_name = slash && dso->name[0] != '[' ? slash + 1 : dso->name;
	/* a JIT's symbol file stands for the process: perf names it so (what sscanf matches) */
	if (sscanf(dso->name, "/tmp/perf-%d.map", &tid) == 1 &&
	    asprintf(&dso->own_short_name, "[JIT] tid %d", tid) >= 0)
		dso->short_name = dso->own_short_name;
	dso->kind = kind;
	dso->conf = conf;
	return dso;
}

static void dso__free(struct ember_dso *dso)
{
	if (!dso)
		return;
	symtab__exit(&dso->symtab);
	free(dso->sym_cache);
	free(dso->own_short_name);
	free(dso->segs);
	free(dso->symsrc_path);
	free(dso->ref_reloc_name);
	free(dso->name);
	if (dso->own_conf) {
		sym_conf__exit(dso->own_conf);
		free(dso->own_conf);
	}
	free(dso);
}

void dso__set_build_id(struct ember_dso *dso, const uint8_t *bid, size_t size)
{
	if (size > EMBER_BUILD_ID_MAX)
		size = EMBER_BUILD_ID_MAX;
	memcpy(dso->id.build_id, bid, size);
	dso->id.build_id_size = size;
}

int dso__load(struct ember_dso *dso)
{
	int ret;

	if (dso->loaded)
		return dso->load_err ? dso->load_err : (int)dso->symtab.nr;
	if (dso->kind == DSO_KIND_MODULE) {
		/* Module symbols are split out of kallsyms when the kernel loads. */
		if (dso->dsos && dso->dsos->kernel)
			dso__load(dso->dsos->kernel);
		if (!dso->loaded) {
			dso->loaded = true;
			dso->load_err = -ENODATA;
		}
		return dso->load_err ? dso->load_err : (int)dso->symtab.nr;
	}
	dso->loaded = true;
	switch (dso->kind) {
	case DSO_KIND_USER:
		ret = dso__load_elf(dso);
		break;
	case DSO_KIND_KERNEL:
		ret = dso__load_kallsyms(dso);
		break;
	case DSO_KIND_VDSO:
		ret = dso__load_vdso(dso);
		break;
	case DSO_KIND_JIT_MAP:
		ret = dso__load_perf_map(dso);
		break;
	case DSO_KIND_KSYMBOL:
		ret = dso->symtab.nr;
		break;
	default:
		ret = -ENODATA;
		break;
	}
	if (ret < 0)
		dso->load_err = ret;
	else
		/* Where symbols overlap, perf's tree decides; without memory, the plain lookup does. */
		symtab__index(&dso->symtab);
	return ret;
}

static size_t dso__sym_cache_gen(const struct ember_dso *dso)
{
	return ((size_t)dso->symtab.nr_added << 32) ^ dso->symtab.nr_sorted;
}

/*
 * (Re)starts the lookup cache: a slot per symbol up to 4096 (a kernel
 * profile's hot paths fit), none for tiny tables.
 */
static void dso__sym_cache_reset(struct ember_dso *dso)
{
	size_t n = 64;

	dso->sym_cache_gen = dso__sym_cache_gen(dso);
	if (dso->symtab.nr_sorted < 32) {
		free(dso->sym_cache);
		dso->sym_cache = NULL;
		return;
	}
	while (n < dso->symtab.nr_sorted && n < 4096)
		n *= 2;
	if (!dso->sym_cache || dso->sym_cache_mask + 1 != n) {
		free(dso->sym_cache);
		dso->sym_cache = malloc(n * sizeof(*dso->sym_cache));
		if (!dso->sym_cache)
			return;
		dso->sym_cache_mask = n - 1;
	}
	/* an address no slot can hold: slot i only takes addresses hashing to i */
	for (size_t i = 0; i < n; i++)
		dso->sym_cache[i].addr = i ? 0 : 1;
}

static size_t dso__sym_slot(uint64_t addr, size_t mask)
{
	return (size_t)((addr * 0x9e3779b97f4a7c15ULL) >> 40) & mask;
}

const struct ember_symbol *dso__find_symbol(struct ember_dso *dso, uint64_t addr)
{
	struct dso_sym_slot *slot;

	if (!dso->loaded)
		dso__load(dso);
	/* symbols added or sorted since (a module's, split out of kallsyms): start again */
	if (dso->sym_cache_gen != dso__sym_cache_gen(dso))
		dso__sym_cache_reset(dso);
	if (!dso->sym_cache)
		return symtab__find(&dso->symtab, addr);
	slot = &dso->sym_cache[dso__sym_slot(addr, dso->sym_cache_mask)];
	if (slot->addr != addr) {
		slot->addr = addr;
		slot->sym = symtab__find(&dso->symtab, addr);
	}
	return slot->sym;
}

/* ---- the cache ----------------------------------------------------------- */

static bool name_eq(const struct hashtab_slot *slot, const void *key)
{
	uint64_t val = slot->val;
	return !strcmp(((const struct ember_dso *)(uintptr_t)val)->name, key);
}

int dsos__init(struct dsos *dsos, const struct ember_symbol_opts *opts)
{
	memset(dsos, 0, sizeof(*dsos));
	if (hashtab__reserve(&dsos->by_name, 128))
		return -ENOMEM;
	if (sym_conf__init(&dsos->conf, opts)) {
		hashtab__exit(&dsos->by_name);
		return -ENOMEM;
	}
	return 0;
}

void dsos__exit(struct dsos *dsos)
{
	struct hashtab_slot *s;

	dsos__prefetch_exit(dsos);
	hashtab__for_each(&dsos->by_name, s) {
		struct ember_dso *dso = (struct ember_dso *)(uintptr_t)s->val;

		while (dso) {
			struct ember_dso *older = dso->older;

			dso__free(dso);
			dso = older;
		}
	}
	hashtab__exit(&dsos->by_name);
	sym_conf__exit(&dsos->conf);
	memset(dsos, 0, sizeof(*dsos));
}

/* Two descriptions of a file may be the same file: no known field differs. */
static bool dso_id__compatible(const struct ember_dso_id *a, const struct ember_dso_id *b)
{
	if (a->build_id_size && b->build_id_size &&
	    (a->build_id_size != b->build_id_size ||
	     memcmp(a->build_id, b->build_id, a->build_id_size)))
		return false;
	if (a->ino && b->ino &&
	    (a->maj != b->maj || a->min != b->min || a->ino != b->ino ||
	     (a->ino_generation && b->ino_generation && a->ino_generation != b->ino_generation)))
		return false;
	return true;
}

static void dso_id__merge(struct ember_dso_id *dst, const struct ember_dso_id *src)
{
	if (!dst->build_id_size && src->build_id_size) {
		memcpy(dst->build_id, src->build_id, sizeof(dst->build_id));
		dst->build_id_size = src->build_id_size;
	}
	if (!dst->ino && src->ino) {
		dst->maj = src->maj;
		dst->min = src->min;
		dst->ino = src->ino;
	}
	if (!dst->ino_generation)
		dst->ino_generation = src->ino_generation;
}

struct ember_dso *dsos__find(struct dsos *dsos, const char *name)
{
	return (struct ember_dso *)(uintptr_t)hashtab__get(&dsos->by_name, hash_str(name), name_eq,
							    name);
}

struct ember_dso *dsos__findnew(struct dsos *dsos, const char *name, enum dso_kind kind,
				const struct ember_dso_id *id)
{
	static const struct ember_dso_id no_id;
	uint64_t h = hash_str(name);
	struct hashtab_slot *s;
	struct ember_dso *dso;

	if (!id)
		id = &no_id;
	if (hashtab__reserve(&dsos->by_name, 1))
		return NULL;
	s = hashtab__slot(&dsos->by_name, h, name_eq, name);
	/* newest first, as perf's list */
	for (dso = (struct ember_dso *)(uintptr_t)s->val; dso; dso = dso->older) {
		if (strcmp(dso->name, name) || !dso_id__compatible(&dso->id, id))
			continue;
		/* A build-id learnt after loading cannot change which file was used. */
		if (!dso->loaded || !id->build_id_size)
			dso_id__merge(&dso->id, id);
		return dso;
	}
	dso = dso__new(name, kind, &dsos->conf);
	if (!dso)
		return NULL;
	dso->id = *id;
	dso->dsos = dsos;
	dso->older = (struct ember_dso *)(uintptr_t)s->val;
	if (s->val)
		s->val = (uintptr_t)dso;
	else
		hashtab__fill(&dsos->by_name, s, h, (uintptr_t)dso);
	return dso;
}

/* ---- public accessors ----------------------------------------------------- */

struct ember_dso *ember_dso__open(const char *path, const struct ember_symbol_opts *opts)
{
	struct sym_conf *conf = calloc(1, sizeof(*conf));
	struct ember_dso *dso;

	if (!path) {
		free(conf);
		errno = EINVAL;
		return NULL;
	}
	if (!conf || sym_conf__init(conf, opts)) {
		free(conf);
		errno = ENOMEM;
		return NULL;
	}
	dso = dso__new(path, DSO_KIND_USER, conf);
	if (!dso) {
		sym_conf__exit(conf);
		free(conf);
		errno = ENOMEM;
		return NULL;
	}
	dso->own_conf = conf;
	return dso;
}

void ember_dso__delete(struct ember_dso *dso)
{
	if (dso && !dso->dsos)
		dso__free(dso);
}

const char *ember_dso__name(const struct ember_dso *dso)
{
	return dso->name;
}

const char *ember_dso__short_name(const struct ember_dso *dso)
{
	return dso->short_name;
}

const char *ember_dso__symsrc_path(struct ember_dso *dso)
{
	return dso->symsrc_path;
}

size_t ember_dso__build_id(const struct ember_dso *dso, uint8_t buf[EMBER_BUILD_ID_MAX])
{
	memcpy(buf, dso->id.build_id, dso->id.build_id_size);
	return dso->id.build_id_size;
}

int ember_dso__load(struct ember_dso *dso)
{
	return dso__load(dso);
}

const struct ember_symbol *ember_dso__find_symbol(struct ember_dso *dso, uint64_t addr)
{
	return dso__find_symbol(dso, addr);
}

const struct ember_symbol *ember_dso__symbol(struct ember_dso *dso, size_t idx)
{
	dso__load(dso);
	return idx < dso->symtab.nr ? &dso->symtab.syms[idx] : NULL;
}

uint64_t ember_dso__vaddr_to_addr(struct ember_dso *dso, uint64_t vaddr)
{
	dso__load(dso);
	for (size_t i = 0; i < dso->nr_segs; i++) {
		const struct elf_seg *s = &dso->segs[i];
		uint64_t sz = s->memsz > s->filesz ? s->memsz : s->filesz;

		if (vaddr >= s->vaddr && vaddr < s->vaddr + sz)
			return vaddr - s->vaddr + s->offset;
	}
	return vaddr;
}

uint64_t ember_dso__addr_to_vaddr(struct ember_dso *dso, uint64_t addr)
{
	dso__load(dso);
	for (size_t i = 0; i < dso->nr_segs; i++) {
		const struct elf_seg *s = &dso->segs[i];
		uint64_t sz = s->filesz ? s->filesz : s->memsz;

		if (addr >= s->offset && addr < s->offset + sz)
			return addr - s->offset + s->vaddr;
	}
	return addr;
}

const char *ember_symbol__name(const struct ember_symbol *sym)
{
	return symbol__name(sym);
}

uint64_t ember_symbol__start(const struct ember_symbol *sym)
{
	return sym->start;
}

uint64_t ember_symbol__end(const struct ember_symbol *sym)
{
	return sym->end;
}

int ember_symbol__binding(const struct ember_symbol *sym)
{
	return sym->binding;
}

int ember_symbol__type(const struct ember_symbol *sym)
{
	return sym->type;
}
