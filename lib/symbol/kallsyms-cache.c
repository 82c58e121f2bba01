// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The parsed kallsyms table kept between runs, as perf keeps copies of
 * kallsyms in its build-id cache: printing /proc/kallsyms costs the
 * kernel tens of milliseconds and parsing it as much again, every run,
 * for a table that only changes when the machine reboots or a module
 * comes or goes.
 *
 * One file per key under $EMBER_KALLSYMS_CACHE_DIR, else
 * $XDG_CACHE_HOME/ember/kallsyms, else ~/.cache/ember/kallsyms (those two
 * only when the caller owns them). The key
 * is everything the table depends on: the kernel's build-id, the boot
 * (boot_id: KASLR changes every address), the modules and where they
 * sit, the reader's uid, and the first line of /proc/kallsyms as it
 * reads now (addresses shown or hidden: kptr_restrict, paranoid). The
 * symbols that come and go within a boot ([bpf] programs, ftrace and
 * kprobe trampolines) are never in the table (see kallsyms.c).
 *
 * The file: a header (magic, version, sizes, the key, a checksum of the
 * rest), the symbols sorted with perf's fix-ups already done, perf's
 * erase history, the names. Anything that does not check out (short,
 * foreign, other version, another key, another owner, bad checksum,
 * offsets out of range) is a miss: the caller reads /proc/kallsyms and
 * writes a new file, via a temporary and rename(), so readers only ever
 * see whole files. Every failure to write is silent: a read-only or
 * missing home costs speed, never a report.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/atomic-file.h"
#include "core/hash.h"
#include "symbol/build-id.h"
#include "symbol/kallsyms.h"

#define KCACHE_MAGIC "EMBKSYMS"
#define KCACHE_VERSION 2
#define KCACHE_SUFFIX ".ksyms"

struct kcache_header {
	char magic[8];
	uint32_t version;
	uint32_t header_size;	/* sizeof(struct kcache_header): also catches another ABI */
	uint64_t file_size;
	uint64_t checksum;	/* of everything after the header */
	uint64_t nr_syms;
	uint64_t nr_erased;
	uint64_t names_size;	/* including the last name's NUL */
	uint64_t nr_added;
	struct kallsyms_cache_info info;
	struct kallsyms_key key;
};

struct kcache_sym {
	uint64_t start;
	uint64_t end;
	uint32_t name;		/* offset into the names */
	uint32_t seq;
	uint8_t binding;
	uint8_t type;
	uint8_t pad[6];
};

struct kcache_erased {
	uint64_t start;
	uint32_t seq;
	uint32_t when;
};

struct kallsyms_cache {
	void *map;
	size_t size;
};

/* ---- the key -------------------------------------------------------------- */

/* Up to size - 1 bytes of the file at path, NUL-terminated; the length or -errno. */
static ssize_t read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;

	if (fd < 0)
		return -errno;
	while (len + 1 < size) {
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	return len;
}

/*
 * Where the modules sit: each line's name, size and address (not its
 * use count, which changes while the module stays put).
 */
static uint64_t modules_hash(const char *path)
{
	uint64_t h = 0x6b616c6c73796d73ULL;
	char *line = NULL;
	size_t n = 0;
	FILE *f = fopen(path, "re");

	if (!f)
		return h;
	while (getline(&line, &n, f) > 0) {
		char name[256], *x = strrchr(line, 'x');
		unsigned long long size = 0;
		uint64_t w[3] = { 0 };

		if (sscanf(line, "%255s %llu", name, &size) != 2)
			continue;
		w[0] = hash_str(name);
		w[1] = size;
		w[2] = x ? strtoull(x + 1, NULL, 16) : 0;
		h = hash_mix64(h ^ hash_words(w, 3));
	}
	free(line);
	fclose(f);
	return h;
}

/*
 * The first text symbol's line in buf (NUL-terminated): its address is
 * shown or hidden as every other (per-cpu 'A' symbols, first on some
 * kernels, read 0 either way). Else the first line. Its length, or 0.
 */
static size_t first_text_line(const char *buf, const char **line)
{
	const char *s = buf, *nl;

	*line = buf;
	for (; (nl = strchr(s, '\n')); s = nl + 1) {
		const char *sp = memchr(s, ' ', nl - s);

		if (sp && nl - sp > 3 && (sp[1] == 'T' || sp[1] == 't') && sp[2] == ' ') {
			*line = s;
			return nl - s;
		}
	}
	nl = strchr(buf, '\n');
	return nl ? (size_t)(nl - buf) : 0;
}

