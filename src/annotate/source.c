// SPDX-License-Identifier: GPL-2.0-only
/*
 * The lines perf annotate reads from `objdump -l -d -S` for one symbol,
 * made from the annotation model instead: the banner, the symbol's
 * label, the function name, a "file:line" marker wherever the source
 * line changes, the source text objdump -S shows there (up to five lines
 * of context the first time a file is seen, then the lines not yet
 * printed), and each instruction.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "annotate/annotate.h"
#include "core/array.h"

#define CONTEXT_LINES 5

struct source_file {
	char *path;
	char *text;		/* NULL: not readable */
	char **lines;		/* into text, 1-based: lines[1] is line 1 */
	unsigned int nr_lines;
};

struct annotate_sources {
	struct source_file *files;
	size_t nr, alloc;
	const char *prefix;
	int strip;
};

struct annotate_sources *annotate_sources__new(const char *prefix, int strip)
{
	struct annotate_sources *s = calloc(1, sizeof(struct annotate_sources));

	if (s) {
		s->prefix = prefix;
		s->strip = strip;
	}
	return s;
}

/* objdump's path with --prefix: the prefix, then path less strip directories; malloc'd */
static char *prefixed(const struct annotate_sources *s, const char *path)
{
	const char *p = path;
	char *out;
	int level = 0;

	if (!s->prefix || path[0] != '/')
		return strdup(path);
	for (const char *c = path + 1; *c && level < s->strip; c++) {
		if (*c == '/') {
			p = c;
			level++;
		}
	}
	if (asprintf(&out, "%s%s", s->prefix, p) < 0)
		return NULL;
	return out;
}

void annotate_sources__delete(struct annotate_sources *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr; i++) {
		free(s->files[i].path);
		free(s->files[i].text);
		free(s->files[i].lines);
	}
	free(s->files);
	free(s);
}

static void split_lines(struct source_file *f)
{
	size_t n = 1;

	for (char *p = f->text; *p; p++)
		n += *p == '\n';
	f->lines = calloc(n + 1, sizeof(*f->lines));
	if (!f->lines)
		return;
	for (char *p = f->text; *p;) {
		char *nl = strchr(p, '\n');

		f->lines[++f->nr_lines] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
}

static struct source_file *source_file(struct annotate_sources *s, const char *path)
{
	struct source_file *f;
	char *real;
	FILE *fp;
	long len;

	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->files[i].path, path))
			return &s->files[i];
	if (array__reserve((void **)&s->files, &s->alloc, s->nr, sizeof(*s->files)))
		return NULL;
	f = &s->files[s->nr];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	if (!f->path)
		return NULL;
	s->nr++;
	real = prefixed(s, path);
	fp = real ? fopen(real, "r") : NULL;
	free(real);
	if (!fp)
		return f;
	if (!fseek(fp, 0, SEEK_END) && (len = ftell(fp)) >= 0 && !fseek(fp, 0, SEEK_SET)) {
		f->text = malloc((size_t)len + 1);
		if (f->text && fread(f->text, 1, (size_t)len, fp) == (size_t)len) {
			f->text[len] = '\0';
			split_lines(f);
		} else {
			free(f->text);
			f->text = NULL;
		}
	}
	fclose(fp);
	return f;
}

static int add(struct annotate_lines *l, const char *text, long insn)
{
	if (array__reserve((void **)&l->lines, &l->alloc, l->nr, sizeof(*l->lines)))
		return -ENOMEM;
	l->lines[l->nr].text = text;
	l->lines[l->nr].insn = insn;
	l->nr++;
	return 0;
}

static int add_owned(struct annotate_lines *l, char *text, long insn)
{
	if (!text)
		return -ENOMEM;
	if (array__reserve((void **)&l->owned, &l->alloc_owned, l->nr_owned, sizeof(*l->owned))) {
		free(text);
		return -ENOMEM;
	}
	l->owned[l->nr_owned++] = text;
	return add(l, text, insn);
}

/* What objdump -S remembers of a file within one run. */
struct shown {
	const char *path;
	unsigned int max_printed, last_line;
};

/* objdump's show_line(): the source lines printed before an instruction of line `line`. */
static int show_source(struct annotate_lines *l, struct annotate_sources *srcs,
		       struct shown *sh, size_t *nr_shown, const char *path, unsigned int line)
{
	struct source_file *f = source_file(srcs, path);
	struct shown *p = NULL;
	unsigned int from;
	int err = 0;

	if (!f)
		return -ENOMEM;
	if (!f->lines)
		return 0;
	for (size_t i = 0; i < *nr_shown; i++)
		if (!strcmp(sh[i].path, path))
			p = &sh[i];
	if (!p) {
		p = &sh[(*nr_shown)++];
		p->path = path;
		p->max_printed = 0;
		p->last_line = 0;
	}
	if (line == p->last_line)
		return 0;
	from = line > CONTEXT_LINES ? line - CONTEXT_LINES : 1;
	if (p->max_printed >= from)
		from = p->max_printed < line ? p->max_printed + 1 : line;
	for (unsigned int n = from; n <= line && n <= f->nr_lines && !err; n++)
		err = add(l, f->lines[n], -1);
	if (p->max_printed < line)
		p->max_printed = line;
	p->last_line = line;
	return err;
}

