// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Parse a TRACING_DATA blob (layout in tracing-data-write.c) into a
 * libtraceevent handle, as perf 6.1's trace_report() does, but from
 * memory and with every count and length checked against what is left.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "core/log.h"
#include "data/dbuf.h"
#include "trace/trace.h"

struct td_reader {
	struct dcur c;
	const uint8_t *start;
	struct ember_trace *trace;
	struct tep_handle *tep;
	int err;			/* first error: -EINVAL, -ENOMEM */
};

static void fail(struct td_reader *r, int err, const char *what)
{
	if (!r->err) {
		r->err = err;
		pr_debug("tracing data: %s at byte %zu\n", what, (size_t)(r->c.p - r->start));
	}
}

static const void *take(struct td_reader *r, uint64_t n, const char *what)
{
	const void *p;

	if (r->err)
		return NULL;
	if (n > dcur_left(&r->c)) {
		fail(r, -EINVAL, what);
		return NULL;
	}
	p = dcur_skip(&r->c, n);
	if (!p)
		fail(r, -EINVAL, what);
	return p;
}

/* A number of n bytes in the file's byte order; 0 after an error. */
static uint64_t number(struct td_reader *r, int n, const char *what)
{
	const void *p = take(r, n, what);

	return p ? tep_read_number(r->tep, p, n) : 0;
}

/* A NUL-terminated string inside the blob, or NULL. */
static const char *string(struct td_reader *r, const char *what)
{
	const char *s;
	const void *nul;

	if (r->err)
		return NULL;
	s = (const char *)r->c.p;
	nul = memchr(s, '\0', dcur_left(&r->c));
	if (!nul) {
		fail(r, -EINVAL, what);
		return NULL;
	}
	take(r, (const char *)nul - s + 1, what);
	return s;
}

/* A u32/u64 size then that many bytes, copied NUL-terminated (caller frees); NULL if size 0. */
static char *sized(struct td_reader *r, int size_bytes, uint64_t *sizep, const char *what)
{
	uint64_t size = number(r, size_bytes, what);
	const void *p;
	char *buf;

	*sizep = 0;
	if (r->err || !size)
		return NULL;
	p = take(r, size, what);
	if (!p)
		return NULL;
	buf = malloc(size + 1);
	if (!buf) {
		fail(r, -ENOMEM, what);
		return NULL;
	}
	memcpy(buf, p, size);
	buf[size] = '\0';
	*sizep = size;
	return buf;
}

static void expect(struct td_reader *r, const void *want, size_t n, const char *what)
{
	const void *p = take(r, n, what);

	if (p && memcmp(p, want, n))
		fail(r, -EINVAL, what);
}

static void read_header_files(struct td_reader *r)
{
	uint64_t size;
	char *buf;

	expect(r, "header_page", 12, "no header_page");
	buf = sized(r, 8, &size, "header_page");
	if (buf && trace_header_page_check(buf, size)) {
		/* only the long size comes from it; libtraceevent would trust garbage */
		pr_debug("tracing data: ignoring a malformed header_page\n");
	} else if (buf && !tep_parse_header_page(r->tep, buf, size, tep_get_long_size(r->tep))) {
		/* the page's commit field is a kernel long: trust it over the header's byte */
		int long_size = tep_get_header_page_size(r->tep);

		if (long_size == 4 || long_size == 8)
			tep_set_long_size(r->tep, long_size);
	}
	free(buf);
	expect(r, "header_event", 13, "no header_event");
	take(r, number(r, 8, "header_event size"), "header_event");
}

/*
 * A copy of format `buf` whose print fmt is replaced by an empty one, for a
 * print fmt libtraceevent cannot evaluate (caller frees).
 */
static char *without_print_fmt(const char *buf, size_t print_off, size_t *size)
{
	static const char empty[] = "print fmt: \"\"\n";
	char *copy = malloc(print_off + sizeof(empty));

	if (!copy)
		return NULL;
	memcpy(copy, buf, print_off);
	memcpy(copy + print_off, empty, sizeof(empty));
	*size = print_off + sizeof(empty) - 1;
	return copy;
}

/* Remember the wide length fields of ev's print fmt, for trace-print.c. */
static void add_len_guard(struct td_reader *r, struct tep_event *ev,
			  const struct trace_format_info *info)
{
	struct ember_trace *t = r->trace;
	struct trace_len_guard *g;

	g = realloc(t->guards, (t->nr_guards + 1) * sizeof(*g));
	if (!g) {
		fail(r, -ENOMEM, "event format");
		return;
	}
	t->guards = g;
	g += t->nr_guards;
	memset(g, 0, sizeof(*g));
	g->id = ev->id;
	for (int i = 0; i < info->nr_len_fields; i++) {
		g->fields[g->nr] = tep_find_any_field(ev, info->len_fields[i]);
		if (g->fields[g->nr])
			g->nr++;
	}
	t->nr_guards++;
}

