// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * flamegraph.pl --nameattr files: "name<TAB>key=value<TAB>key=value..."
 * per line. A later line for the same name replaces the earlier one, as
 * the script's hash assignment does; a pair without '=' gets an empty
 * value. Lookups go through a sorted array, one bsearch per frame drawn.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ember/flame.h>

struct na_pair {
	char *key, *value;
};

struct na_entry {
	char *name;
	struct na_pair *pairs;
	size_t nr_pairs;
	size_t line;		/* for "the later line wins" after sorting */
};

struct ember_flame_nameattr {
	struct na_entry *v;
	size_t nr;
};

static void entry_free(struct na_entry *e)
{
	for (size_t i = 0; i < e->nr_pairs; i++) {
		free(e->pairs[i].key);
		free(e->pairs[i].value);
	}
	free(e->pairs);
	free(e->name);
}

void ember_flame_nameattr__delete(struct ember_flame_nameattr *na)
{
	if (!na)
		return;
	for (size_t i = 0; i < na->nr; i++)
		entry_free(&na->v[i]);
	free(na->v);
	free(na);
}

/* Splits the part after the name into pairs. 0 or -ENOMEM. */
static int parse_pairs(struct na_entry *e, char *attrs)
{
	char *save = NULL;

	for (char *t = strtok_r(attrs, "\t", &save); t; t = strtok_r(NULL, "\t", &save)) {
		char *eq = strchr(t, '=');
		struct na_pair *grown = realloc(e->pairs, (e->nr_pairs + 1) * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		e->pairs = grown;
		if (eq)
			*eq = '\0';
		grown[e->nr_pairs].key = strdup(t);
		grown[e->nr_pairs].value = strdup(eq ? eq + 1 : "");
		e->nr_pairs++;
		if (!grown[e->nr_pairs - 1].key || !grown[e->nr_pairs - 1].value)
			return -ENOMEM;
	}
	return 0;
}

static int entry_cmp(const void *a, const void *b)
{
	const struct na_entry *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->line < y->line ? -1 : x->line > y->line;
}

struct ember_flame_nameattr *ember_flame_nameattr__read(const char *path, unsigned long *bad_line)
{
	struct ember_flame_nameattr *na;
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t alloc = 0, lineno = 0;
	ssize_t n;
	int err = 0;

	if (bad_line)
		*bad_line = 0;
	if (!fp)
		return NULL;
	na = calloc(1, sizeof(*na));
	if (!na) {
		fclose(fp);
		errno = ENOMEM;
		return NULL;
	}
	while ((n = getline(&line, &alloc, fp)) >= 0) {
		struct na_entry *grown, *e;
		char *tab;

		lineno++;
		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		tab = strchr(line, '\t');
		if (!tab) {
			/* The script dies on such a line: so do we, saying where. */
			if (bad_line)
				*bad_line = lineno;
			err = -EINVAL;
			break;
		}
		*tab = '\0';
		grown = realloc(na->v, (na->nr + 1) * sizeof(*grown));
		if (!grown) {
			err = -ENOMEM;
			break;
		}
		na->v = grown;
		e = &na->v[na->nr++];
		memset(e, 0, sizeof(*e));
		e->line = lineno;
		e->name = strdup(line);
		if (!e->name || parse_pairs(e, tab + 1)) {
			err = -ENOMEM;
			break;
		}
	}
	if (!err && ferror(fp))
		err = -EIO;
	free(line);
	fclose(fp);
	if (err) {
		ember_flame_nameattr__delete(na);
		errno = -err;
		return NULL;
	}
	/* An empty file gives an empty table (and qsort no NULL array). */
	if (na->nr)
		qsort(na->v, na->nr, sizeof(*na->v), entry_cmp);
	return na;
}

/* The last entry for name (later lines win), or NULL. */
static const struct na_entry *find(const struct ember_flame_nameattr *na, const char *name)
{
	size_t lo = 0, hi = na->nr;

	/* The first entry past every one named `name`, then one back. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(na->v[mid].name, name) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || strcmp(na->v[lo - 1].name, name))
		return NULL;
	return &na->v[lo - 1];
}

const char *ember_flame_nameattr__get(const struct ember_flame_nameattr *na, const char *name,
				      const char *key)
{
	const struct na_entry *e;

	if (!na || !name || !key || !(e = find(na, name)))
		return NULL;
	/* The script builds a hash from the pairs: the last one of a key wins. */
	for (size_t i = e->nr_pairs; i-- > 0;)
		if (!strcmp(e->pairs[i].key, key))
			return e->pairs[i].value;
	return NULL;
}
