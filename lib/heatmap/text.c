// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * trace2heatmap.pl's input: "TIME LATENCY" a line. Every byte sequence is
 * valid input: what is not two numbers is counted and skipped, so this is
 * also what the fuzz target drives.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <ember/heatmap.h>
#include "heatmap/points.h"

/* Longer tokens are not numbers anyone writes; refusing them keeps the copy bounded. */
#define TOKEN_MAX 64

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/*
 * A decimal number, as perl reads one from such a file: digits, sign,
 * point and exponent only (no hex, no "inf" or "nan", which strtod would
 * take), finite once converted.
 */
static bool parse_number(const char *s, size_t len, double *val)
{
	char tok[TOKEN_MAX + 1];
	bool digit = false;
	char *end;

	if (!len || len > TOKEN_MAX)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] >= '0' && s[i] <= '9')
			digit = true;
		else if (!strchr("+-.eE", s[i]) || !s[i])
			return false;
	}
	if (!digit)
		return false;
	memcpy(tok, s, len);
	tok[len] = '\0';
	errno = 0;
	*val = strtod(tok, &end);
	return end == tok + len && isfinite(*val);
}

/* The next blank-separated token of [*s, e); false at the end. */
static bool next_token(const char **s, const char *e, const char **tok, size_t *len)
{
	const char *p = *s;

	while (p < e && is_blank(*p))
		p++;
	if (p == e)
		return false;
	*tok = p;
	while (p < e && !is_blank(*p))
		p++;
	*len = p - *tok;
	*s = p;
	return true;
}

static bool has_letter(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z'))
			return true;
	return false;
}

static int parse_line(struct ember_heatmap_points *p, const char *s, size_t len,
		      struct ember_heatmap_text_stats *st)
{
	const char *e = s + len, *line = s, *tok;
	bool first = st->lines++ == 0;
	double t, lat;
	size_t tlen;

	if (!next_token(&s, e, &tok, &tlen))
		return 0;	/* blank lines are no events, as in the script */
	if (!parse_number(tok, tlen, &t) || !next_token(&s, e, &tok, &tlen) ||
	    !parse_number(tok, tlen, &lat)) {
		if (first && has_letter(line, len)) {
			st->header = 1;
			return 0;
		}
		if (!st->skipped++)
			st->first_skipped = st->lines;
		return 0;
	}
	st->points++;
	return ember_heatmap_points__add(p, t, lat);
}

int ember_heatmap_points__parse_text(struct ember_heatmap_points *p, const char *buf, size_t len,
				     struct ember_heatmap_text_stats *st)
{
	const char *e = buf + len;

	while (buf < e) {
		const char *nl = memchr(buf, '\n', e - buf);
		const char *end = nl ? nl : e;
		int err = parse_line(p, buf, end - buf, st);

		if (err)
			return err;
		buf = nl ? nl + 1 : e;
	}
	return 0;
}

int ember_heatmap_points__read_text(struct ember_heatmap_points *p, FILE *fp,
				    struct ember_heatmap_text_stats *st)
{
	char *line = NULL;
	size_t alloc = 0;
	ssize_t n;
	int err = 0;

	errno = 0;
	while ((n = getline(&line, &alloc, fp)) > 0) {
		if (line[n - 1] == '\n')
			n--;
		err = parse_line(p, line, n, st);
		if (err)
			break;
	}
	if (!err && ferror(fp))
		err = errno ? -errno : -EIO;
	else if (!err && n < 0 && errno == ENOMEM)
		err = -ENOMEM;
	free(line);
	return err;
}