static void read_format(struct td_reader *r, const char *sys)
{
	struct trace_format_info info;
	struct tep_event *ev = NULL;
	bool no_print = false;
	size_t size;
	uint64_t size64;
	char *buf, *copy;
	char msg[128];
	int ret;

	buf = sized(r, 8, &size64, "event format");
	if (!buf)
		return;
	size = size64;
	/* libtraceevent trusts its input: give it only well-formed formats */
	ret = trace_format_check(buf, size, &info);
	if (ret < 0) {
		if (ret == -ENOMEM)
			fail(r, -ENOMEM, "event format");
		else
			pr_debug("tracing data: skipping a malformed format of %s\n", sys);
		goto out;
	}
	if (ret == 1) {
		copy = without_print_fmt(buf, info.print_off, &size);
		no_print = true;
	} else {
		copy = trace_format_escape_tabs(buf, size, info.print_off, &size);
	}
	if (!copy) {
		fail(r, -ENOMEM, "event format");
		goto out;
	}
	free(buf);
	buf = copy;
	ret = tep_parse_format(r->tep, &ev, buf, size, sys);
	if (ret == TEP_ERRNO__MEM_ALLOC_FAILED) {
		fail(r, -ENOMEM, "event format");
	} else if (ret) {
		/* perf gives up on the whole blob here; one bad event should not cost the rest */
		tep_strerror(r->tep, ret, msg, sizeof(msg));
		pr_debug("tracing data: cannot parse a format of %s: %s\n", sys, msg);
	} else if (ev && no_print) {
		/* what libtraceevent does with a print fmt it cannot parse */
		ev->flags |= TEP_EVENT_FL_FAILED;
	} else if (ev && info.nr_len_fields) {
		add_len_guard(r, ev, &info);
	}
out:
	free(buf);
}

static void read_formats(struct td_reader *r)
{
	uint32_t count, systems;
	const char *sys;

	count = number(r, 4, "ftrace count");
	for (uint32_t i = 0; i < count && !r->err; i++)
		read_format(r, "ftrace");

	systems = number(r, 4, "system count");
	for (uint32_t i = 0; i < systems && !r->err; i++) {
		sys = string(r, "system name");
		count = number(r, 4, "event count");
		for (uint32_t j = 0; j < count && !r->err; j++)
			read_format(r, sys);
	}
}

static void read_tail(struct td_reader *r, bool has_cmdlines)
{
	uint64_t size;
	char *buf;

	buf = sized(r, 4, &size, "kallsyms");
	if (buf && trace_add_kallsyms(r->tep, buf))
		fail(r, -ENOMEM, "kallsyms");
	free(buf);

	buf = sized(r, 4, &size, "printk_formats");
	if (buf && trace_add_printk_formats(r->tep, buf))
		fail(r, -ENOMEM, "printk_formats");
	free(buf);

	if (!has_cmdlines)
		return;
	buf = sized(r, 8, &size, "saved_cmdlines");
	if (buf && trace_add_cmdlines(r->tep, buf))
		fail(r, -ENOMEM, "saved_cmdlines");
	free(buf);
}

/* Magic, version, byte order, long and page size. Returns whether saved_cmdlines follow. */
static bool read_preamble(struct td_reader *r)
{
	static const char magic[10] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const uint8_t *p;
	const char *version;
	uint32_t page_size;
	double v;

	expect(r, magic, sizeof(magic), "bad magic");
	version = string(r, "version");
	p = take(r, 2, "byte order and long size");
	if (!version || !p)
		return false;
	if (p[0] > 1 || (p[1] != 4 && p[1] != 8)) {
		fail(r, -EINVAL, "bad byte order or long size");
		return false;
	}
	tep_set_file_bigendian(r->tep, p[0] ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(r->tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(r->tep, p[1]);
	page_size = number(r, 4, "page size");
	if (!r->err && !page_size)
		fail(r, -EINVAL, "page size 0");
	tep_set_page_size(r->tep, page_size);
	v = strtod(version, NULL);
	return v >= 0.6;
}

struct ember_trace *ember_trace__parse(const void *data, size_t size)
{
	struct td_reader r = { .c = dcur_init(data, size), .start = data };
	struct ember_trace *t;
	bool has_cmdlines;

	if (!data) {
		errno = EINVAL;
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	r.trace = t;
	t->tep = r.tep = tep_alloc();
	if (!t->tep) {
		free(t);
		errno = ENOMEM;
		return NULL;
	}
	tep_set_flag(r.tep, TEP_NSEC_OUTPUT);

	has_cmdlines = read_preamble(&r);
	read_header_files(&r);
	read_formats(&r);
	read_tail(&r, has_cmdlines);
	if (r.err) {
		ember_trace__delete(t);
		errno = -r.err;
		return NULL;
	}
	t->size = size - dcur_left(&r.c);
	return t;
}