int kallsyms_key__get(const char *kallsyms, struct kallsyms_key *key)
{
	char buf[4096];
	const char *line;
	size_t line_len;
	ssize_t n;
	int len;

	memset(key, 0, sizeof(*key));
	len = build_id__read_notes_file("/sys/kernel/notes", key->build_id, sizeof(key->build_id));
	key->build_id_size = len > 0 ? len : 0;
	n = read_small("/proc/sys/kernel/random/boot_id", buf, sizeof(key->boot_id));
	if (n <= 0)
		return n ? (int)n : -ENODATA;
	memcpy(key->boot_id, buf, n);
	key->modules = modules_hash("/proc/modules");
	key->uid = geteuid();
	/* the kernel prints a page's worth of lines: microseconds, not the whole file's tens of ms */
	n = read_small(kallsyms, buf, sizeof(buf));
	if (n <= 0)
		return n ? (int)n : -ENODATA;
	line_len = first_text_line(buf, &line);
	if (!line_len || line_len >= sizeof(key->first_line))
		return -EINVAL;
	memcpy(key->first_line, line, line_len);
	return 0;
}

/* ---- where ---------------------------------------------------------------- */

/*
 * Whether dir is the caller's own: root running with a user's HOME
 * (sudo) must not leave root-owned directories in it, which would keep
 * that user's own runs from writing there.
 */
static bool owned(const char *dir)
{
	struct stat st;

	return !stat(dir, &st) && st.st_uid == geteuid();
}

/*
 * The cache directory into buf; false when there is none: turned off
 * with EMBER_KALLSYMS_CACHE_DIR="", no HOME, or a home not the caller's.
 */
static bool kcache_dir(char *buf, size_t size)
{
	const char *env = getenv("EMBER_KALLSYMS_CACHE_DIR");
	int n;

	if (env)
		n = snprintf(buf, size, "%s", env);
	else if ((env = getenv("XDG_CACHE_HOME")) && env[0] == '/')
		n = owned(env) ? snprintf(buf, size, "%s/ember/kallsyms", env) : 0;
	else if ((env = getenv("HOME")) && env[0] == '/')
		n = owned(env) ? snprintf(buf, size, "%s/.cache/ember/kallsyms", env) : 0;
	else
		return false;
	return n > 0 && (size_t)n < size;
}

static uint64_t key_hash(const struct kallsyms_key *key)
{
	uint64_t w[sizeof(*key) / 8];

	memcpy(w, key, sizeof(w));
	return hash_words(w, sizeof(w) / 8);
}

/* The cache file for key into buf; false when there is no cache directory. */
static bool kcache_path(const struct kallsyms_key *key, char *buf, size_t size)
{
	char dir[PATH_MAX];
	int n;

	if (!kcache_dir(dir, sizeof(dir)))
		return false;
	n = snprintf(buf, size, "%s/%016llx" KCACHE_SUFFIX, dir,
		     (unsigned long long)key_hash(key));
	return n > 0 && (size_t)n < size;
}

bool kallsyms_cache__enabled(void)
{
	char dir[PATH_MAX];

	return kcache_dir(dir, sizeof(dir));
}

/* ---- checking and reading ---------------------------------------------------- */

/*
 * Fletcher's sums over 64-bit words, in four lanes the compiler can keep
 * in vector registers: a changed, swapped or missing word changes them,
 * at a tenth of a millisecond for the whole table. Not a defence against
 * someone forging files (the file is the user's own, see the owner
 * check): a guard against torn, truncated or bit-rotted ones.
 */
static uint64_t checksum(const void *data, size_t size)
{
	const unsigned char *p = data;
	uint64_t a[4] = { 1, 2, 3, 4 }, b[4] = { 0 }, w[4];
	size_t i = 0;

	for (; i + 32 <= size; i += 32) {
		memcpy(w, p + i, 32);
		for (int l = 0; l < 4; l++) {
			a[l] += w[l];
			b[l] += a[l];
		}
	}
	w[0] = 0;
	for (; i < size; i++)
		w[0] = w[0] << 8 | p[i];
	return hash_mix64(a[0] ^ hash_mix64(a[1] ^ hash_mix64(a[2] ^ hash_mix64(a[3] ^ w[0])))) ^
	       hash_mix64(b[0] ^ hash_mix64(b[1] ^ hash_mix64(b[2] ^ hash_mix64(b[3] ^ size))));
}

