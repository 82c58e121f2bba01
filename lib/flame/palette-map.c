// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The consistent palette file of flamegraph.pl --cp: one "name->colour"
 * per line, read before drawing and written back, sorted, after, so a
 * function keeps its colour from one graph to the next.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/atomic-file.h"
#include "core/hash.h"
#include "flame-priv.h"

struct palette_entry {
	char *key;
	char *color;
};

struct ember_flame_palette_map {
	struct palette_entry *v;
	size_t nr, alloc;
	struct hashtab index;	/* index into v + 1 by hash_str() of the key */
};

struct key_probe {
	const struct ember_flame_palette_map *map;
	const char *key;
};

static bool key_eq(const struct hashtab_slot *slot, const void *key)
{
	uint64_t val = slot->val;
	const struct key_probe *k = key;

	return !strcmp(k->map->v[val - 1].key, k->key);
}

/* The slot of key: its entry's, or the empty one where it goes. */
static struct hashtab_slot *map_slot(const struct ember_flame_palette_map *map, const char *key,
				     uint64_t hash)
{
	struct key_probe k = { map, key };

	return hashtab__slot(&map->index, hash, key_eq, &k);
}

const char *ember_flame_palette_map__get(const struct ember_flame_palette_map *map,
					 const char *key)
{
	struct hashtab_slot *slot;

	if (!map || !key)
		return NULL;
	slot = map_slot(map, key, hash_str(key));
	return slot->val ? map->v[slot->val - 1].color : NULL;
}

int ember_flame_palette_map__set(struct ember_flame_palette_map *map, const char *key,
				 const char *color)
{
	struct hashtab_slot *slot;
	uint64_t hash;
	char *c;

	if (!map || !key || !color || strchr(key, '\n') || strchr(color, '\n'))
		return -EINVAL;
	c = strdup(color);
	if (!c || hashtab__reserve(&map->index, 1)) {
		free(c);
		return -ENOMEM;
	}
	hash = hash_str(key);
	slot = map_slot(map, key, hash);
	if (slot->val) {
		free(map->v[slot->val - 1].color);
		map->v[slot->val - 1].color = c;
		return 0;
	}
	if (map->nr == map->alloc) {
		size_t alloc = map->alloc ? map->alloc * 2 : 64;
		struct palette_entry *grown = realloc(map->v, alloc * sizeof(*grown));

		if (!grown) {
			free(c);
			return -ENOMEM;
		}
		map->v = grown;
		map->alloc = alloc;
	}
	map->v[map->nr].key = strdup(key);
	if (!map->v[map->nr].key) {
		free(c);
		return -ENOMEM;
	}
	map->v[map->nr].color = c;
	hashtab__fill(&map->index, slot, hash, ++map->nr);
	return 0;
}

size_t ember_flame_palette_map__nr(const struct ember_flame_palette_map *map)
{
	return map ? map->nr : 0;
}

void ember_flame_palette_map__delete(struct ember_flame_palette_map *map)
{
	if (!map)
		return;
	for (size_t i = 0; i < map->nr; i++) {
		free(map->v[i].key);
		free(map->v[i].color);
	}
	free(map->v);
	hashtab__exit(&map->index);
	free(map);
}

/* "rgb(R,G,B)" with each part 0..255: what a palette file may hold. */
static bool color_ok(const char *s)
{
	unsigned int r, g, b;
	int n = 0;

	return sscanf(s, "rgb(%u,%u,%u)%n", &r, &g, &b, &n) == 3 && n && !s[n] && r < 256 &&
	       g < 256 && b < 256;
}

struct ember_flame_palette_map *ember_flame_palette_map__read(const char *path)
{
	struct ember_flame_palette_map *map = calloc(1, sizeof(*map));
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *fp;
	int err = 0;

	if (!map)
		return NULL;
	if (hashtab__reserve(&map->index, 128)) {
		free(map);
		errno = ENOMEM;
		return NULL;
	}
	if (!path)
		return map;
	fp = fopen(path, "r");
	if (!fp) {
		if (errno == ENOENT)
			return map;
		err = errno;
		ember_flame_palette_map__delete(map);
		errno = err;
		return NULL;
	}
	while ((len = getline(&line, &cap, fp)) > 0) {
		char *arrow;

		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (len && line[len - 1] == '\r')
			line[--len] = '\0';
		if (!len)
			continue;
		/* The colour never holds "->": split at the last one, names may. */
		arrow = NULL;
		for (char *p = strstr(line, "->"); p; p = strstr(p + 1, "->"))
			arrow = p;
		if (!arrow || !color_ok(arrow + 2) || strlen(line) != (size_t)len) {
			err = EINVAL;
			break;
		}
		*arrow = '\0';
		err = -ember_flame_palette_map__set(map, line, arrow + 2);
		if (err)
			break;
	}
	if (!err && ferror(fp))
		err = EIO;
	free(line);
	fclose(fp);
	if (err) {
		ember_flame_palette_map__delete(map);
		errno = err;
		return NULL;
	}
	return map;
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct palette_entry *)a)->key, ((const struct palette_entry *)b)->key);
}

int ember_flame_palette_map__write(const struct ember_flame_palette_map *map, const char *path)
{
	struct palette_entry *sorted;
	struct atomic_file af;
	int err;

	if (!map || !path)
		return -EINVAL;
	sorted = malloc((map->nr ? map->nr : 1) * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, map->v, map->nr * sizeof(*sorted));
	qsort(sorted, map->nr, sizeof(*sorted), entry_cmp);
	/* Written aside and renamed: a crash never leaves half a palette. */
	err = atomic_file__open(&af, path, 0666);
	if (!err) {
		for (size_t i = 0; i < map->nr; i++)
			fprintf(af.fp, "%s->%s\n", sorted[i].key, sorted[i].color);
		err = atomic_file__commit(&af);
	}
	free(sorted);
	return err;
}
