// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <stdbool.h>
#include <string.h>
#include "core/escape.h"

#define REPLACEMENT "\xef\xbf\xbd"

size_t utf8_char(const unsigned char *s, size_t len, uint32_t *cp)
{
	uint32_t c = s[0], min;
	size_t n;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		c &= 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		c &= 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		c &= 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	if (len < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates, beyond Unicode, and XML's non-characters. */
	if (c < min || (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff || c == 0xfffe || c == 0xffff)
		return 0;
	*cp = c;
	return n;
}

/* The XML entity of the five characters that have one, NULL for any other. */
static const char *xml_entity(uint32_t cp)
{
	switch (cp) {
	case '&': return "&amp;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '"': return "&quot;";
	case '\'': return "&apos;";
	default: return NULL;
	}
}

/*
 * What mode writes for the character cp (ok: a valid one; else one byte
 * that is not UTF-8): NULL to copy it as it is, "" to drop it, else the
 * text to write (in buf or static).
 */
static const char *replace(enum escape_mode mode, uint32_t cp, bool ok, char buf[8])
{
	switch (mode) {
	case ESCAPE_XML:
	case ESCAPE_XML_BYTES:
		if (!ok)
			return REPLACEMENT;
		if (cp == '\t' || cp == '\n' || cp == '\r')
			return cp == '\t' ? "&#9;" : cp == '\n' ? "&#10;" : "&#13;";
		if (cp < 0x20)
			return mode == ESCAPE_XML ? REPLACEMENT : "&#xFFFD;";
		return xml_entity(cp);
	case ESCAPE_XML_TEXT:
		if (!ok)
			return REPLACEMENT;
		if (cp < 0x20 && cp != '\t')
			return "";
		return xml_entity(cp);
	case ESCAPE_JS:
		if (!ok)
			return "\\ufffd";
		if (cp < 0x20 || cp == '"' || cp == '\\' || cp == '<' || cp == '>' || cp == '&' ||
		    cp == ']' || cp == 0x2028 || cp == 0x2029)
			break;
		return NULL;
	case ESCAPE_JSON:
	case ESCAPE_JSON_BYTES:
		if (!ok)
			return "\\ufffd";
		if (cp == '"' || cp == '\\') {
			buf[0] = '\\';
			buf[1] = cp;
			buf[2] = '\0';
			return buf;
		}
		if (cp < 0x20 || (mode == ESCAPE_JSON &&
				  (cp == '<' || cp == '>' || cp == '&' || cp == 0x7f)))
			break;
		return NULL;
	}
	snprintf(buf, 8, "\\u%04x", (unsigned int)cp);
	return buf;
}

void escape_write(FILE *fp, const char *str, size_t len, enum escape_mode mode)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, run = 0;

	while (i < len) {
		uint32_t cp = s[i];
		bool bytes = mode == ESCAPE_XML_BYTES || mode == ESCAPE_JSON_BYTES;
		size_t n = bytes ? 1 : utf8_char(s + i, len - i, &cp);
		char buf[8];
		const char *rep = replace(mode, cp, n != 0, buf);

		/* A byte that is not UTF-8 is replaced alone; the next one may start a character. */
		n = n ? n : 1;
		if (rep) {
			if (i > run)
				fwrite(s + run, 1, i - run, fp);
			fputs(rep, fp);
			run = i + n;
		}
		i += n;
	}
	if (i > run)
		fwrite(s + run, 1, i - run, fp);
}

void escape_puts(FILE *fp, const char *s, enum escape_mode mode)
{
	escape_write(fp, s, strlen(s), mode);
}
