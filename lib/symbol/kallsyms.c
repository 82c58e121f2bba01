// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Kernel symbols from kallsyms, perf's way (dso__load_kallsyms): T/W/D/B
 * symbols of either case, sorted, zero sizes extended up to the next
 * symbol (not across the kernel/module boundary), duplicates resolved,
 * then module symbols ("name\t[mod]") moved to their module's dso,
 * relative to its start, and the rest kept for [kernel.kallsyms]. When
 * the kernel was recorded with a build-id that is not the running
 * kernel's, the copy perf record keeps in the build-id cache is used.
 *
 * The running kernel's table, parsed and fixed up, is kept between runs
 * (kallsyms-cache.c): a second report reads a file of sorted symbols
 * instead of making the kernel print 100k lines and parsing them again.
 * So that the cached table is the one a fresh read would make, the
 * symbols that come and go without a module load ("[bpf]" programs,
 * "[__builtin__ftrace]" and kprobe trampolines) are left out of both: no
 * module dso takes them (BPF programs resolve through their KSYMBOL
 * records), and leaving them out only changes where a module symbol
 * just below one of them ends, outside its module's map.
 */
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/log.h"
#include "symbol/build-id.h"
#include "symbol/dso.h"
#include "symbol/kallsyms.h"

int modules__parse(const char *path, module_fn_t fn, void *arg)
{
	char *line = NULL, name[256];
	size_t n = 0;
	int ret = 0;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (getline(&line, &n, f) > 0) {
		unsigned long long size, start;
		char *x = strrchr(line, 'x');
		char mod[200];

		/* "name size refcnt deps state 0xaddress [taint]" */
		if (!x || sscanf(line, "%199s %llu", mod, &size) != 2)
			continue;
		start = strtoull(x + 1, NULL, 16);
		snprintf(name, sizeof(name), "[%s]", mod);
		ret = fn(arg, name, start, size);
		if (ret)
			break;
	}
	free(line);
	fclose(f);
	return ret;
}

/* ---- reading the file in a thread ----------------------------------------- */

struct kallsyms_prefetch {
	pthread_t thread;
	char *path;
	char *buf;		/* the file's text, owned until taken */
	size_t len;
	int err;		/* 0 or -errno of the open or a read */
	int done;		/* set by the thread when it is through (atomic) */
	/* Looked for first when try_cache: a hit leaves buf NULL. */
	bool try_cache;
	/*
	 * Taken (the thread joined, if any): only keeps the cache's mapping,
	 * which the kernel's symbol names point into, until dsos__exit().
	 */
	bool taken;
	bool have_key;		/* key is the file's as it was before the read */
	struct kallsyms_key key;
	struct kallsyms_cache *cache;	/* owned until taken */
};

/* The whole file into p->buf, with room to spare for a NUL. */
static void prefetch__read(struct kallsyms_prefetch *p)
{
	size_t alloc = 0;
	int fd = open(p->path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		p->err = -errno;
		return;
	}
	for (;;) {
		ssize_t n;

		/* always room to spare: the parser puts a NUL after the last byte */
		if (alloc - p->len < 64 * 1024) {
			size_t na = alloc ? alloc * 2 : 8 << 20;
			char *nb = realloc(p->buf, na);

			if (!nb) {
				p->err = -ENOMEM;
				break;
			}
			p->buf = nb;
			alloc = na;
		}
		n = read(fd, p->buf + p->len, alloc - p->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			p->err = -errno;
			break;
		}
		if (!n)
			break;
		p->len += n;
	}
	close(fd);
}

/* The cached table when there is a valid one, else the file's text. */
static void prefetch__fetch(struct kallsyms_prefetch *p)
{
	if (p->try_cache) {
		p->have_key = !kallsyms_key__get(p->path, &p->key);
		if (p->have_key)
			p->cache = kallsyms_cache__open(&p->key);
		if (p->cache)
			return;
	}
	prefetch__read(p);
}

