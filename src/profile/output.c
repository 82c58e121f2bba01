// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember profile's outputs: folded stacks (what `ember flamegraph --folded`
 * writes), the SVG (what `ember flamegraph` draws of those stacks: the same
 * tree, the same default drawing), or the hottest stacks as text.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/atomic-file.h"
#include "profile/profile.h"

enum profile_format profile_output__format(const char *path)
{
	size_t n = strlen(path);

	if (n > 4 && !strcmp(path + n - 4, ".svg"))
		return PROFILE_SVG;
	if (n > 4 && !strcmp(path + n - 4, ".txt"))
		return PROFILE_TEXT;
	return PROFILE_FOLDED;
}

/* The tree's folded text in memory, *buf (the caller frees it) of *size bytes. 0 or -errno. */
static int folded_text(struct ember_flame *fl, char **buf, size_t *size)
{
	FILE *mem = open_memstream(buf, size);
	int err;

	if (!mem)
		return -errno;
	err = ember_flame__write_folded(fl, mem, 0);
	if (fclose(mem) && !err)
		err = -errno;
	return err;
}

struct text_line {
	char *stack;
	double count;
};

static int by_count(const void *a, const void *b)
{
	const struct text_line *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->stack, y->stack);
}

/*
 * The stacks hottest first, as perf report --children=no --stdio -g none
 * would list them if a stack were a symbol: percent, samples, the stack
 * leaf first. Built from the folded text the tree writes.
 */
static int write_text(struct ember_flame *fl, FILE *out)
{
	struct text_line *lines = NULL;
	size_t nr = 0, alloc = 0, size = 0;
	char *buf = NULL, *line, *save = NULL;
	double total = ember_flame__total(fl);
	int err = folded_text(fl, &buf, &size);

	for (line = err ? NULL : strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *sp = strrchr(line, ' ');

		if (!sp)
			continue;
		if (nr == alloc) {
			struct text_line *grown;

			alloc = alloc ? alloc * 2 : 256;
			grown = realloc(lines, alloc * sizeof(*lines));
			if (!grown) {
				err = -ENOMEM;
				break;
			}
			lines = grown;
		}
		*sp = '\0';
		lines[nr++] = (struct text_line){ line, strtod(sp + 1, NULL) };
	}
	if (!err) {
		if (nr)
			qsort(lines, nr, sizeof(*lines), by_count);
		fprintf(out, "# Samples: %.0f\n#\n# Overhead   Samples  Stack (leaf first)\n#\n", total);
		for (size_t i = 0; i < nr; i++) {
			char *f = strrchr(lines[i].stack, ';');

			fprintf(out, "%9.2f%% %9.0f  ", total ? 100.0 * lines[i].count / total : 0,
				lines[i].count);
			/* leaf first, then each caller, the comm last */
			while (f) {
				fprintf(out, "%s <- ", f + 1);
				*f = '\0';
				f = strrchr(lines[i].stack, ';');
			}
			fprintf(out, "%s\n", lines[i].stack);
		}
		if (ferror(out))
			err = -EIO;
	}
	free(lines);
	free(buf);
	return err;
}

/*
 * The SVG `ember flamegraph` draws of the folded output: the stacks read
 * back in the folded text's (sorted) order, which orders the siblings.
 */
static int write_svg(struct ember_flame *fl, FILE *out)
{
	struct ember_flame_opts fo = { .sz = sizeof(fo) };
	struct ember_flame_folded_opts ro = { .sz = sizeof(ro) };
	struct ember_flame_svg_opts so = { .sz = sizeof(so), .minwidth = -1 };
	struct ember_flame_folded_stats st;
	struct ember_flame *sorted = NULL;
	size_t size = 0;
	char *buf = NULL;
	FILE *mem = NULL;
	int err = folded_text(fl, &buf, &size);

	if (!err) {
		sorted = ember_flame__new(&fo);
		mem = sorted && size ? fmemopen(buf, size, "r") : NULL;
		err = !sorted ? -ENOMEM : !size ? -ENODATA : !mem ? -errno : 0;
	}
	if (!err)
		err = ember_flame__read_folded(sorted, mem, &ro, &st);
	if (mem)
		fclose(mem);
	if (!err)
		err = ember_flame__write_svg(sorted, out, &so, NULL);
	ember_flame__delete(sorted);
	free(buf);
	return err;
}

static int write_format(struct ember_flame *fl, FILE *fp, enum profile_format format)
{
	switch (format) {
	case PROFILE_SVG:
		return write_svg(fl, fp);
	case PROFILE_TEXT:
		return write_text(fl, fp);
	default:
		return ember_flame__write_folded(fl, fp, 0);
	}
}

int profile_output__write(struct ember_flame *fl, const char *path, unsigned int seq)
{
	enum profile_format format = profile_output__format(path);
	struct atomic_file file;
	char *name = NULL;
	int err;

	if (!strcmp(path, "-")) {
		err = write_format(fl, stdout, format);
		if (!err && fflush(stdout))
			err = -errno;
		if (err) {
			fprintf(stderr, "ember profile: cannot write to stdout: %s\n", strerror(-err));
			return 1;
		}
		return 0;
	}
	if (seq && asprintf(&name, "%s.%u", path, seq) < 0)
		name = NULL;
	if (seq && !name) {
		fprintf(stderr, "ember profile: out of memory\n");
		return 1;
	}
	err = atomic_file__open(&file, name ? name : path, 0666);
	if (!err) {
		err = write_format(fl, file.fp, format);
		if (err)
			atomic_file__abort(&file);
		else
			err = atomic_file__commit(&file);
	}
	if (err)
		fprintf(stderr, "ember profile: cannot write %s: %s\n", name ? name : path,
			err == -ENODATA ? "no samples to draw" : strerror(-err));
	free(name);
	return err ? 1 : 0;
}
