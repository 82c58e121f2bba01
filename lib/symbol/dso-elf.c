// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Loading a user-space dso: which files to try, in perf's order
 * (dso__load()'s binary_type_symtab[]), and which of them to use.
 *
 *   DEBUGLINK        <dir>/<link>, <dir>/.debug/<link>, /usr/lib/debug<dir>/<link>
 *   BUILD_ID_CACHE   <buildid_dir>/.build-id/xx/yyyy/elf, then .../debug
 *   FEDORA           /usr/lib/debug<path>.debug
 *   UBUNTU           /usr/lib/debug<path>            (Debian -dbg packages)
 *   BUILDID_DEBUG    /usr/lib/debug/.build-id/xx/yyyy.debug  (Debian -dbgsym)
 *   SYSTEM_PATH      <path>
 *
 * The first file with a .symtab gives the symbols; the first with a
 * .dynsym is the runtime image (program headers, PLT). Files whose
 * build-id differs from the dso's are skipped.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "core/log.h"
#include "symbol/build-id.h"
#include "symbol/symbol-elf.h"

#define MAX_CANDIDATES 10

struct candidates {
	char *path[MAX_CANDIDATES];
	int nr;
};

static bool is_regular_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static void candidates__add(struct candidates *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void candidates__add(struct candidates *c, const char *fmt, ...)
{
	char buf[PATH_MAX];
	va_list ap;
	int n;

	if (c->nr == MAX_CANDIDATES)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n <= 0 || n >= (int)sizeof(buf))
		return;
	c->path[c->nr] = strdup(buf);
	if (c->path[c->nr])
		c->nr++;
}

static void candidates__exit(struct candidates *c)
{
	for (int i = 0; i < c->nr; i++)
		free(c->path[i]);
	c->nr = 0;
}

/* The debuglink candidate: the first of perf's three places that exists. */
static void candidates__add_debuglink(struct candidates *c, const char *path, const char *link)
{
	static const char *const fmts[] = { "%s/%s", "%s/.debug/%s", "/usr/lib/debug%s/%s" };
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX], buf[PATH_MAX];

	if (!slash || (size_t)(slash - path) >= sizeof(dir))
		return;
	memcpy(dir, path, slash - path);
	dir[slash - path] = '\0';
	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		snprintf(buf, sizeof(buf), fmts[i], dir, link);
		if (is_regular_file(buf)) {
			candidates__add(c, "%s", buf);
			return;
		}
	}
}

/* Reads the binary's build-id (when the dso has none yet) and debuglink name. */
static void dso__probe_binary(struct ember_dso *dso, const char *path, char *link, size_t size)
{
	struct symsrc ss;

	link[0] = '\0';
	if (!is_regular_file(path) || symsrc__open(&ss, path, NULL, 0))
		return;
	if (!dso->id.build_id_size) {
		uint8_t bid[BUILD_ID_MAX];
		int n = build_id__read_elf(ss.elf, bid, sizeof(bid));

		if (n > 0)
			dso__set_build_id(dso, bid, n);
	}
	if (elf__read_debuglink(ss.elf, link, size))
		link[0] = '\0';
	symsrc__close(&ss);
}

static void dso__candidates(struct ember_dso *dso, struct candidates *c)
{
	const struct sym_conf *conf = dso->conf;
	char path[PATH_MAX], link[NAME_MAX + 1], hex[BUILD_ID_HEX_MAX];
	bool have_bid;

	sym_conf__path(conf, path, sizeof(path), dso->name);
	dso__probe_binary(dso, path, link, sizeof(link));
	have_bid = dso->id.build_id_size > 0;
	if (have_bid)
		build_id__hex(dso->id.build_id, dso->id.build_id_size, hex);

	if (link[0])
		candidates__add_debuglink(c, path, link);
	if (have_bid && conf->buildid_dir[0]) {
		candidates__add(c, "%s/.build-id/%.2s/%s/elf", conf->buildid_dir, hex, hex + 2);
		candidates__add(c, "%s/.build-id/%.2s/%s/debug", conf->buildid_dir, hex, hex + 2);
	}
	candidates__add(c, "%s/usr/lib/debug%s.debug", conf->symfs, dso->name);
	candidates__add(c, "%s/usr/lib/debug%s", conf->symfs, dso->name);
	if (have_bid)
		candidates__add(c, "%s/usr/lib/debug/.build-id/%.2s/%s.debug", conf->symfs, hex,
				hex + 2);
	candidates__add(c, "%s", path);
}

int dso__load_elf(struct ember_dso *dso)
{
	struct symsrc ss[2], cand, *syms_ss = NULL, *runtime_ss = NULL;
	struct candidates c = { .nr = 0 };
	int ret = -ENOENT, nr_ss = 0;

	dso__candidates(dso, &c);
	for (int i = 0; i < c.nr && !(syms_ss && runtime_ss); i++) {
		bool used = false;
		int err;

		err = symsrc__open(&cand, c.path[i], dso->id.build_id,
				   dso->id.build_id_size);
		if (err) {
			if (err == -EILSEQ && ret == -ENOENT)
				ret = -EILSEQ;
			continue;
		}
		ss[nr_ss] = cand;
		if (!syms_ss && cand.symtab) {
			syms_ss = &ss[nr_ss];
			used = true;
		}
		if (!runtime_ss && cand.dynsym) {
			runtime_ss = &ss[nr_ss];
			used = true;
		}
		if (used)
			nr_ss++;
		else
			symsrc__close(&cand);
	}
	candidates__exit(&c);

	if (!syms_ss && !runtime_ss) {
		pr_debug("%s: no symbols found (%s)\n", dso->name, strerror(-ret));
		return ret;
	}
	if (!syms_ss)
		syms_ss = runtime_ss;
	if (!runtime_ss)
		runtime_ss = syms_ss;

	ret = symsrc__read_segments(runtime_ss, &dso->segs, &dso->nr_segs);
	if (!ret)
		ret = symsrc__load_symbols(&dso->symtab, syms_ss, runtime_ss, dso->segs,
					   dso->nr_segs, dso->conf->demangle,
					   dso->conf->allow_aliases);
	/* As perf: PLT names only when the tables gave some symbols. */
	if (ret > 0) {
		int nr_plt = symsrc__synthesize_plt(&dso->symtab, runtime_ss,
						    dso->conf->demangle);

		ret = nr_plt < 0 ? nr_plt : (int)dso->symtab.nr;
	}
	if (ret >= 0 && syms_ss->path)
		dso->symsrc_path = strdup(syms_ss->path);
	for (int i = 0; i < nr_ss; i++)
		symsrc__close(&ss[i]);
	return ret;
}