static void *prefetch__run(void *arg)
{
	struct kallsyms_prefetch *p = arg;

	prefetch__fetch(p);
	__atomic_store_n(&p->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * Whether the kallsyms file at path may come from (and go to) the cache:
 * the running kernel's own /proc/kallsyms, not a file the user named
 * (perf's --kallsyms is read as it is), not a build-id cache copy.
 */
static bool kallsyms__may_cache(const struct sym_conf *conf, const char *path)
{
	return path == conf->kallsyms && !conf->kallsyms_forced &&
	       !strcmp(path, "/proc/kallsyms") && kallsyms_cache__enabled();
}

bool dsos__prefetch_done(const struct dsos *dsos)
{
	return !dsos->prefetch || dsos->prefetch->taken ||
	       __atomic_load_n(&dsos->prefetch->done, __ATOMIC_ACQUIRE);
}

int dsos__prefetch_kallsyms(struct dsos *dsos)
{
	struct kallsyms_prefetch *p;
	int err;

	if (dsos->prefetch || !dsos->conf.kallsyms[0])
		return 0;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->path = strdup(dsos->conf.kallsyms);
	if (!p->path) {
		free(p);
		return -ENOMEM;
	}
	p->try_cache = kallsyms__may_cache(&dsos->conf, dsos->conf.kallsyms);
	err = pthread_create(&p->thread, NULL, prefetch__run, p);
	if (err) {
		free(p->path);
		free(p);
		return -err;
	}
	dsos->prefetch = p;
	return 0;
}

void dsos__prefetch_exit(struct dsos *dsos)
{
	struct kallsyms_prefetch *p = dsos->prefetch;

	if (!p)
		return;
	if (!p->taken)
		pthread_join(p->thread, NULL);
	kallsyms_cache__close(p->cache);
	free(p->buf);
	free(p->path);
	free(p);
	dsos->prefetch = NULL;
}

/*
 * What the kallsyms file at path gives: the prefetched result when it is
 * of that file, else read now; with cacheable, the cached table when
 * there is a valid one (src->cache), else the text (src->text, the
 * caller's to free) and the key it was read under, if known. 0 or -errno.
 */
struct kallsyms_src {
	char *text;
	size_t len;
	struct kallsyms_cache *cache;
	bool have_key;
	struct kallsyms_key key;
};

static int kallsyms__source(struct ember_dso *kernel, const char *path, bool cacheable,
			    struct kallsyms_src *src)
{
	struct dsos *dsos = kernel->dsos;
	struct kallsyms_prefetch *p = dsos ? dsos->prefetch : NULL;
	struct kallsyms_prefetch now = { .path = (char *)path, .try_cache = cacheable };
	int err;

	if (p && !p->taken && !strcmp(p->path, path)) {
		pthread_join(p->thread, NULL);
		dsos->prefetch = NULL;
		free(p->path);
		/* a cached table not wanted after all (see kallsyms__may_cache()): the text then */
		if (p->cache && !cacheable) {
			kallsyms_cache__close(p->cache);
			p->cache = NULL;
			prefetch__read(p);
		}
	} else {
		p = &now;
		prefetch__fetch(p);
	}
	err = p->err;
	*src = (struct kallsyms_src){
		.text = p->buf,
		.len = p->len,
		.cache = p->cache,
		.have_key = cacheable && p->have_key,
		.key = p->key,
	};
	if (p != &now)
		free(p);
	if (err) {
		free(src->text);
		src->text = NULL;
	}
	return err;
}

static bool kallsyms__type_wanted(char type)
{
	type = toupper((unsigned char)type);
	return type == 'T' || type == 'W' || type == 'D' || type == 'B';
}

static uint8_t kallsyms__binding(char type)
{
	if (type == 'W' || type == 'w')
		return STB_WEAK;
	return isupper((unsigned char)type) ? STB_GLOBAL : STB_LOCAL;
}

/* Which kallsyms file to read for this kernel dso; NULL (and *err) when none fits. */
static const char *kallsyms__path(struct ember_dso *kernel, char *buf, size_t size, int *err)
{
	const struct sym_conf *conf = kernel->conf;
	uint8_t running[BUILD_ID_MAX];
	char hex[BUILD_ID_HEX_MAX];
	struct stat st;
	int n;

	if (!conf->kallsyms[0]) {
		*err = -ENOENT;
		return NULL;
	}
	if (conf->kallsyms_forced || !kernel->id.build_id_size)
		return conf->kallsyms;
	n = build_id__read_notes_file("/sys/kernel/notes", running, sizeof(running));
	if (n == kernel->id.build_id_size && !memcmp(running, kernel->id.build_id, n))
		return conf->kallsyms;
	build_id__hex(kernel->id.build_id, kernel->id.build_id_size, hex);
	snprintf(buf, size, "%s/" KERNEL_DSO_NAME "/%s/kallsyms", conf->buildid_dir, hex);
	if (conf->buildid_dir[0] && !stat(buf, &st))
		return buf;
	pr_warn("kernel symbols: the recorded kernel (build-id %s) is not the running one and has no kallsyms in the build-id cache\n",
		hex);
	*err = -EILSEQ;
	return NULL;
}

struct kallsyms_parse {
	uint64_t text, stext, etext, ref_reloc;
	size_t nonzero;
};

/* The hex address at the start of a kallsyms line; *end at the first other character. */
static uint64_t kallsyms__hex(const char *s, const char **end)
{
	uint64_t v = 0;

	for (;; s++) {
		unsigned int c = (unsigned char)*s, d;

		if (c - '0' < 10)
			d = c - '0';
		else if ((c | 0x20) - 'a' < 6)
			d = (c | 0x20) - 'a' + 10;
		else
			break;
		v = v << 4 | d;
	}
	*end = s;
	return v;
}

/* A module tag of the symbols that come and go within a boot: see the top of the file. */
static bool kallsyms__volatile(const char *name)
{
	const char *tab = strchr(name, '\t');

	return tab && (!strcmp(tab + 1, "[bpf]") || !strncmp(tab + 1, "[__builtin__", 12));
}

/* Parses text[0, size) (with room for a NUL after it) into the kernel's table; frees text. */
static int kallsyms__parse(struct ember_dso *kernel, char *text, size_t size,
			   struct kallsyms_parse *kp)
{
	char *line, *end_of_text;
	int ret = 0;

	end_of_text = text + size;
	for (line = text; line < end_of_text; ) {
		char *nl = memchr(line, '\n', end_of_text - line), *name;
		const char *end;
		size_t len;
		uint64_t addr;
		char type;

		/* a last line without its newline: the text has room for the NUL (prefetch__run) */
		if (!nl)
			nl = end_of_text;
		/* a NUL inside the text ends the line there, as getline() and strcmp() saw it */
		len = strnlen(line, nl - line);
		line[len] = '\0';
		addr = kallsyms__hex(line, &end);
		if (end == line || end[0] != ' ' || !end[1] || end[2] != ' ' || !end[3])
			goto next;
		type = end[1];
		name = line + (end - line) + 3;
		if (addr)
			kp->nonzero++;
		if (name[0] != '_')
			;
		else if (!kp->text && !strcmp(name, "_text"))
			kp->text = addr;
		else if (!kp->stext && !strcmp(name, "_stext"))
			kp->stext = addr;
		else if (!kp->etext && !strcmp(name, "_etext"))
			kp->etext = addr;
		if (kernel->ref_reloc_name && !kp->ref_reloc && !strcmp(name, kernel->ref_reloc_name))
			kp->ref_reloc = addr;
		if (!kallsyms__type_wanted(type) || name[0] == '$')
			goto next;
		if (kallsyms__volatile(name))
			goto next;
		/* The name keeps its "\t[module]" tail until the split below. */
		ret = symtab__add(&kernel->symtab, addr, 0, kallsyms__binding(type),
				  toupper((unsigned char)type) == 'T' || toupper((unsigned char)type) == 'W' ?
					  STT_FUNC : STT_OBJECT,
				  name, line + len - name);
		if (ret)
			break;
next:
		line = nl + 1;
	}
	free(text);
	return ret;
}

/* Moves module symbols to their module dso (or drops them) and relocates the rest. */
static void kallsyms__split(struct ember_dso *kernel, int64_t delta)
{
	struct symtab *t = &kernel->symtab;
	struct dsos *dsos = kernel->dsos;
	size_t w = 0;
	struct hashtab_slot *slot;

	for (size_t i = 0; i < t->nr; i++) {
		struct ember_symbol s = t->syms[i];
		char *tab = strchr(s.name, '\t');

		if (tab) {
			struct ember_dso *mod;

			*tab = '\0'; /* the pool's copy: ours to cut */
			mod = dsos ? dsos__find(dsos, tab + 1) : NULL;
			if (mod && mod->kind == DSO_KIND_MODULE && !mod->loaded)
				symtab__add(&mod->symtab, s.start - mod->kmod_start, s.end - s.start,
					    s.binding, s.type, s.name, strlen(s.name));
			continue;
		}
		/* x86 PTI entry trampolines: perf drops them too. */
		if (s.name[0] == '_' && !strcmp(s.name, "__entry_SYSCALL_64_trampoline"))
			continue;
		s.start -= delta;
		s.end -= delta;
		t->syms[w++] = s;
	}
	t->nr = t->nr_sorted = w;
	if (!dsos)
		return;
	hashtab__for_each(&dsos->by_name, slot) {
		for (struct ember_dso *mod = (struct ember_dso *)(uintptr_t)slot->val; mod;
		     mod = mod->older) {
			if (mod->kind != DSO_KIND_MODULE || mod->loaded)
				continue;
			symtab__sort(&mod->symtab);
			mod->loaded = true;
			mod->symsrc_path = strdup(kernel->symsrc_path ? kernel->symsrc_path : "");
		}
	}
}

/* The relocation reference the kernel's MMAP named, when the cache knows it (_text or _stext). */
static bool kallsyms__ref_cached(const struct ember_dso *kernel)
{
	const char *ref = kernel->ref_reloc_name;

	return !ref || !strcmp(ref, "_text") || !strcmp(ref, "_stext");
}

/*
 * The table from the cache, which it closes or keeps; false (table
 * empty) when it could not be had.
 */
static bool kallsyms__from_cache(struct ember_dso *kernel, struct kallsyms_cache *c,
				 struct kallsyms_parse *kp)
{
	struct dsos *dsos = kernel->dsos;
	struct kallsyms_prefetch *keep = NULL;
	struct kallsyms_cache_info info;
	const char *ref = kernel->ref_reloc_name;

	/*
	 * The names stay in the cache's mapping, kept open in the dsos' slot
	 * for it (free by now): 100k names not copied, megabytes of memory
	 * not faulted in. A standalone kernel dso copies them.
	 */
	if (dsos && !dsos->prefetch) {
		keep = calloc(1, sizeof(*keep));
		if (keep) {
			keep->taken = true;
			keep->done = 1;
			keep->path = strdup("");
		}
		if (keep && !keep->path) {
			free(keep);
			keep = NULL;
		}
	}
	if (kallsyms_cache__fill(c, &kernel->symtab, &info, keep != NULL)) {
		if (keep)
			free(keep->path);
		free(keep);
		kallsyms_cache__close(c);
		return false;
	}
	if (keep) {
		keep->cache = c;
		dsos->prefetch = keep;
	} else {
		kallsyms_cache__close(c);
	}
	*kp = (struct kallsyms_parse){
		.text = info.text,
		.stext = info.stext,
		.etext = info.etext,
		.nonzero = info.nonzero,
	};
	if (ref)
		kp->ref_reloc = !strcmp(ref, "_text") ? info.text : info.stext;
	return true;
}

/*
 * Saves the table just parsed, if the key read before the parse still
 * holds after it (no module came or went meanwhile).
 */
static void kallsyms__save(const struct ember_dso *kernel, const char *path,
			   const struct kallsyms_key *before, const struct kallsyms_parse *kp)
{
	struct kallsyms_cache_info info = {
		.text = kp->text,
		.stext = kp->stext,
		.etext = kp->etext,
		.nonzero = kp->nonzero,
	};
	struct kallsyms_key after;

	if (kallsyms_key__get(path, &after) || memcmp(before, &after, sizeof(after)))
		return;
	kallsyms_cache__write(before, &kernel->symtab, &info);
}

int dso__load_kallsyms(struct ember_dso *kernel)
{
	struct kallsyms_parse kp = { 0 };
	struct kallsyms_src src;
	char buf[PATH_MAX];
	const char *path;
	int64_t delta = 0;
	bool cacheable, cached = false;
	int err = 0;

	path = kallsyms__path(kernel, buf, sizeof(buf), &err);
	if (!path)
		return err;
	cacheable = kallsyms__may_cache(kernel->conf, path) && kallsyms__ref_cached(kernel);
	err = kallsyms__source(kernel, path, cacheable, &src);
	if (!err && src.cache) {
		cached = kallsyms__from_cache(kernel, src.cache, &kp);
		if (!cached) {
			struct kallsyms_prefetch now = { .path = (char *)path };

			prefetch__read(&now);
			err = now.err;
			src.text = now.buf;
			src.len = now.len;
			if (err) {
				free(src.text);
				src.text = NULL;
			}
		}
	}
	if (err) {
		pr_warn("kernel symbols: cannot open %s: %s\n", path, strerror(-err));
		return err;
	}
	if (!cached) {
		err = kallsyms__parse(kernel, src.text, src.len, &kp);
		if (err) {
			symtab__exit(&kernel->symtab);
			return err;
		}
	}
	if (kernel->symtab.nr && !kp.nonzero) {
		FILE *f = fopen("/proc/sys/kernel/kptr_restrict", "re");
		int restrict_level = -1;

		if (f) {
			if (fscanf(f, "%d", &restrict_level) != 1)
				restrict_level = -1;
			fclose(f);
		}
		/*
		 * The kernel shows addresses with kptr_restrict=0 only when
		 * perf_event_paranoid <= 1 (or to CAP_SYSLOG); with 1, only to
		 * CAP_SYSLOG. Name the setting that hides them.
		 */
		if (restrict_level == 0)
			pr_warn("kernel symbols: every address in %s is 0 (kernel.perf_event_paranoid > 1 hides them from users without CAP_SYSLOG): run as root, or sysctl kernel.perf_event_paranoid=1\n",
				path);
		else
			pr_warn("kernel symbols: every address in %s is 0 (kernel.kptr_restrict=%d): run as root, or sysctl kernel.kptr_restrict=0\n",
				path, restrict_level);
		symtab__exit(&kernel->symtab);
		return -EACCES;
	}
	kernel->ktext_start = kp.text ? kp.text : kp.stext;
	kernel->ktext_end = kp.etext;
	/* Kernel relocated (KASLR) since recording: shift back to the recorded addresses. */
	if (kernel->ref_reloc_name && kernel->ref_reloc_addr && kp.ref_reloc)
		delta = kp.ref_reloc - kernel->ref_reloc_addr;
	kernel->symsrc_path = strdup(path);

	if (!cached) {
		symtab__sort(&kernel->symtab);
		symtab__fixup_end(&kernel->symtab, true);
		symtab__fixup_duplicate(&kernel->symtab);
		if (src.have_key && kernel->symtab.nr)
			kallsyms__save(kernel, path, &src.key, &kp);
	}
	kallsyms__split(kernel, delta);
	return kernel->symtab.nr;
}
