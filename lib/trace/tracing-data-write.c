// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Build the TRACING_DATA blob as perf 6.1 does (util/trace-event-info.c):
 *
 *   "\027\010D" "tracing" "0.6\0"   magic, tag, version
 *   u8 big-endian, u8 sizeof(long), u32 page size
 *   "header_page\0"  u64 size, events/header_page
 *   "header_event\0" u64 size, events/header_event
 *   u32 count, then u64 size + format per events/ftrace/<event>
 *   u32 systems, then per system: "sys\0", u32 count, u64 size + format per event
 *   u32 size + /proc/kallsyms (perf 6.1 always writes size 0)
 *   u32 size + printk_formats
 *   u64 size + saved_cmdlines
 *
 * Numbers are in host byte order; tracefs files are read to their end, as
 * their stat size is 0.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ember/trace.h>
#include "core/log.h"
#include "data/dbuf.h"
#include "event/tracefs.h"

#define TRACING_DATA_VERSION "0.6"

struct td_writer {
	struct dbuf b;
	const char *root;
	const struct ember_tracepoint *tps;
	size_t nr;
	bool *found;			/* per tps entry: its format was written */
};

/* Append the whole file at `path` after a `hdr_sz`-byte size (4 or 8) patched in after. */
static int add_file(struct dbuf *b, const char *path, size_t hdr_sz)
{
	size_t hdr_pos = b->len;
	uint64_t size = 0;
	int fd, err = 0;
	ssize_t n;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		pr_debug("tracing data: cannot open %s: %s\n", path, strerror(errno));
		return err;
	}
	dbuf_add_zeros(b, hdr_sz);
	for (;;) {
		if (dbuf_reserve(b, 8192))
			break;
		n = read(fd, b->data + b->len, b->cap - b->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			pr_debug("tracing data: cannot read %s: %s\n", path, strerror(errno));
			break;
		}
		if (n == 0)
			break;
		b->len += n;
		size += n;
	}
	close(fd);
	if (!err)
		err = b->err;
	if (err)
		return err;
	if (hdr_sz == 4) {
		uint32_t size32 = size;

		if (size > UINT32_MAX)
			return -EFBIG;
		memcpy(b->data + hdr_pos, &size32, 4);
	} else {
		memcpy(b->data + hdr_pos, &size, 8);
	}
	return 0;
}

/* Append a file that may be missing: a zero size then, as perf does. */
static int add_optional_file(struct dbuf *b, const char *path, size_t hdr_sz)
{
	struct stat st;

	if (stat(path, &st) < 0) {
		dbuf_add_zeros(b, hdr_sz);
		return b->err;
	}
	return add_file(b, path, hdr_sz);
}

static int join(char *buf, size_t size, const char *a, const char *b, const char *c)
{
	int n = snprintf(buf, size, "%s/%s%s%s", a, b, c ? "/" : "", c ? c : "");

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static void add_header(struct dbuf *b)
{
	static const char magic[10] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const uint16_t probe = 1;
	uint8_t big_endian = *(const uint8_t *)&probe == 0;
	uint8_t long_size = sizeof(long);
	uint32_t page_size = sysconf(_SC_PAGESIZE);

	dbuf_add(b, magic, sizeof(magic));
	dbuf_add(b, TRACING_DATA_VERSION, sizeof(TRACING_DATA_VERSION));
	dbuf_add(b, &big_endian, 1);
	dbuf_add(b, &long_size, 1);
	dbuf_add_u32(b, page_size);
}

static int add_header_files(struct td_writer *w)
{
	char path[PATH_MAX];
	int err;

	err = join(path, sizeof(path), w->root, "events", "header_page");
	if (err)
		return err;
	dbuf_add(&w->b, "header_page", 12);
	err = add_file(&w->b, path, 8);
	if (err)
		return err;
	err = join(path, sizeof(path), w->root, "events", "header_event");
	if (err)
		return err;
	dbuf_add(&w->b, "header_event", 13);
	return add_file(&w->b, path, 8);
}

/* A directory entry that is a subdirectory (not . or ..). */
static bool is_subdir(int dfd, const struct dirent *d)
{
	struct stat st;

	if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
		return false;
	if (d->d_type == DT_DIR)
		return true;
	if (d->d_type != DT_UNKNOWN)
		return false;
	return !fstatat(dfd, d->d_name, &st, 0) && S_ISDIR(st.st_mode);
}

/*
 * perf keeps an event of a listed system when its name is the name of any
 * listed tracepoint (whatever that one's system); so do we, for the same bytes.
 */
static bool name_listed(const struct td_writer *w, const char *name)
{
	for (size_t i = 0; i < w->nr; i++)
		if (!strcmp(w->tps[i].name, name))
			return true;
	return false;
}

static bool system_listed(const struct td_writer *w, const char *sys)
{
	for (size_t i = 0; i < w->nr; i++)
		if (!strcmp(w->tps[i].sys, sys))
			return true;
	return false;
}

static void mark_found(struct td_writer *w, const char *sys, const char *name)
{
	for (size_t i = 0; i < w->nr; i++)
		if (!strcmp(w->tps[i].sys, sys) && !strcmp(w->tps[i].name, name))
			w->found[i] = true;
}

/* The names of the subdirectories of `dir` that `keep` accepts, in directory order. */
static int list_dirs(const char *dir, bool (*keep)(const struct td_writer *, const char *),
		     const struct td_writer *w, char ***namesp, size_t *nrp)
{
	char **names = NULL, **tmp;
	size_t nr = 0;
	struct dirent *d;
	int err = 0;
	DIR *dp;

	dp = opendir(dir);
	if (!dp) {
		err = -errno;
		pr_debug("tracing data: cannot read %s: %s\n", dir, strerror(errno));
		return err;
	}
	while ((d = readdir(dp))) {
		if (!is_subdir(dirfd(dp), d) || !keep(w, d->d_name))
			continue;
		tmp = realloc(names, (nr + 1) * sizeof(*names));
		if (!tmp || !(tmp[nr] = strdup(d->d_name))) {
			names = tmp ? tmp : names;
			err = -ENOMEM;
			break;
		}
		names = tmp;
		nr++;
	}
	closedir(dp);
	*namesp = names;
	*nrp = nr;
	return err;
}

static void free_names(char **names, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(names[i]);
	free(names);
}

/* u32 count, then each listed event's format with a u64 size, of system dir `sysdir`. */
static int add_system_events(struct td_writer *w, const char *sysdir, const char *sys)
{
	char path[PATH_MAX], **names = NULL, **kept;
	size_t nr = 0, nr_kept = 0;
	struct stat st;
	int err;

	err = list_dirs(sysdir, name_listed, w, &names, &nr);
	if (err)
		goto out;
	kept = calloc(nr ? nr : 1, sizeof(*kept));
	if (!kept) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nr; i++) {
		err = join(path, sizeof(path), sysdir, names[i], "format");
		if (err)
			goto out_kept;
		if (!stat(path, &st))
			kept[nr_kept++] = names[i];
	}
	dbuf_add_u32(&w->b, nr_kept);
	for (size_t i = 0; i < nr_kept; i++) {
		err = join(path, sizeof(path), sysdir, kept[i], "format");
		if (!err)
			err = add_file(&w->b, path, 8);
		if (err)
			goto out_kept;
		mark_found(w, sys, kept[i]);
	}
out_kept:
	free(kept);
out:
	free_names(names, nr);
	return err;
}

