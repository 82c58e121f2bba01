// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Folded stacks in, as flamegraph.pl reads them:
 *
 *   comm;root;...;leaf COUNT            one stack, COUNT = digits[.digits]
 *   comm;root;...;leaf BEFORE AFTER     a differential line (difffolded.pl)
 *
 * The count is the last blank-separated field; exactly one blank before
 * it belongs to the separator, so "a;b  5" is the stack "a;b " as in
 * flamegraph.pl. Frames split on ';', empty trailing frames dropped.
 * Anything else is counted as ignored, never fatal: a file of noise
 * ends as "no stack counts found" in the caller, not as a crash.
 */
#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flame-priv.h"

#define CHUNK (64 * 1024)
/* Longer lines are not stacks anyone wrote; skip them rather than hold them. */
#define MAX_LINE (64u * 1024 * 1024)

struct line_reader {
	FILE *fp;
	char *buf;
	size_t alloc, start, end;
	bool eof, too_long;
	uint64_t bytes;
};

static bool is_blank(char c)
{
	/* Perl's \s: space, \t, \n, \v, \f, \r. */
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/*
 * The next line (without its '\n') in *line and *len; returns 1, 0 at the end,
 * -errno. A line over MAX_LINE comes back empty with r->too_long set.
 */
static int next_line(struct line_reader *r, char **line, size_t *len)
{
	size_t scan = r->start;

	r->too_long = false;
	for (;;) {
		char *nl = memchr(r->buf + scan, '\n', r->end - scan);

		if (nl) {
			*line = r->buf + r->start;
			*len = nl - *line;
			r->start = nl - r->buf + 1;
			return 1;
		}
		if (r->eof) {
			if (r->start == r->end)
				return 0;
			*line = r->buf + r->start;
			*len = r->end - r->start;
			r->start = r->end;
			return 1;
		}
		if (r->end - r->start >= MAX_LINE) {
			/* Drop what we hold and skip to the next newline. */
			r->too_long = true;
			for (;;) {
				size_t n = fread(r->buf, 1, r->alloc, r->fp);
				char *e;

				r->bytes += n;
				if (!n) {
					if (ferror(r->fp))
						return -EIO;
					r->eof = true;
					r->start = r->end = 0;
					break;
				}
				e = memchr(r->buf, '\n', n);
				if (e) {
					r->start = e - r->buf + 1;
					r->end = n;
					break;
				}
			}
			*line = r->buf;
			*len = 0;
			return 1;
		}
		/* Move the partial line to the front, grow if it fills the buffer. */
		if (r->start) {
			memmove(r->buf, r->buf + r->start, r->end - r->start);
			r->end -= r->start;
			r->start = 0;
		}
		if (r->end == r->alloc) {
			size_t alloc = r->alloc * 2;
			char *grown = realloc(r->buf, alloc);

			if (!grown)
				return -ENOMEM;
			r->buf = grown;
			r->alloc = alloc;
		}
		scan = r->end;
		size_t n = fread(r->buf + r->end, 1, r->alloc - r->end, r->fp);

		r->bytes += n;
		r->end += n;
		if (!n) {
			if (ferror(r->fp))
				return -EIO;
			r->eof = true;
		}
	}
}

/*
 * Splits "STACK COUNT": the count is digits with an optional ".digits"
 * at the very end, right after one blank. Returns false when the line
 * does not end that way.
 */
static bool split_count(const char *line, size_t len, size_t *stack_len, double *count)
{
	size_t i = len, dot = SIZE_MAX;
	char num[64];
	size_t nlen;

	while (i > 0 && (line[i - 1] >= '0' && line[i - 1] <= '9'))
		i--;
	if (i > 0 && line[i - 1] == '.') {
		dot = i - 1;
		i--;
		while (i > 0 && (line[i - 1] >= '0' && line[i - 1] <= '9'))
			i--;
		/* "5." is a count, ".5" is not. */
		if (i == dot)
			return false;
	}
	if (i == len || i == 0 || !is_blank(line[i - 1]))
		return false;
	nlen = len - i;
	/* Leading zeros do not change the value; very long digit runs are huge anyway. */
	while (nlen > 1 && line[i] == '0' && line[i + 1] != '.') {
		i++;
		nlen--;
	}
	if (nlen >= sizeof(num)) {
		*count = INFINITY;
	} else {
		memcpy(num, line + i, nlen);
		num[nlen] = '\0';
		*count = strtod(num, NULL);
	}
	/* The blank before the count is the separator; i points past it. */
	while (i > 0 && line[i - 1] != ' ' && !is_blank(line[i - 1]))
		i--;
	*stack_len = i - 1;
	return true;
}

/* Bytes a folded line may not hold: NUL and control characters other than tab. */
static bool is_binary(const char *line, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = line[i];

		if ((c < 0x20 && c != '\t' && c != '\v' && c != '\f') || c == 0x7f)
			return true;
	}
	return false;
}