static bool kcache_valid(const void *map, size_t size, const struct kallsyms_key *key)
{
	const struct kcache_header *h = map;
	const struct kcache_sym *syms;
	const char *names;
	uint64_t need;

	if (size < sizeof(*h) || memcmp(h->magic, KCACHE_MAGIC, 8) || h->version != KCACHE_VERSION ||
	    h->header_size != sizeof(*h) || h->file_size != size ||
	    memcmp(&h->key, key, sizeof(*key)))
		return false;
	if (h->nr_syms > UINT32_MAX || h->nr_erased > UINT32_MAX || h->names_size > UINT32_MAX ||
	    !h->names_size)
		return false;
	need = sizeof(*h) + h->nr_syms * sizeof(struct kcache_sym) +
	       h->nr_erased * sizeof(struct kcache_erased) + h->names_size;
	if (need != size || checksum((const char *)map + sizeof(*h), size - sizeof(*h)) != h->checksum)
		return false;
	syms = (const void *)(h + 1);
	names = (const char *)map + size - h->names_size;
	if (names[h->names_size - 1])
		return false;
	for (uint64_t i = 0; i < h->nr_syms; i++) {
		if (syms[i].name >= h->names_size || syms[i].end < syms[i].start)
			return false;
		/* sorted as symtab__sort() leaves it, or lookups would go astray */
		if (i && (syms[i - 1].start > syms[i].start ||
			  (syms[i - 1].start == syms[i].start && syms[i - 1].seq >= syms[i].seq)))
			return false;
	}
	return true;
}

struct kallsyms_cache *kallsyms_cache__open(const struct kallsyms_key *key)
{
	struct kallsyms_cache *c;
	char path[PATH_MAX];
	struct stat st;
	void *map;
	int fd;

	if (!kcache_path(key, path, sizeof(path)))
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return NULL;
	/* someone else's file is not trusted, whatever it says */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    st.st_size < (off_t)sizeof(struct kcache_header)) {
		close(fd);
		return NULL;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return NULL;
	/*
	 * Writable only now: populating a writable private mapping would
	 * copy every page. Lent names get cut at their module's tab (see
	 * kallsyms.c): those few pages are copied on write, the file stays.
	 */
	if (!kcache_valid(map, st.st_size, key) ||
	    mprotect(map, st.st_size, PROT_READ | PROT_WRITE)) {
		munmap(map, st.st_size);
		return NULL;
	}
	c = malloc(sizeof(*c));
	if (!c) {
		munmap(map, st.st_size);
		return NULL;
	}
	c->map = map;
	c->size = st.st_size;
	return c;
}

void kallsyms_cache__close(struct kallsyms_cache *c)
{
	if (!c)
		return;
	munmap(c->map, c->size);
	free(c);
}

int kallsyms_cache__fill(struct kallsyms_cache *c, struct symtab *t,
			 struct kallsyms_cache_info *info, bool lend_names)
{
	const struct kcache_header *h = c->map;
	const struct kcache_sym *syms = (const void *)(h + 1);
	const struct kcache_erased *erased = (const void *)(syms + h->nr_syms);
	char *names = (char *)c->map + c->size - h->names_size;

	memset(t, 0, sizeof(*t));
	/* else one copy of all the names: the table's pool owns them, as if added one by one */
	if (!lend_names)
		names = arena__strndup(&t->names, names, h->names_size - 1);
	t->syms = malloc((h->nr_syms ? h->nr_syms : 1) * sizeof(*t->syms));
	if (h->nr_erased)
		t->erased = malloc(h->nr_erased * sizeof(*t->erased));
	if (!names || !t->syms || (h->nr_erased && !t->erased)) {
		symtab__exit(t);
		return -ENOMEM;
	}
	for (uint64_t i = 0; i < h->nr_syms; i++)
		t->syms[i] = (struct ember_symbol){
			.start = syms[i].start,
			.end = syms[i].end,
			.name = names + syms[i].name,
			.seq = syms[i].seq,
			.binding = syms[i].binding,
			.type = syms[i].type,
		};
	for (uint64_t i = 0; i < h->nr_erased; i++)
		t->erased[i] = (struct symtab_erased){ erased[i].start, erased[i].seq, erased[i].when };
	t->nr = t->nr_sorted = t->alloc = h->nr_syms;
	t->nr_erased = t->alloc_erased = h->nr_erased;
	t->nr_added = h->nr_added;
	*info = h->info;
	return 0;
}

