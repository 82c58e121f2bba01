// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The kernel as perf 6.1 synthesizes it: one PERF_RECORD_MMAP for the
 * kernel text named "[kernel.kallsyms]_text" (the relocation reference
 * symbol), then one per module from /proc/modules. The text's range comes
 * from /proc/iomem and the head of kallsyms where they tell it
 * (kernel-range.c), else from a scan of kallsyms as perf's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include "core/log.h"
#include "synth/synth-int.h"

#define KERNEL_MMAP_NAME "[kernel.kallsyms]"
#define MODULES_MAX_DEPTH 8

/* The symbol name of a kallsyms line "ADDR T NAME[\t[module]]", or NULL. */
static const char *kallsyms_name(char *line, uint64_t *addr)
{
	char *p = line, *name;
	uint64_t a = 0;

	for (; *p && *p != ' '; p++) {
		int d;

		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (*p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			return NULL;
		a = a << 4 | (uint64_t)d;
	}
	if (p == line || p[0] != ' ' || !p[1] || p[2] != ' ')
		return NULL;
	name = p + 3;
	p = strchr(name, '\t');
	if (p)
		*p = '\0';
	*addr = a;
	return name;
}

int ember_synth__kallsyms_ref(int fd, struct ember_synth_kref *ref)
{
	char buf[32768];
	struct synth_lines l;
	uint64_t text = 0, stext = 0, etext = 0;
	bool have_text = false, have_stext = false, have_etext = false;
	char *line;
	size_t len;

	memset(ref, 0, sizeof(*ref));
	synth_lines__init(&l, fd, buf, sizeof(buf));
	while ((line = synth_lines__next(&l, &len))) {
		uint64_t addr;
		const char *name;

		/* Cheap filter: every name wanted ends in "text". */
		if (len < 6 || memcmp(line + len - 4, "text", 4))
			continue;
		name = kallsyms_name(line, &addr);
		if (!name)
			continue;
		if (!have_text && !strcmp(name, "_text")) {
			text = addr;
			have_text = true;
		} else if (!have_stext && !strcmp(name, "_stext")) {
			stext = addr;
			have_stext = true;
		} else if (!have_etext && !strcmp(name, "_etext")) {
			etext = addr;
			have_etext = true;
		}
		if (have_text && have_etext)
			break;
	}
	if (l.err)
		return l.err;
	if (have_text) {
		strcpy(ref->name, "_text");
		ref->start = text;
	} else if (have_stext) {
		strcpy(ref->name, "_stext");
		ref->start = stext;
	} else {
		return -ENOENT;
	}
	if (!ref->start)
		return -EACCES;
	ref->end = have_etext ? etext : 0;
	return 0;
}

static int emit_kmmap(struct ember_synth *s, uint64_t start, uint64_t len, uint64_t pgoff,
		      const char *name1, const char *name2)
{
	union synth_buf buf;
	struct synth_mmap *ev = (struct synth_mmap *)&buf;
	size_t n1 = strlen(name1), n2 = strlen(name2);
	int err;

	if (n1 + n2 >= PATH_MAX)
		return -ENAMETOOLONG;
	ev->header.type = PERF_RECORD_MMAP;
	ev->header.misc = PERF_RECORD_MISC_KERNEL;
	ev->pid = (uint32_t)-1;
	ev->tid = 0;
	ev->start = start;
	ev->len = len;
	ev->pgoff = pgoff;
	memcpy(ev->filename, name1, n1);
	memcpy(ev->filename + n1, name2, n2 + 1);
	err = synth__emit(s, &buf, sizeof(*ev) + n1 + n2 + 1);
	if (!err)
		s->counts.mmap++;
	return err;
}

/* ---- modules ------------------------------------------------------------------ */

struct synth_module {
	uint64_t start, size;
	char name[64];
	char *path;			/* the .ko found under the modules dir; owned */
};

struct synth_modules {
	struct synth_module *v;
	size_t nr, alloc;
};

static void modules__free(struct synth_modules *mods)
{
	for (size_t i = 0; i < mods->nr; i++)
		free(mods->v[i].path);
	free(mods->v);
	memset(mods, 0, sizeof(*mods));
}

/* "name size refcnt deps state 0xaddr [taints]": one entry, or false to skip. */
static bool parse_module_line(char *line, struct synth_module *m)
{
	char *f[6], *save = NULL, *tok;
	int n = 0;

	for (tok = strtok_r(line, " ", &save); tok && n < 6; tok = strtok_r(NULL, " ", &save))
		f[n++] = tok;
	if (n < 6 || strlen(f[0]) >= sizeof(m->name))
		return false;
	memset(m, 0, sizeof(*m));
	strcpy(m->name, f[0]);
	m->size = strtoull(f[1], NULL, 10);
	m->start = strtoull(f[5], NULL, 16);
	return true;
}

static int modules__read(struct synth_modules *mods, int fd)
{
	char buf[8192];
	struct synth_lines l;
	char *line;
	size_t len;

	synth_lines__init(&l, fd, buf, sizeof(buf));
	while ((line = synth_lines__next(&l, &len))) {
		struct synth_module m;

		if (!parse_module_line(line, &m))
			continue;
		if (!m.start) {
			pr_debug("synth: module %s has no address (kptr_restrict?), skipped\n",
				 m.name);
			continue;
		}
		if (mods->nr == mods->alloc) {
			size_t alloc = mods->alloc ? mods->alloc * 2 : 64;
			struct synth_module *v = realloc(mods->v, alloc * sizeof(*v));

			if (!v)
				return -ENOMEM;
			mods->v = v;
			mods->alloc = alloc;
		}
		mods->v[mods->nr++] = m;
	}
	return 0;
}

static int module_cmp(const void *a, const void *b)
{
	const struct synth_module *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * The module name of a file "foo-bar.ko[.xz|.gz|.zst]" ("foo_bar", as the
 * kernel spells it in /proc/modules) into out; false when not a module.
 */
static bool kmod_name(const char *file, char *out, size_t size)
{
	static const char *const exts[] = { ".ko", ".ko.xz", ".ko.gz", ".ko.zst" };
	size_t len = strlen(file);

	for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		size_t el = strlen(exts[i]), n;

		if (len <= el || strcmp(file + len - el, exts[i]))
			continue;
		n = len - el;
		if (n >= size)
			return false;
		for (size_t j = 0; j < n; j++)
			out[j] = file[j] == '-' ? '_' : file[j];
		out[n] = '\0';
		return true;
	}
	return false;
}

/* Name each listed module by its file under dir (depth-first; the last one seen wins). */
static int modules__find_paths(struct synth_modules *mods, char *dir, size_t dlen, int depth)
{
	DIR *d;
	struct dirent *de;
	int err = 0;

	if (depth > MODULES_MAX_DEPTH)
		return 0;
	d = opendir(dir);
	if (!d)
		return 0;
	while (!err && (de = readdir(d))) {
		char name[64];
		size_t nlen = strlen(de->d_name);
		bool is_dir;

		if (de->d_name[0] == '.')
			continue;
		/* As perf: do not follow the top-level source and build links. */
		if (depth == 0 && (!strcmp(de->d_name, "source") || !strcmp(de->d_name, "build")))
			continue;
		if (dlen + 1 + nlen >= PATH_MAX)
			continue;
		dir[dlen] = '/';
		memcpy(dir + dlen + 1, de->d_name, nlen + 1);
		if (de->d_type == DT_DIR) {
			is_dir = true;
		} else if (de->d_type == DT_UNKNOWN || de->d_type == DT_LNK) {
			struct stat st;

			is_dir = !stat(dir, &st) && S_ISDIR(st.st_mode);
		} else {
			is_dir = false;
		}
		if (is_dir) {
			err = modules__find_paths(mods, dir, dlen + 1 + nlen, depth + 1);
		} else if (kmod_name(de->d_name, name, sizeof(name))) {
			for (size_t i = 0; i < mods->nr; i++) {
				char *path;

				if (strcmp(mods->v[i].name, name))
					continue;
				path = strdup(dir);
				if (!path) {
					err = -ENOMEM;
					break;
				}
				free(mods->v[i].path);
				mods->v[i].path = path;
			}
		}
		dir[dlen] = '\0';
	}
	closedir(d);
	return err;
}

/* Read, sort and name the modules. Returns 0 or -ENOMEM; *mods freed by the caller. */
static int modules__load(struct synth_modules *mods, int fd, const char *modules_dir)
{
	int err = modules__read(mods, fd);

	if (err || !mods->nr)
		return err;
	qsort(mods->v, mods->nr, sizeof(mods->v[0]), module_cmp);
	if (modules_dir) {
		char dir[PATH_MAX];
		size_t dlen = strlen(modules_dir);

		if (dlen >= sizeof(dir))
			return 0;
		memcpy(dir, modules_dir, dlen + 1);
		err = modules__find_paths(mods, dir, dlen, 0);
	}
	return err;
}

static int modules__emit(struct ember_synth *s, const struct synth_modules *mods)
{
	for (size_t i = 0; i < mods->nr; i++) {
		const struct synth_module *m = &mods->v[i];
		char bracket[sizeof(m->name) + 2];
		int err;

		snprintf(bracket, sizeof(bracket), "[%s]", m->name);
		err = emit_kmmap(s, m->start, m->size, 0, m->path ? m->path : bracket, "");
		if (err)
			return err;
		s->counts.modules++;
	}
	return 0;
}

int ember_synth__modules_from(struct ember_synth *s, int modules_fd, const char *modules_dir)
{
	struct synth_modules mods = { 0 };
	int err = modules__load(&mods, modules_fd, modules_dir);

	if (!err)
		err = modules__emit(s, &mods);
	modules__free(&mods);
	return err;
}

int ember_synth__kernel(struct ember_synth *s)
{
	struct synth_modules mods = { 0 };
	struct ember_synth_kref ref;
	char modules_dir[PATH_MAX];
	struct utsname uts;
	uint64_t text, len;
	bool fast;
	int fd, kerr, err = 0;

	/* The cheap sources when they are there; else the scan of kallsyms, as perf. */
	fast = !synth_kernel__range(s, &text, &len);
	if (fast) {
		kerr = 0;
	} else {
		fd = openat(s->proc_fd, "kallsyms", O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			kerr = -errno;
		} else {
			kerr = ember_synth__kallsyms_ref(fd, &ref);
			close(fd);
		}
	}

	fd = openat(s->proc_fd, "modules", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		const char *dir = NULL;

		if (!uname(&uts)) {
			snprintf(modules_dir, sizeof(modules_dir), "/lib/modules/%s", uts.release);
			dir = modules_dir;
		}
		err = modules__load(&mods, fd, dir);
		close(fd);
		if (err)
			goto out;
	}

	if (fast) {
		err = emit_kmmap(s, text, len, text, KERNEL_MMAP_NAME, "_text");
		if (err)
			goto out;
	} else if (!kerr) {
		/* perf's kernel map ends at _etext, else at the first module, else at the top. */
		uint64_t end = ref.end ? ref.end : mods.nr ? mods.v[0].start : ~0ULL;

		err = emit_kmmap(s, ref.start, end - ref.start, ref.start, KERNEL_MMAP_NAME,
				 ref.name);
		if (err)
			goto out;
	} else {
		pr_debug("synth: no kernel reference symbol in /proc/kallsyms: %s\n",
			 strerror(-kerr));
		s->counts.kernel_err = kerr;
	}
	err = modules__emit(s, &mods);
out:
	modules__free(&mods);
	return err ? err : kerr;
}

int ember_synth__machine(struct ember_synth *s, struct ember_synth_counts *counts)
{
	int err = ember_synth__kernel(s);

	if (!err || err == s->counts.kernel_err)
		err = ember_synth__all_processes(s);
	if (counts)
		*counts = s->counts;
	return err;
}
