// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Escaping text for the SVG and HTML writers: names come from files anyone can write. */
#include <stdint.h>
#include "heatmap/xml.h"

/* Length of the valid UTF-8 sequence at s, or 0 when it is not one. */
static int utf8_len(const unsigned char *s)
{
	int n;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and beyond U+10FFFF are not UTF-8. */
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	/* U+FFFE and U+FFFF are not XML characters. */
	if (cp == 0xfffe || cp == 0xffff)
		return 0;
	return n;
}

void heatmap_xml_puts(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		int n = utf8_len(p);

		if (!n) {
			fputs("\xef\xbf\xbd", fp);
			p++;
			continue;
		}
		if (n > 1) {
			fwrite(p, 1, n, fp);
			p += n;
			continue;
		}
		switch (*p) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		case '\'': fputs("&apos;", fp); break;
		default:
			if (*p >= 0x20 || *p == '\t')
				fputc(*p, fp);
		}
		p++;
	}
}

void heatmap_json_puts(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		int n = utf8_len(p);

		if (!n) {
			fputs("\\ufffd", fp);
			p++;
			continue;
		}
		if (n > 1) {
			fwrite(p, 1, n, fp);
			p += n;
			continue;
		}
		if (*p == '"' || *p == '\\')
			fprintf(fp, "\\%c", *p);
		else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&' || *p == 0x7f)
			fprintf(fp, "\\u%04x", *p);
		else
			fputc(*p, fp);
		p++;
	}
}
