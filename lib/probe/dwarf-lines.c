// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perf probe -L's lines: a function's or a source file's range, and which
 * of its lines are probe-able (a statement row, a declaration at its
 * function's entry or the call of an inlined copy, at an address no
 * other line's place names first), found in DWARF by perf 6.1's rules.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ember/probe.h>
#include "probe/dwarf-file.h"
#include "probe/dwarf-walk.h"
#include "probe/probe-priv.h"

struct line_finder {
	struct ember_probe_lines *lr;
	const char *function, *file;
	int start, end;		/* as given: relative to the function, or absolute */
	Dwarf_Die cu;
	const char *fname;
	int lno_s, lno_e;
	const char *first_file;	/* the file of the first line found */
	bool matched;		/* the function was found (lr's range set, absolute) */
	bool found;
	int ret;
};

/* A line number in spec at *s; perf's semantic error when there is none. */
static int line_num(const char **s, int *v, const char *what, struct probe_sbuf *msg)
{
	char *end;

	*v = (int)strtol(*s, &end, 0);
	if (end == *s) {
		probe_sbuf__add(msg, "Semantic error :'%s' is not a valid number.\n", what);
		return -EINVAL;
	}
	*s = end;
	return 0;
}

static bool is_c_func_name(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return false;
	while (*++s)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.')
			return false;
	return true;
}

/* perf's LINE RANGE syntax into f (its strings in buf, which spec is copied to). */
static int parse_range(struct line_finder *f, char *buf, struct probe_sbuf *msg)
{
	char *range = strchr(buf, ':'), *at;
	const char *s;
	int err;

	f->start = 0;
	f->end = INT_MAX;
	if (range) {
		*range++ = '\0';
		s = range;
		err = line_num(&s, &f->start, "start line", msg);
		if (err)
			return err;
		if (*s == '+' || *s == '-') {
			char c = *s++;

			err = line_num(&s, &f->end, "end line", msg);
			if (err)
				return err;
			/* +NUM is NUM lines from the start, itself included */
			if (c == '+')
				f->end += f->start - 1;
		}
		if (f->start > f->end) {
			probe_sbuf__add(msg, "Semantic error :Start line must be smaller than end line.\n");
			return -EINVAL;
		}
		if (*s) {
			probe_sbuf__add(msg, "Semantic error :Tailing with invalid str '%s'.\n", s);
			return -EINVAL;
		}
	}
	at = strchr(buf, '@');
	if (at) {
		*at = '\0';
		f->file = at + 1;
		f->function = buf;
	} else if (strchr(buf, '/') || strchr(buf, '.')) {
		f->file = buf;
	} else if (is_c_func_name(buf)) {
		f->function = buf;
	} else {
		probe_sbuf__add(msg, "Semantic error :'%s' is not a valid function name.\n", buf);
		return -EINVAL;
	}
	return 0;
}

static int add_line(struct line_finder *f, const char *file, int line)
{
	struct ember_probe_lines *lr = f->lr;
	size_t i = 0;
	int *p;

	if (!f->first_file)
		f->first_file = file;
	while (i < lr->nr_lines && lr->lines[i] < line)
		i++;
	if (i < lr->nr_lines && lr->lines[i] == line)
		return 0;
	p = realloc(lr->lines, (lr->nr_lines + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	memmove(p + i + 1, p + i, (lr->nr_lines - i) * sizeof(*p));
	p[i] = line;
	lr->lines = p;
	lr->nr_lines++;
	return 0;
}

static int range_walker(const char *file, int line, Dwarf_Addr addr, void *arg)
{
	struct line_finder *f = arg;
	const char *rfile = NULL;
	int rline;

	if (!file || !f->fname || !probe_dw__tail_eq(file, f->fname) || line < f->lno_s ||
	    line > f->lno_e)
		return 0;
	/* a line is shown probe-able only where the address names it back */
	if (probe_dw__lineinfo(&f->cu, addr, &rfile, &rline) > 0 &&
	    (line != rline || !rfile || strcmp(file, rfile)))
		return 0;
	return add_line(f, file, line);
}

static int by_line(struct line_finder *f, Dwarf_Die *root)
{
	int ret = probe_dw__walk_lines(root ? root : &f->cu, range_walker, f);

	if (ret < 0)
		return ret;
	f->found = f->lr->nr_lines > 0;
	return f->found;
}

static int inline_cb(Dwarf_Die *in, void *arg)
{
	int ret = by_line(arg, in);

	/* every copy: each may keep lines others lost */
	return ret < 0 ? ret : 0;
}

static int clamp_add(int a, int b)
{
	long long v = (long long)a + b;

	return v > INT_MAX || v < 0 ? INT_MAX : (int)v;
}

static int range_search_cb(Dwarf_Die *die, void *arg)
{
	struct line_finder *f = arg;
	Dwarf_Die sp = *die;
	const char *decl = dwarf_decl_file(&sp);

	if (f->file && (!decl || !probe_dw__tail_eq(f->file, decl)))
		return DWARF_CB_OK;
	if (!probe_dw__match_name(&sp, f->function) || !probe_dw__is_func_def(&sp))
		return DWARF_CB_OK;
	f->fname = decl;
	f->matched = true;
	dwarf_decl_line(&sp, &f->lr->offset);
	f->lno_s = clamp_add(f->lr->offset, f->start);
	f->lno_e = clamp_add(f->lr->offset, f->end);
	f->lr->start = f->lno_s;
	f->lr->end = f->lno_e;
	if (probe_dw__is_func_instance(&sp))
		f->ret = by_line(f, &sp);
	else
		f->ret = probe_dw__walk_instances(&sp, inline_cb, f);
	return DWARF_CB_ABORT;
}

/* The units' lines of f's range: 1 found (with the source's path), 0 none, -errno. */
static int find_range(struct line_finder *f, Dwarf *dw, const char *prefix, struct probe_sbuf *msg)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	int ret = 0;

	/* perf's fast path: the function .debug_pubnames names, in its unit */
	if (f->function) {
		Dwarf_Die sp;

		f->ret = 0;
		if (probe_dw__pubname(dw, f->function, f->file, &sp, &f->cu))
			range_search_cb(&sp, f);
	}
	while (!f->found && ret >= 0 &&
	       dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (dwarf_offdie(dw, off + hsize, &f->cu)) {
			f->fname = f->file ? probe_dw__cu_file(&f->cu, f->file) : NULL;
			if (!f->file || f->fname) {
				if (f->function) {
					f->ret = 0;
					dwarf_getfuncs(&f->cu, range_search_cb, f, 0);
					ret = f->ret;
				} else {
					f->lno_s = f->start;
					f->lno_e = f->end;
					ret = by_line(f, NULL);
				}
			}
		}
		off = next;
	}
	if (ret < 0)
		return ret;
	if (!f->found)
		return 0;
	ret = probe_dw__source_path(&f->cu, f->first_file, prefix, &f->lr->path);
	if (ret) {
		probe_sbuf__add(msg, "Failed to find source file path.\n");
		return ret;
	}
	return 1;
}

int ember_probe__lines(const char *path, const char *spec,
		       const struct ember_probe_dwarf_opts *opts, struct ember_probe_lines *lr,
		       char *msg, size_t msgsz)
{
	struct probe_sbuf b = { .buf = msg, .size = msgsz };
	struct line_finder f = { .lr = lr };
	struct probe_dw_point pt;
	struct ember_probe_dwarf *d;
	const char *prefix = opts ? opts->source_prefix : NULL;
	char *buf = strdup(spec);
	uint64_t addr = 0;
	int ret;

	memset(lr, 0, sizeof(*lr));
	if (msgsz)
		msg[0] = '\0';
	if (!buf)
		return -ENOMEM;
	ret = parse_range(&f, buf, &b);
	if (!ret)
		ret = probe_dwarf__open(&d, path);
	if (ret) {
		free(buf);
		return ret;
	}
	ret = find_range(&f, d->dw, prefix, &b);
	if (!ret) {
		/*
		 * perf retries a function at the place DWARF gives its symbol, the
		 * range's start added: absolute when the function was found, so a
		 * range of it without lines is not found again (perf's).
		 */
		int start = f.matched ? lr->start : f.start, end = f.matched ? lr->end : f.end;
		int len = end != INT_MAX ? end - start : 0;

		if (!f.function || f.file)
			ret = -EOPNOTSUPP;
		else if (probe__symbol_start(path, f.function, &addr))
			ret = -ENOENT;
		else if ((ret = probe_dw__find_point(d->dw, addr, &pt)) <= 0) {
			if (ret == -ENOENT)
				probe_sbuf__add(&b, "Failed to find debug information for address %llx\n",
						(unsigned long long)addr);
			ret = -EOPNOTSUPP;
		} else {
			ret = 0;
		}
		if (!ret) {
			f.function = pt.function;
			f.file = pt.file;
			f.start = clamp_add(pt.line, start);
			f.end = end != INT_MAX ? clamp_add(f.start, len) : INT_MAX;
			ret = find_range(&f, d->dw, prefix, &b);
			if (!ret)
				ret = -ENOENT;
		}
		if (ret == -ENOENT)
			probe_sbuf__add(&b, "Specified source line is not found.\n");
		else if (ret == -EOPNOTSUPP)
			probe_sbuf__add(&b, "Debuginfo analysis failed.\n");
	}
	if (ret > 0) {
		ret = 0;
		if (f.function && !(lr->function = strdup(f.function)))
			ret = -ENOMEM;
		if (!f.function) {
			lr->start = f.start;
			lr->end = f.end;
		}
	}
	ember_probe_dwarf__delete(d);
	free(buf);
	if (ret)
		ember_probe_lines__exit(lr);
	return ret;
}

void ember_probe_lines__exit(struct ember_probe_lines *lr)
{
	free(lr->function);
	free(lr->path);
	free(lr->lines);
	memset(lr, 0, sizeof(*lr));
}
