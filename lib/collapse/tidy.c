// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The name rules of stackcollapse-perf.pl's frame loop, in its order. */
#include <string.h>
#include "collapse/tidy.h"

void piece_iter_init(struct piece_iter *it, const char *s, size_t n)
{
	const char *p = s, *end = s, *stop = s + n;

	/* Most symbols have no "->": one piece, no search (and none when empty). */
	if (!memchr(s, '>', n))
		end = stop;
	/* The end of the last non-empty piece drops Perl's trailing empty fields. */
	while (end != stop && p <= stop) {
		const char *sep = memmem(p, stop - p, "->", 2);
		const char *pe = sep ? sep : stop;

		if (pe > p)
			end = pe;
		if (!sep)
			break;
		p = sep + 2;
	}
	it->s = s;
	it->end = end;
	it->pos = s;
	/* Only empty pieces (or nothing): split gives the empty list. */
	it->done = end == s;
}

bool piece_next(struct piece_iter *it, struct span *piece)
{
	const char *sep;

	if (it->done)
		return false;
	sep = it->pos < it->end ? memmem(it->pos, it->end - it->pos, "->", 2) : NULL;
	if (!sep) {
		*piece = (struct span){ it->pos, it->end - it->pos };
		it->done = true;
		return true;
	}
	*piece = (struct span){ it->pos, sep - it->pos };
	it->pos = sep + 2;
	return true;
}

/* m/\.\(.*\)\./: a Go method name such as "net/http.(*Client).Do". */
static bool looks_like_go(const char *s, size_t n)
{
	const char *open = memmem(s, n, ".(", 2);
	size_t j;

	if (!open)
		return false;
	for (j = n; j >= 2; j--)
		if (s[j - 2] == ')' && s[j - 1] == '.')
			break;
	if (j < 2)
		return false;
	return (size_t)(open - s) + 2 <= j - 2;
}

static const char anon_ns[] = "anonymous namespace)";

int tidy_piece(const struct tidy_opts *o, bool java, struct span piece, size_t idx, struct span pc,
	       struct span mod, struct sbuf *out, bool *unknown)
{
	size_t start = out->len, n, w;
	char *s;

	if (piece.len == 9 && !memcmp(piece.p, "[unknown]", 9)) {
		int err = sbuf_addc(out, '[');

		if (mod.len == 9 && !memcmp(mod.p, "[unknown]", 9)) {
			err = err ?: sbuf_adds(out, "unknown");
			*unknown = true;
		} else {
			const char *base = mod.p;

			/* s/.*\/// */
			for (size_t i = 0; i < mod.len; i++)
				if (mod.p[i] == '/')
					base = mod.p + i + 1;
			err = err ?: sbuf_add(out, base, mod.p + mod.len - base);
		}
		if (o->addrs) {
			err = err ?: sbuf_adds(out, " <");
			err = err ?: sbuf_add(out, pc.p, pc.len);
			err = err ?: sbuf_addc(out, '>');
		}
		err = err ?: sbuf_addc(out, ']');
		if (err)
			return err;
	} else if (sbuf_add(out, piece.p, piece.len)) {
		return -ENOMEM;
	}

	/* tidy_generic */
	s = out->buf + start;
	n = out->len - start;
	for (size_t i = 0; i < n; i++)
		if (s[i] == ';')
			s[i] = ':';
	if (memchr(s, '(', n) && !looks_like_go(s, n)) {
		for (size_t i = 0; i < n; i++) {
			if (s[i] != '(')
				continue;
			if (n - i - 1 >= sizeof(anon_ns) - 1 &&
			    !memcmp(s + i + 1, anon_ns, sizeof(anon_ns) - 1))
				continue;
			n = i;
			break;
		}
	}
	for (size_t i = w = 0; i < n; i++)
		if (s[i] != '"' && s[i] != '\'')
			s[w++] = s[i];
	n = w;

	/* tidy_java: Lorg/mozilla/...:.call -> org/mozilla/...:.call */
	if (java && n && s[0] == 'L' && memchr(s, '/', n)) {
		memmove(s, s + 1, n - 1);
		n--;
	}
	out->len = start + n;
	out->buf[out->len] = '\0';

	if (idx > 0) {
		if (!collapse_contains(out->buf + start, n, "_[i]"))
			return sbuf_adds(out, "_[i]");
	} else if (o->kernel && collapse_mod_is_kernel(mod.p, mod.len)) {
		return sbuf_adds(out, "_[k]");
	} else if (o->jit && collapse_mod_is_jit(mod.p, mod.len)) {
		if (!collapse_contains(out->buf + start, n, "_[j]"))
			return sbuf_adds(out, "_[j]");
	}
	return 0;
}

int tidy_srcline(const char *l, size_t n, struct sbuf *out)
{
	size_t mark = out->len, first;
	int err = sbuf_addc(out, ':');

	if (err)
		return err;
	first = out->len;
	/* s/\[.*?\]//g, then trim \s from both ends */
	for (size_t i = 0; i < n; i++) {
		if (l[i] == '[') {
			const char *close = memchr(l + i + 1, ']', n - i - 1);

			if (close) {
				i = close - l;
				continue;
			}
		}
		if (sbuf_addc(out, l[i]))
			return -ENOMEM;
	}
	{
		char *s = out->buf + first;
		size_t len = out->len - first, a = 0;

		while (a < len && cl_is_space(s[a]))
			a++;
		while (len > a && cl_is_space(s[len - 1]))
			len--;
		memmove(s, s + a, len - a);
		out->len = first + len - a;
		out->buf[out->len] = '\0';
	}
	if (out->len == first) {
		out->len = mark;
		out->buf[mark] = '\0';
	}
	return 0;
}

int tidy_root(bool with_pid, bool with_tid, struct span comm, struct span pid, struct span tid,
	      struct sbuf *out)
{
	size_t start = out->len;
	int err = sbuf_add(out, comm.p, comm.len);

	if (with_tid) {
		err = err ?: sbuf_addc(out, '-');
		err = err ?: sbuf_add(out, pid.p, pid.len);
		err = err ?: sbuf_addc(out, '/');
		err = err ?: sbuf_add(out, tid.p, tid.len);
	} else if (with_pid) {
		err = err ?: sbuf_addc(out, '-');
		err = err ?: sbuf_add(out, pid.p, pid.len);
	}
	if (err)
		return err;
	for (size_t i = start; i < out->len; i++)
		if (out->buf[i] == ' ')
			out->buf[i] = '_';
	return 0;
}
