// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * stackcollapse-perf.pl classifies each line with three regular
 * expressions. Perl's backtracking gives one answer per line; these
 * functions compute that answer directly, in linear time, so a giant or
 * hostile line costs no more than its length. Lines never contain '\n'.
 */
#include <string.h>
#include "collapse/parse.h"

#define S CL_SPACE
#define D (CL_DIGIT | CL_WORD)
#define W CL_WORD
const unsigned char collapse_ctype[256] = {
	['\t'] = S, ['\n'] = S, ['\v'] = S, ['\f'] = S, ['\r'] = S, [' '] = S,
	['0' ... '9'] = D,
	['A' ... 'Z'] = W, ['a' ... 'z'] = W, ['_'] = W,
};
#undef S
#undef D
#undef W

static bool has_at(const char *s, size_t n, size_t i, const char *lit)
{
	size_t l = strlen(lit);

	return i <= n && n - i >= l && !memcmp(s + i, lit, l);
}

bool collapse_contains(const char *s, size_t n, const char *needle)
{
	size_t l = strlen(needle);

	if (l > n)
		return false;
	return memmem(s, n, needle, l) != NULL;
}

/*
 * m{^(\S.+?)\s+(\d+)[/]*(\d+)*\s+}
 *
 * The lazy comm tries each end e >= 2 in turn. At e the rest must read
 * blanks, digits, slashes, digits, a blank; backtracking inside that tail
 * never helps (a shorter digit run leaves a digit where a blank or slash
 * is needed), so one greedy scan decides each e. A failed scan decides
 * every e it crossed as well (they reach the same digits), so the next
 * candidate is where the scan stopped: the whole search is linear.
 */
bool collapse_parse_header(const char *l, size_t n, struct collapse_header *h)
{
	size_t e = 2;

	if (n < 3 || cl_is_space(l[0]))
		return false;
	while (e < n) {
		size_t i = e, d0, d1, t0;

		if (!cl_is_space(l[e])) {
			e++;
			continue;
		}
		while (i < n && cl_is_space(l[i]))
			i++;
		d0 = i;
		while (i < n && cl_is_digit(l[i]))
			i++;
		if (i == d0) {
			e = i;
			continue;
		}
		d1 = i;
		while (i < n && l[i] == '/')
			i++;
		t0 = i;
		while (i < n && cl_is_digit(l[i]))
			i++;
		if (i < n && cl_is_space(l[i])) {
			h->comm = (struct span){ l, e };
			h->num1 = (struct span){ l + d0, d1 - d0 };
			h->num2 = i > t0 ? (struct span){ l + t0, i - t0 } : (struct span){ NULL, 0 };
			h->end = i;
			return true;
		}
		e = i;
	}
	return false;
}

/*
 * /:\s*(\d+)*\s+(\S+):\s*$/
 *
 * Read from the end: after trailing blanks the line must end in a
 * non-blank token T of two or more bytes whose last byte is ':' (the
 * event is T without it). Before T come one or more blanks, before them
 * either ':' (no period) or a digit run D preceded by blanks (maybe none)
 * and ':' (period D). Only one ':' can start such a match, so the
 * leftmost-match rule changes nothing.
 */
bool collapse_parse_event(const char *l, size_t n, struct collapse_event *ev)
{
	size_t end = n, ts, q1, q2, q3;

	while (end > 0 && cl_is_space(l[end - 1]))
		end--;
	if (end == 0 || l[end - 1] != ':')
		return false;
	ts = end;
	while (ts > 0 && !cl_is_space(l[ts - 1]))
		ts--;
	if (end - ts < 2)
		return false;
	q1 = ts;
	while (q1 > 0 && cl_is_space(l[q1 - 1]))
		q1--;
	if (q1 == ts || q1 == 0)
		return false;
	ev->name = (struct span){ l + ts, end - 1 - ts };
	if (l[q1 - 1] == ':') {
		ev->period = (struct span){ NULL, 0 };
		ev->from = q1 - 1;
		return true;
	}
	q2 = q1;
	while (q2 > 0 && cl_is_digit(l[q2 - 1]))
		q2--;
	if (q2 == q1)
		return false;
	q3 = q2;
	while (q3 > 0 && cl_is_space(l[q3 - 1]))
		q3--;
	if (q3 == 0 || l[q3 - 1] != ':')
		return false;
	ev->period = (struct span){ l + q2, q1 - q2 };
	ev->from = q3 - 1;
	return true;
}