/* ---- writing ------------------------------------------------------------------ */

static int mkdir_p(char *path)
{
	for (char *s = path + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(path, 0700) && errno != EEXIST) {
			*s = '/';
			return -errno;
		}
		*s = '/';
	}
	if (mkdir(path, 0700) && errno != EEXIST)
		return -errno;
	return 0;
}

/* Other keys' files (an earlier boot's, a module since loaded): stale, and megabytes each. */
static void remove_stale(const char *dir, const char *keep)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		struct stat st;

		if (len != 16 + strlen(KCACHE_SUFFIX) || strcmp(e->d_name + 16, KCACHE_SUFFIX) ||
		    !strcmp(e->d_name, keep))
			continue;
		if (!fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
		    st.st_uid == geteuid())
			unlinkat(dirfd(d), e->d_name, 0);
	}
	closedir(d);
}

int kallsyms_cache__write(const struct kallsyms_key *key, const struct symtab *t,
			  const struct kallsyms_cache_info *info)
{
	char path[PATH_MAX], dir[PATH_MAX], *slash;
	struct atomic_file af;
	struct kcache_header *h;
	struct kcache_sym *syms;
	struct kcache_erased *erased;
	size_t names_size = 1, size, off;
	char *buf, *names;
	int err;

	if (t->nr != t->nr_sorted || t->nr > UINT32_MAX || t->alloc_erased == SIZE_MAX ||
	    !kcache_path(key, path, sizeof(path)))
		return -EINVAL;
	for (size_t i = 0; i < t->nr; i++)
		names_size += strlen(t->syms[i].name) + 1;
	if (names_size > UINT32_MAX)
		return -E2BIG;
	size = sizeof(*h) + t->nr * sizeof(*syms) + t->nr_erased * sizeof(*erased) + names_size;
	buf = calloc(1, size);
	if (!buf)
		return -ENOMEM;
	h = (void *)buf;
	syms = (void *)(h + 1);
	erased = (void *)(syms + t->nr);
	names = (char *)(erased + t->nr_erased);
	off = 1; /* offset 0: the empty name */
	for (size_t i = 0; i < t->nr; i++) {
		const struct ember_symbol *s = &t->syms[i];
		size_t len = strlen(s->name) + 1;

		syms[i] = (struct kcache_sym){ .start = s->start, .end = s->end, .seq = s->seq,
					       .binding = s->binding, .type = s->type };
		syms[i].name = len > 1 ? off : 0;
		memcpy(names + off, s->name, len);
		off += len;
	}
	for (size_t i = 0; i < t->nr_erased; i++)
		erased[i] = (struct kcache_erased){ t->erased[i].start, t->erased[i].seq,
						    t->erased[i].when };
	memcpy(h->magic, KCACHE_MAGIC, 8);
	h->version = KCACHE_VERSION;
	h->header_size = sizeof(*h);
	h->file_size = size;
	h->nr_syms = t->nr;
	h->nr_erased = t->nr_erased;
	h->names_size = names_size;
	h->nr_added = t->nr_added;
	h->info = *info;
	h->key = *key;
	h->checksum = checksum(buf + sizeof(*h), size - sizeof(*h));

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		err = mkdir_p(dir);
		if (err)
			goto out;
	}
	/* Private, like the kernel's own list; written aside, so readers see whole files. */
	err = atomic_file__open(&af, path, 0600);
	if (err)
		goto out;
	if (fwrite(buf, 1, size, af.fp) != size) {
		err = errno ? -errno : -EIO;
		atomic_file__abort(&af);
		goto out;
	}
	err = atomic_file__commit(&af);
	if (!err && slash && slash != dir)
		remove_stale(dir, path + (slash - dir) + 1);
out:
	free(buf);
	return err;
}
