/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Text into XML, HTML and JavaScript. Names come from binaries and from
 * files anyone can write: whatever bytes they hold, an SVG must stay
 * well-formed UTF-8 XML and a script must stay one string. Each mode is
 * the exact bytes one writer has always produced (the SVGs and pages are
 * compared byte for byte with the reference tools').
 */
#ifndef EMBER_CORE_ESCAPE_H
#define EMBER_CORE_ESCAPE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum escape_mode {
	/*
	 * XML text or attribute value: & < > " ' as entities, tab, LF and
	 * CR as character references (an attribute would fold them into
	 * spaces), other control characters and bytes that are not UTF-8
	 * (or not XML characters) as U+FFFD. The flame graph's.
	 */
	ESCAPE_XML,
	/*
	 * As ESCAPE_XML, byte by byte without UTF-8 decoding (flamegraph.pl
	 * --bytes): control bytes other than tab, LF, CR as "&#xFFFD;".
	 */
	ESCAPE_XML_BYTES,
	/*
	 * XML text: & < > " ' as entities, tab kept, other control
	 * characters dropped, bytes that are not UTF-8 as U+FFFD. The
	 * heat map's SVG and HTML.
	 */
	ESCAPE_XML_TEXT,
	/*
	 * The body of a JavaScript string inside <![CDATA[ ]]>: control
	 * characters, " \ < > & ] U+2028 U+2029 as \uXXXX (nothing spells
	 * "]]>" or looks like markup), bytes that are not UTF-8 as \ufffd.
	 */
	ESCAPE_JS,
	/*
	 * The body of a JSON string inside an HTML <script>: " and \ as \"
	 * and \\, control characters, DEL, < > & as \u00XX, bytes that are
	 * not UTF-8 as \ufffd.
	 */
	ESCAPE_JSON,
	/*
	 * The body of a JSON string, byte by byte without UTF-8 decoding:
	 * " and \ as \" and \\, control bytes as \u00XX, every other byte
	 * as it is. perf stat -j's.
	 */
	ESCAPE_JSON_BYTES,
};

/* Writes s[0..len) to fp escaped as mode says. */
void escape_write(FILE *fp, const char *s, size_t len, enum escape_mode mode);
/* escape_write() of a NUL-terminated string. */
void escape_puts(FILE *fp, const char *s, enum escape_mode mode);

/*
 * The length of the valid UTF-8 sequence at s (at most len bytes) of a
 * character XML allows (not U+FFFE, U+FFFF), its code point in *cp; 0
 * when the bytes there are not one.
 */
size_t utf8_char(const unsigned char *s, size_t len, uint32_t *cp);

#endif