struct frame_buf {
	uint32_t *v;
	size_t nr, alloc;
};

static int frame_push(struct frame_buf *b, uint32_t id)
{
	if (b->nr == b->alloc) {
		size_t alloc = b->alloc ? b->alloc * 2 : 256;
		uint32_t *grown = realloc(b->v, alloc * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		b->v = grown;
		b->alloc = alloc;
	}
	b->v[b->nr++] = id;
	return 0;
}

/*
 * Frames of a stack: split on ';', trailing empty frames dropped (Perl's
 * split). In a chain graph, frames after the first "--" are the wakers'
 * (flamegraph.pl --colors chain annotates them "_[w]").
 */
static int split_frames(struct ember_flame *fl, const char *stack, size_t len, struct frame_buf *b,
			bool chain)
{
	size_t start = 0;
	bool waker = false;

	b->nr = 0;
	while (len && stack[len - 1] == ';')
		len--;
	if (!len)
		return 0;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && stack[i] != ';')
			continue;
		const char *name = stack + start;
		size_t nlen = i - start;
		enum ember_flame_kind kind = flame_suffix_kind(name, nlen);
		bool sep = nlen == 2 && !memcmp(name, "--", 2);
		int id;

		if (waker && !sep && kind == EMBER_FLAME_USER)
			kind = EMBER_FLAME_WAKER;
		waker |= chain && sep;
		id = ember_flame__frame(fl, name, nlen, kind);
		if (id < 0)
			return id;
		if (frame_push(b, id))
			return -ENOMEM;
		start = i + 1;
	}
	return 0;
}

int ember_flame__read_folded(struct ember_flame *fl, FILE *fp,
			     const struct ember_flame_folded_opts *opts,
			     struct ember_flame_folded_stats *stats)
{
	struct ember_flame_folded_stats st = { 0 };
	struct line_reader r = { .fp = fp };
	struct frame_buf frames = { 0 };
	enum ember_flame_side side = EMBER_FLAME_AFTER;
	int (*progress)(uint64_t, void *) = NULL;
	void *ctx = NULL;
	bool chain = false;
	uint64_t next_progress = CHUNK;
	char *line;
	size_t len;
	int err;

	if (!fl || !fp)
		return -EINVAL;
	if (opts && opts->sz) {
		side = opts->side;
		progress = opts->progress;
		ctx = opts->ctx;
		if (opts->sz >= offsetof(struct ember_flame_folded_opts, chain) + sizeof(opts->chain))
			chain = opts->chain;
	}
	r.alloc = CHUNK;
	r.buf = malloc(r.alloc);
	if (!r.buf)
		return -ENOMEM;

	while ((err = next_line(&r, &line, &len)) > 0) {
		size_t stack_len, inner_len;
		double count, before = 0;
		bool diff = false;

		st.lines++;
		if (progress && r.bytes >= next_progress) {
			next_progress = r.bytes + CHUNK;
			err = progress(r.bytes, ctx);
			if (err)
				break;
		}
		if (len && line[len - 1] == '\r')
			len--;
		if (r.too_long || is_binary(line, len) || !split_count(line, len, &stack_len, &count)) {
			if (r.too_long || is_binary(line, len))
				st.binary++;
			if (!st.ignored++)
				st.first_ignored = st.lines;
			continue;
		}
		if (split_count(line, stack_len, &inner_len, &before)) {
			/* "STACK BEFORE AFTER": the graph is AFTER, coloured by the change. */
			diff = true;
			stack_len = inner_len;
		}
		if (count > EMBER_FLAME_MAX_COUNT || before > EMBER_FLAME_MAX_COUNT) {
			st.error_line = st.lines;
			err = -ERANGE;
			break;
		}
		err = split_frames(fl, line, stack_len, &frames, chain);
		if (err)
			break;
		if (diff) {
			st.diff_lines++;
			err = ember_flame__add(fl, frames.v, frames.nr, before, (uint64_t)before,
					       EMBER_FLAME_BEFORE);
			if (!err)
				err = ember_flame__add(fl, frames.v, frames.nr, count,
						       (uint64_t)count, EMBER_FLAME_AFTER);
		} else {
			err = ember_flame__add(fl, frames.v, frames.nr, count, (uint64_t)count, side);
		}
		if (err) {
			if (err == -ERANGE)
				st.error_line = st.lines;
			break;
		}
		st.stacks++;
	}
	if (!err && progress)
		err = progress(r.bytes, ctx);
	free(r.buf);
	free(frames.v);
	if (stats)
		*stats = st;
	return err;
}