/*
 * /^\s*(\w+)\s*(.+) \((.*)\)/
 *
 * The greedy (.+) and (.*) end the symbol at the last " (" that has a ')'
 * after it and the dso at the last ')'. The symbol normally starts after
 * the word PC and its blanks; when the " (" comes right after them,
 * Perl backtracks: the symbol becomes the last blank before " (" (two or
 * more blanks) or the last byte of the PC (one blank, PC of two or more
 * bytes), and with neither the line is not a frame.
 */
bool collapse_parse_frame(const char *l, size_t n, struct collapse_frame *f)
{
	size_t a = 0, b, c, rp, k;
	bool found = false;

	while (a < n && cl_is_space(l[a]))
		a++;
	if (a == n || !cl_is_word(l[a]))
		return false;
	b = a;
	while (b < n && cl_is_word(l[b]))
		b++;
	c = b;
	while (c < n && cl_is_space(l[c]))
		c++;
	rp = n;
	while (rp > 0 && l[rp - 1] != ')')
		rp--;
	if (rp == 0)
		return false;
	rp--;	/* the last ')' */
	if (rp < 2)
		return false;
	for (k = rp - 2 + 1; k-- > 0;) {
		if (l[k] == ' ' && l[k + 1] == '(') {
			found = true;
			break;
		}
	}
	if (!found)
		return false;
	f->mod = (struct span){ l + k + 2, rp - (k + 2) };
	if (k >= c + 1) {
		f->pc = (struct span){ l + a, b - a };
		f->func = (struct span){ l + c, k - c };
		return true;
	}
	/* k is in the blanks after the PC, so k == c - 1 */
	if (k < b)
		return false;
	if (k >= b + 1) {
		f->pc = (struct span){ l + a, b - a };
		f->func = (struct span){ l + k - 1, 1 };
		return true;
	}
	if (b - a >= 2) {
		f->pc = (struct span){ l + a, b - 1 - a };
		f->func = (struct span){ l + b - 1, 1 };
		return true;
	}
	return false;
}

static bool is_lower_hex(unsigned char c)
{
	return cl_is_digit(c) || (c >= 'a' && c <= 'f');
}

size_t collapse_strip_offset(const char *s, size_t n)
{
	size_t j = n;

	while (j > 0 && is_lower_hex(s[j - 1]))
		j--;
	if (j < n && j >= 3 && !memcmp(s + j - 3, "+0x", 3))
		return j - 3;
	return n;
}

bool collapse_mod_no_inline(const char *s, size_t n)
{
	size_t lastclose = n;

	if (collapse_contains(s, n, "kernel."))
		return true;
	/* perf-\d+.map: any digit prefix, then any byte, then "map" */
	for (size_t i = 0; i + 5 <= n; i++) {
		size_t run = 0;

		if (memcmp(s + i, "perf-", 5))
			continue;
		while (i + 5 + run < n && cl_is_digit(s[i + 5 + run]))
			run++;
		for (size_t d = 1; d <= run; d++)
			if (has_at(s, n, i + 5 + d + 1, "map") && s[i + 5 + d] != '\n')
				return true;
	}
	/* \[[^\]]+\]: a '[' not directly followed by ']', and a ']' later */
	while (lastclose > 0 && s[lastclose - 1] != ']')
		lastclose--;
	if (lastclose == 0)
		return false;
	lastclose--;
	for (size_t i = 0; i + 1 < n && i + 1 < lastclose; i++)
		if (s[i] == '[' && s[i + 1] != ']')
			return true;
	return false;
}

bool collapse_mod_is_kernel(const char *s, size_t n)
{
	if (!((n > 0 && s[0] == '[') || (n >= 7 && !memcmp(s + n - 7, "vmlinux", 7))))
		return false;
	return !collapse_contains(s, n, "unknown");
}

bool collapse_mod_is_jit(const char *s, size_t n)
{
	static const char lit[] = "/tmp/perf-";
	const size_t ll = sizeof(lit) - 1;

	for (size_t i = 0; i + ll <= n; i++) {
		size_t j = i + ll;

		if (memcmp(s + i, lit, ll))
			continue;
		while (j < n && cl_is_digit(s[j]))
			j++;
		if (j > i + ll && has_at(s, n, j, ".map"))
			return true;
	}
	return false;
}