int annotate_lines__build(struct annotate_lines *out, const struct ember_annotation *a,
			  const char *sym_name, bool source, bool asm_raw,
			  struct annotate_sources *srcs)
{
	size_t nr = ember_annotation__nr_insns(a), nr_shown = 0;
	const char *prev_file = NULL;
	unsigned int prev_line = 0, prev_disc = 0;
	struct shown *sh = calloc(nr + 1, sizeof(*sh));
	const char *prev_fn = "";
	char *s;
	int err;

	memset(out, 0, sizeof(*out));
	if (!sh)
		return -ENOMEM;
	/* objdump's banner: its first lines are empty or not shown by perf, then the section */
	err = add(out, "", -1);
	err = err ?: add(out, "", -1);
	err = err ?: add(out, "", -1);
	if (!err && asprintf(&s, "Disassembly of section %s:",
			     nr && ember_annotation__insn(a, 0)->section ?
				     ember_annotation__insn(a, 0)->section :
				     ".text") >= 0)
		err = add_owned(out, s, -1);
	else if (!err)
		err = -ENOMEM;
	err = err ?: add(out, "", -1);
	if (!err && asprintf(&s, "%016" PRIx64 " <%s>:", ember_annotation__addr(a),
				 ember_annotation__label(a) ?: sym_name) >= 0)
		err = add_owned(out, s, -1);
	else if (!err)
		err = -ENOMEM;
	for (size_t i = 0; i < nr && !err; i++) {
		const struct ember_annotation_insn *in = ember_annotation__insn(a, i);

		const char *fn = in->src_function ? in->src_function : prev_fn ? prev_fn : sym_name;

		if (in->section && i) {
			err = add(out, "", -1);
			err = err ?: asprintf(&s, "Disassembly of section %s:", in->section) < 0 ?
				      -ENOMEM :
				      add_owned(out, s, -1);
		}
		if (!err && in->label) {
			err = add(out, "", -1);
			err = err ?: asprintf(&s, "%016" PRIx64 " <%s>:", in->addr, in->label) < 0 ?
				      -ENOMEM :
				      add_owned(out, s, -1);
		}
		if (err)
			break;

		/* objdump -l without DWARF: the symbol table's function when it changes */
		if (!ember_annotation__has_dwarf(a) && in->src_function &&
		    strcmp(in->src_function, prev_fn)) {
			prev_fn = in->src_function;
			err = asprintf(&s, strchr(prev_fn, '(') ? "%s:" : "%s():", prev_fn) < 0 ?
				      -ENOMEM :
				      add_owned(out, s, -1);
		}
		/* objdump -l: the function when it changes, the marker when anything does */
		if (in->src_file &&
		    (!prev_file || strcmp(in->src_file, prev_file) || in->src_line != prev_line ||
		     in->src_discriminator != prev_disc || strcmp(fn, prev_fn))) {
			/* a demangled name with its parameters gets no "()" */
			if (strcmp(fn, prev_fn))
				err = asprintf(&s, strchr(fn, '(') ? "%s:" : "%s():", fn) < 0 ?
					      -ENOMEM :
					      add_owned(out, s, -1);
			prev_fn = fn;
			if (!err && in->src_discriminator)
				err = asprintf(&s, "%s:%u (discriminator %u)", in->src_file,
					       in->src_line, in->src_discriminator) < 0 ?
					      -ENOMEM :
					      add_owned(out, s, -1);
			else if (!err)
				err = asprintf(&s, "%s:%u", in->src_file, in->src_line) < 0 ?
					      -ENOMEM :
					      add_owned(out, s, -1);
			if (!err && source && in->src_line)
				err = show_source(out, srcs, sh, &nr_shown, in->src_file, in->src_line);
			prev_file = in->src_file;
			prev_line = in->src_line;
			prev_disc = in->src_discriminator;
		}
		if (err)
			break;
		if (asm_raw) {
			char raw[64] = "";
			size_t len = 0;

			for (uint32_t b = 0; b < in->size && len + 4 < sizeof(raw); b++)
				len += (size_t)snprintf(raw + len, sizeof(raw) - len, "%02x ",
							in->bytes[b]);
			err = asprintf(&s, "%-21s\t%s", raw, in->text) < 0 ? -ENOMEM :
									   add_owned(out, s, (long)i);
		} else {
			err = add(out, in->text, (long)i);
		}
	}
	free(sh);
	if (err)
		annotate_lines__exit(out);
	return err;
}

void annotate_lines__exit(struct annotate_lines *l)
{
	for (size_t i = 0; i < l->nr_owned; i++)
		free(l->owned[i]);
	free(l->owned);
	free(l->lines);
	memset(l, 0, sizeof(*l));
}
