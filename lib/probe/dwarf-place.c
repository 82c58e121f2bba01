// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A definition's places in a user binary through its DWARF, as perf probe
 * 6.1 finds them when the binary has debug information: functions by
 * name or glob in DWARF's order (every inlined copy too), their entries
 * (past the prologue for variables of a binary built without
 * optimization), +OFF from there, lines relative to a function or of a
 * source file (refused when a line only shares another line's address),
 * lazy patterns over the source's lines, and the address named back as
 * perf -l names it. Places are file offsets (an address less .text's
 * distance from its offset, as perf computes them).
 */
#include <ctype.h>
#include <dwarf.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ember/probe.h>
#include "probe/dwarf-file.h"
#include "probe/dwarf-walk.h"
#include "probe/probe-priv.h"

/* The point searched (the definition's, or the one perf retries with) and what was found. */
struct finder {
	const char *function, *file, *lazy;
	int line;
	uint64_t offset;
	bool skip_prologue;	/* arguments by name: past the prologue when not optimized */
	bool no_inlines;
	bool kernel;		/* the retry's symbol at its address (a vmlinux), not its offset */
	const char *source_prefix;
	Dwarf_Die cu;
	const char *fname;	/* the source file lines are matched against */
	int lno;
	Dwarf_Addr addr;
	Dwarf_Die tail;		/* a function whose end is f->addr (a tail call's) */
	int *lazy_lines;	/* the lines the lazy pattern matches, ascending */
	size_t nr_lazy;
	const struct ember_probe_def *def;
	const char *path;
	struct ember_probe_trace *out;
	size_t max, nr;
	struct probe_sbuf *msg;
	int ret;
};

static bool is_glob(const char *s)
{
	return s && strpbrk(s, "*?[") != NULL;
}

/* perf's character class "[...]" at pat (past '['), for c; *next past its ']'. */
static bool match_class(const char *pat, char c, const char **next)
{
	bool not = false, hit = true;

	if (*pat == '!') {
		not = true;
		pat++;
	}
	if (*pat++ != c) {
		hit = false;
		for (; *pat && *pat != ']'; pat++) {
			if (*pat == '-' && pat[1] != ']') {
				if (pat[-1] <= c && c <= pat[1]) {
					hit = true;
					break;
				}
				if (pat[-1] > pat[1])
					return false;
				pat++;
			} else if (*pat == c) {
				hit = true;
				break;
			}
		}
	}
	while (*pat && *pat != ']')
		pat++;
	if (!*pat)
		return false;
	*next = pat + 1;
	return not ? !hit : hit;
}

/* perf's lazy match of a source line: a glob over it with blanks on either side ignored. */
static bool lazy_match(const char *str, const char *pat)
{
	while (*str && *pat && *pat != '*') {
		if (isspace((unsigned char)*str)) {
			str++;
			continue;
		}
		if (isspace((unsigned char)*pat)) {
			pat++;
			continue;
		}
		if (*pat == '?') {
			str++;
			pat++;
			continue;
		}
		if (*pat == '[') {
			if (!match_class(pat + 1, *str, &pat))
				return false;
			str++;
			continue;
		}
		if (*pat == '\\')
			pat++;
		if (*str != *pat)
			return false;
		str++;
		pat++;
	}
	if (*pat == '*') {
		while (*pat == '*')
			pat++;
		if (!*pat)
			return true;
		while (*str)
			if (lazy_match(str++, pat))
				return true;
	}
	return !*str && !*pat;
}

static int tailfunc_cb(Dwarf_Die *fn, void *arg)
{
	struct finder *f = arg;
	Dwarf_Addr high;

	if (dwarf_tag(fn) == DW_TAG_subprogram && !dwarf_highpc(fn, &high) && high == f->addr) {
		f->tail = *fn;
		return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
}

/* One place at f->addr, in scope sc (the function or inlined copy the probe is in). */
static int add_place(struct finder *f, Dwarf_Die *sc, Dwarf_Die *sp)
{
	struct ember_probe_trace *t;
	const char *name = dwarf_diename(sc);

	/* rows of two columns of one address come twice */
	for (size_t i = 0; i < f->nr; i++)
		if (f->out[i].offset == f->addr)
			return 0;
	if (f->nr == f->max) {
		probe_sbuf__add(f->msg, "Too many( > %zu) probe point found.\n", f->max);
		return -ERANGE;
	}
	if (!dwarf_haspc(sp, f->addr)) {
		probe_sbuf__add(f->msg, "Specified offset is out of %s\n", dwarf_diename(sp));
		return -EINVAL;
	}
	t = &f->out[f->nr++];
	memset(t, 0, sizeof(*t));
	t->uprobe = true;
	t->target = f->path;
	t->offset = f->addr;	/* an address until all are found */
	if (name && strlen(name) < sizeof(t->event))
		strcpy(t->event, name);
	probe_trace__set_args(t, f->def);
	return 0;
}

static int call_finder(struct finder *f, Dwarf_Die *sc)
{
	Dwarf_Die sp;

	if (probe_dw__is_func_def(sc)) {
		sp = *sc;
	} else if (!probe_dw__realfunc(&f->cu, f->addr, &sp)) {
		if (dwarf_getfuncs(&f->cu, tailfunc_cb, f, 0) > 0) {
			probe_sbuf__add(f->msg, "Ignoring tail call from %s\n", dwarf_diename(&f->tail));
			return 0;
		}
		probe_sbuf__add(f->msg, "Failed to find probe point in any functions.\n");
		return -ENOENT;
	}
	return add_place(f, sc, &sp);
}

/*
 * The scope perf gives a line's place: among the function and the copies
 * inlined at the address (outermost first) declared in the line's file,
 * the one named (FUNC:RLN), else the nearest declared before the line;
 * failing both, the function.
 */
static Dwarf_Die *best_scope(struct finder *f, Dwarf_Die *out)
{
	Dwarf_Die sc, first, in;
	int diff = INT_MAX;
	bool found = false;

	if (!probe_dw__realfunc(&f->cu, f->addr, &sc))
		return NULL;
	first = sc;
	for (;;) {
		const char *file = f->fname ? dwarf_decl_file(&sc) : NULL;
		int lno = 0;

		if (!f->fname || (file && !strcmp(f->fname, file))) {
			if (f->function) {
				if (probe_dw__match_name(&sc, f->function)) {
					*out = sc;
					return out;
				}
			} else {
				dwarf_decl_line(&sc, &lno);
				if (lno < f->lno && diff > f->lno - lno) {
					diff = f->lno - lno;
					*out = sc;
					found = true;
				}
			}
		}
		if (!probe_dw__inline_at(&sc, f->addr, false, &in))
			break;
		sc = in;
	}
	if (!found)
		*out = first;
	return out;
}

/* A line whose address is another line's (a function's entry, mostly) is refused. */
static int verify_line(struct finder *f, const char *file, int line, Dwarf_Addr addr)
{
	const char *rfile = NULL, *func = NULL;
	int rline, decl;
	Dwarf_Die sc;

	if (probe_dw__lineinfo(&f->cu, addr, &rfile, &rline) < 0)
		return 0;
	if (!rfile || strcmp(file, rfile) || line == rline)
		return 0;
	probe_sbuf__add(f->msg, "This line is sharing the address with other lines.\n");
	if (f->function) {
		f->addr = addr;
		if (best_scope(f, &sc) && probe_dw__match_name(&sc, f->function) &&
		    dwarf_decl_line(&sc, &decl) == 0) {
			func = dwarf_diename(&sc);
			rline -= decl;
		}
	}
	probe_sbuf__add(f->msg, "Please try to probe at %s:%d instead.\n", func ? func : rfile, rline);
	return -ENOENT;
}

static int line_walker(const char *file, int line, Dwarf_Addr addr, void *arg)
{
	struct finder *f = arg;
	Dwarf_Die sc;
	int ret;

	if (line != f->lno || !file || !f->fname || !probe_dw__tail_eq(file, f->fname))
		return 0;
	if (verify_line(f, file, line, addr))
		return -ENOENT;
	f->addr = addr;
	if (!best_scope(f, &sc)) {
		probe_sbuf__add(f->msg, "Failed to find scope of probe point.\n");
		return -ENOENT;
	}
	ret = call_finder(f, &sc);
	return ret < 0 ? ret : 0;
}

static bool lazy_has(const struct finder *f, int line)
{
	for (size_t i = 0; i < f->nr_lazy; i++)
		if (f->lazy_lines[i] == line)
			return true;
	return false;
}

static int lazy_walker(const char *file, int line, Dwarf_Addr addr, void *arg)
{
	struct finder *f = arg;
	Dwarf_Die sc;
	int ret;

	if (!lazy_has(f, line) || !file || !f->fname || !probe_dw__tail_eq(file, f->fname))
		return 0;
	f->addr = addr;
	f->lno = line;
	if (!best_scope(f, &sc)) {
		probe_sbuf__add(f->msg, "Failed to find scope of probe point.\n");
		return -ENOENT;
	}
	ret = call_finder(f, &sc);
	return ret < 0 ? ret : 0;
}

/* The lines of the source file the pattern matches; their number, or -errno. */
static int lazy_read(struct finder *f, const char *path)
{
	FILE *fp = fopen(path, "r");
	char *text = NULL;
	size_t cap = 0;
	ssize_t len;
	int n = 1, err = 0;

	if (!fp) {
		err = -errno;
		probe_sbuf__add(f->msg, "Failed to open %s: %s\n", path, strerror(errno));
		return err;
	}
	while ((len = getline(&text, &cap, fp)) > 0) {
		if (text[len - 1] == '\n')
			text[len - 1] = '\0';
		if (lazy_match(text, f->lazy)) {
			int *p = realloc(f->lazy_lines, (f->nr_lazy + 1) * sizeof(*p));

			if (!p) {
				err = -ENOMEM;
				break;
			}
			f->lazy_lines = p;
			p[f->nr_lazy++] = n;
		}
		n++;
	}
	if (!err && ferror(fp))
		err = -EIO;
	free(text);
	fclose(fp);
	return err ? err : (int)f->nr_lazy;
}

static int find_lazy(struct finder *f, Dwarf_Die *root)
{
	if (!f->nr_lazy) {
		char *path = NULL;
		int err = f->fname ? probe_dw__source_path(&f->cu, f->fname, f->source_prefix, &path) :
				     -ENOENT;

		if (err) {
			probe_sbuf__add(f->msg, "Failed to find source file path.\n");
			return err;
		}
		err = lazy_read(f, path);
		free(path);
		if (err <= 0)
			return err;
	}
	return probe_dw__walk_lines(root, lazy_walker, f);
}

static int inline_cb(Dwarf_Die *in, void *arg)
{
	struct finder *f = arg;
	Dwarf_Addr addr;

	if (f->lazy)
		return find_lazy(f, in);
	if (probe_dw__entrypc(in, &addr) || !addr)
		return -ENOENT;
	f->addr = addr + f->offset;
	return call_finder(f, in);
}

static int search_cb(Dwarf_Die *die, void *arg)
{
	struct finder *f = arg;
	Dwarf_Die sp = *die;
	const char *decl;

	if (!probe_dw__is_func_def(&sp) || !probe_dw__match_name(&sp, f->function))
		return DWARF_CB_OK;
	decl = dwarf_decl_file(&sp);
	if (f->file && (!decl || !probe_dw__tail_eq(f->file, decl)))
		return DWARF_CB_OK;
	f->fname = decl;
	if (f->line) {
		/* relative to the declaration, over the whole unit (inlined copies too) */
		dwarf_decl_line(&sp, &f->lno);
		f->lno += f->line;
		f->ret = probe_dw__walk_lines(&f->cu, line_walker, f);
	} else if (probe_dw__is_func_instance(&sp)) {
		f->addr = 0;
		probe_dw__entrypc(&sp, &f->addr);
		if (!f->addr) {
			f->ret = 0;
		} else if (f->lazy) {
			f->ret = find_lazy(f, &sp);
		} else {
			if (f->skip_prologue && !f->offset && !probe_dw__optimized(&f->cu)) {
				probe_sbuf__add(f->msg,
						"Target program is compiled without optimization. Skipping prologue.\n"
						"Probe on address 0x%llx to force probing at the function entry.\n\n",
						(unsigned long long)f->addr);
				probe_dw__skip_prologue(&sp, &f->cu, &f->addr);
			}
			f->addr += f->offset;
			f->ret = call_finder(f, &sp);
		}
	} else if (!f->no_inlines) {
		/* an inline function: each of its copies */
		f->ret = probe_dw__walk_instances(&sp, inline_cb, f);
		if (f->ret == -ENOENT)
			f->ret = 0;
	}
	if (is_glob(f->function) && f->ret >= 0) {
		f->ret = 0;
		return DWARF_CB_OK;
	}
	return DWARF_CB_ABORT;
}

/* Every unit's places of f's point. 0, or -errno with f->msg saying why. */
static int find_places(struct finder *f, Dwarf *dw)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	int ret = 0;

	/*
	 * perf's fast path: a function .debug_pubnames names is searched in its
	 * unit alone (one place where units define more than one of the name).
	 */
	if (f->function && !is_glob(f->function)) {
		Dwarf_Die sp;

		f->fname = NULL;
		f->ret = 0;
		if (probe_dw__pubname(dw, f->function, f->file, &sp, &f->cu) &&
		    search_cb(&sp, f) == DWARF_CB_ABORT)
			return f->ret < 0 ? f->ret : 0;
	}
	for (; dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0; off = next) {
		if (!dwarf_offdie(dw, off + hsize, &f->cu))
			continue;
		f->fname = NULL;
		if (f->file) {
			f->fname = probe_dw__cu_file(&f->cu, f->file);
			if (!f->fname)
				continue;
		}
		if (f->function) {
			f->ret = 0;
			dwarf_getfuncs(&f->cu, search_cb, f, 0);
			ret = f->ret;
		} else if (f->lazy) {
			ret = find_lazy(f, &f->cu);
		} else {
			f->lno = f->line;
			ret = probe_dw__walk_lines(&f->cu, line_walker, f);
		}
		if (ret < 0)
			break;
	}
	return ret < 0 ? ret : 0;
}

/*
 * Nothing found for a function: perf retries with the place DWARF gives
 * the function's symbol (named, file, line and offset added; not the
 * lazy pattern). 0 when there is a point to retry, else -errno. perf
 * looks a uprobe's symbol up in DWARF at its file offset (finding
 * nothing where .text's addresses and offsets part), the kernel's at its
 * address.
 */
static int alternative(struct finder *f, const struct ember_probe_dwarf *d,
		       struct probe_dw_point *pt)
{
	uint64_t addr;
	int ret;

	if (!f->def->function || f->def->file || probe__symbol_start(f->path, f->def->function, &addr))
		return -ENOENT;
	if (f->kernel)
		addr += d->text_delta;
	ret = probe_dw__find_point(d->dw, addr, pt);
	if (ret == -ENOENT)
		probe_sbuf__add(f->msg, "Failed to find debug information for address %llx\n",
				(unsigned long long)addr);
	if (ret <= 0)
		return -ENOENT;
	f->function = pt->function;
	f->file = pt->file;
	f->line = pt->line + (int)f->def->line;
	f->offset = pt->offset + f->def->offset;
	f->lazy = NULL;
	return 0;
}

int ember_probe__resolve_dwarf(const struct ember_probe_def *def, const char *path,
			       const struct ember_probe_dwarf_opts *opts,
			       struct ember_probe_trace *out, size_t max, char *msg, size_t msgsz)
{
	struct probe_sbuf b = { .buf = msg, .size = msgsz };
	struct finder f = {
		.function = def->function, .file = def->file, .lazy = def->lazy,
		.line = (int)def->line, .offset = def->offset, .def = def, .path = path,
		.out = out, .max = max, .msg = &b,
	};
	struct probe_dw_point pt;
	struct ember_probe_dwarf *d;
	int ret;

	if (msgsz)
		msg[0] = '\0';
	/* perf 6.1 puts return probes by the symbol table (gcc bug 98776), and addresses */
	if (def->retprobe || def->abs)
		return -ENODATA;
	ret = probe_dwarf__open(&d, path);
	if (ret)
		return ret;
	/* perf skips the prologue for a function whose arguments name variables */
	f.skip_prologue = def->function && !def->line && !def->lazy &&
			  ember_probe_def__needs_dwarf_args(def);
	if (opts) {
		f.no_inlines = opts->no_inlines;
		f.source_prefix = opts->source_prefix;
		f.kernel = opts->sz >= offsetof(struct ember_probe_dwarf_opts, kernel) + sizeof(bool) &&
			   opts->kernel;
	}
	ret = find_places(&f, d->dw);
	/*
	 * With arguments, perf's search that found nothing is an error
	 * (-ENOENT, told by no word): no retry, the symbol table next unless
	 * the definition needs DWARF.
	 */
	if (!ret && !f.nr && def->nr_args)
		ret = -ENOENT;
	if (!ret && !f.nr && !alternative(&f, d, &pt)) {
		free(f.lazy_lines);
		f.lazy_lines = NULL;
		f.nr_lazy = 0;
		ret = find_places(&f, d->dw);
	}
	if (!ret && !f.nr) {
		char point[1024];

		ember_probe_def__point(def, point, sizeof(point));
		probe_sbuf__add(&b, "Probe point '%s' not found.\n", point);
		ret = -ENODEV;
	}
	for (size_t i = 0; !ret && i < f.nr; i++)
		out[i].offset -= d->text_delta;
	free(f.lazy_lines);
	ember_probe_dwarf__delete(d);
	return ret ? ret : (int)f.nr;
}

int ember_probe__dwarf_point(const char *path, uint64_t offset, struct ember_probe_point *pt,
			     char *msg, size_t msgsz)
{
	struct probe_dw_point p;
	struct ember_probe_dwarf *d;
	int ret;

	memset(pt, 0, sizeof(*pt));
	if (msgsz)
		msg[0] = '\0';
	/* perf names no place at offset 0 from DWARF */
	if (!offset)
		return -EINVAL;
	ret = probe_dwarf__open(&d, path);
	if (ret)
		return ret;
	/* the offset made an address again, through .text as perf does */
	ret = probe_dw__find_point(d->dw, offset + d->text_delta, &p);
	if (ret == -ENOENT)
		snprintf(msg, msgsz, "Failed to find debug information for address %llx\n",
			 (unsigned long long)(offset + d->text_delta));
	if (ret > 0) {
		snprintf(pt->function, sizeof(pt->function), "%s", p.function ? p.function : "");
		snprintf(pt->file, sizeof(pt->file), "%s", p.file ? p.file : "");
		pt->line = p.line;
		pt->has_line = p.has_line;
		pt->offset = p.offset;
		pt->has_offset = p.has_offset;
	}
	ember_probe_dwarf__delete(d);
	return ret < 0 ? ret : ret > 0 ? 1 : -ENOENT;
}