static int add_ftrace_files(struct td_writer *w)
{
	char path[PATH_MAX];
	struct stat st;
	int err;

	err = join(path, sizeof(path), w->root, "events", "ftrace");
	if (err)
		return err;
	if (stat(path, &st) < 0) {
		/* perf would fail here; an empty list says the same to any reader */
		dbuf_add_u32(&w->b, 0);
		return w->b.err;
	}
	return add_system_events(w, path, "ftrace");
}

static bool system_kept(const struct td_writer *w, const char *sys)
{
	return strcmp(sys, "ftrace") && system_listed(w, sys);
}

static int add_event_files(struct td_writer *w)
{
	char events[PATH_MAX], path[PATH_MAX], **names = NULL;
	size_t nr = 0;
	int err;

	err = join(events, sizeof(events), w->root, "events", NULL);
	if (err)
		return err;
	err = list_dirs(events, system_kept, w, &names, &nr);
	if (err)
		goto out;
	dbuf_add_u32(&w->b, nr);
	for (size_t i = 0; i < nr; i++) {
		err = join(path, sizeof(path), events, names[i], NULL);
		if (err)
			break;
		dbuf_add(&w->b, names[i], strlen(names[i]) + 1);
		err = add_system_events(w, path, names[i]);
		if (err)
			break;
	}
out:
	free_names(names, nr);
	return err;
}

static int add_tail(struct td_writer *w)
{
	char path[PATH_MAX];
	int err;

	/* perf 6.1 no longer copies /proc/kallsyms: a zero size keeps old readers happy */
	dbuf_add_u32(&w->b, 0);
	err = join(path, sizeof(path), w->root, "printk_formats", NULL);
	if (!err)
		err = add_optional_file(&w->b, path, 4);
	if (err)
		return err;
	err = join(path, sizeof(path), w->root, "saved_cmdlines", NULL);
	if (!err)
		err = add_optional_file(&w->b, path, 8);
	return err;
}

static int check_found(const struct td_writer *w)
{
	for (size_t i = 0; i < w->nr; i++) {
		if (!w->found[i]) {
			pr_debug("tracing data: no format for tracepoint %s:%s\n", w->tps[i].sys,
				 w->tps[i].name);
			return -ENOENT;
		}
	}
	return 0;
}

int ember_tracing_data__build(const char *tracefs, const struct ember_tracepoint *tps, size_t nr,
			      void **data, size_t *size)
{
	struct td_writer w = { .tps = tps, .nr = nr };
	char root[PATH_MAX];
	int err;

	if (!nr || !tps || !data || !size)
		return -EINVAL;
	for (size_t i = 0; i < nr; i++)
		if (!tps[i].sys || !tps[i].name)
			return -EINVAL;
	if (!tracefs) {
		err = ember_tracefs__find(root, sizeof(root));
		if (err)
			return err;
		tracefs = root;
	}
	w.root = tracefs;
	w.found = calloc(nr, sizeof(*w.found));
	if (!w.found)
		return -ENOMEM;

	add_header(&w.b);
	err = add_header_files(&w);
	if (!err)
		err = add_ftrace_files(&w);
	if (!err)
		err = add_event_files(&w);
	if (!err)
		err = add_tail(&w);
	if (!err)
		err = w.b.err;
	if (!err)
		err = check_found(&w);
	free(w.found);
	if (err) {
		dbuf_exit(&w.b);
		return err;
	}
	*data = w.b.data;
	*size = w.b.len;
	return 0;
}
