// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/core's escapers: each mode's bytes for the characters it treats,
 * control characters, invalid UTF-8 (stray continuation, overlong,
 * surrogate, truncated, non-characters) and valid multibyte text.
 */
#include <stdlib.h>
#include <string.h>
#include "core/escape.h"
#include "test.h"

static const char *esc(const char *s, size_t len, enum escape_mode mode)
{
	static char *buf;
	size_t size;
	FILE *fp;

	free(buf);
	buf = NULL;
	fp = open_memstream(&buf, &size);
	if (!fp)
		return NULL;
	escape_write(fp, s, len, mode);
	fclose(fp);
	return buf;
}

#define E(s, mode) esc(s, sizeof(s) - 1, mode)

TEST(core_escape_xml)
{
	CHECK_STR(E("a&b<c>d\"e'f", ESCAPE_XML), "a&amp;b&lt;c&gt;d&quot;e&apos;f");
	CHECK_STR(E("t\tn\nr\r", ESCAPE_XML), "t&#9;n&#10;r&#13;");
	CHECK_STR(E("x\001y\x7f", ESCAPE_XML), "x\xef\xbf\xbdy\x7f");
	CHECK_STR(E("caf\xc3\xa9 \xe2\x82\xac", ESCAPE_XML), "caf\xc3\xa9 \xe2\x82\xac");
	/* invalid: each byte alone */
	CHECK_STR(E("\x80z", ESCAPE_XML), "\xef\xbf\xbdz");
	CHECK_STR(E("\xc0\xaf", ESCAPE_XML), "\xef\xbf\xbd\xef\xbf\xbd");
	CHECK_STR(E("\xed\xa0\x80", ESCAPE_XML), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	CHECK_STR(E("\xef\xbf\xbe", ESCAPE_XML), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	CHECK_STR(E("ab\xe2\x82", ESCAPE_XML), "ab\xef\xbf\xbd\xef\xbf\xbd");
	CHECK_STR(esc("a\0b", 3, ESCAPE_XML), "a\xef\xbf\xbd" "b");
	CHECK_STR(E("", ESCAPE_XML), "");
}

TEST(core_escape_xml_bytes)
{
	CHECK_STR(E("a&<>\"'", ESCAPE_XML_BYTES), "a&amp;&lt;&gt;&quot;&apos;");
	CHECK_STR(E("\t\n\r\001", ESCAPE_XML_BYTES), "&#9;&#10;&#13;&#xFFFD;");
	/* bytes as they are, valid or not */
	CHECK_STR(E("\x80\xc3\xa9\xff", ESCAPE_XML_BYTES), "\x80\xc3\xa9\xff");
}

TEST(core_escape_xml_text)
{
	CHECK_STR(E("a&b<c>d\"e'f", ESCAPE_XML_TEXT), "a&amp;b&lt;c&gt;d&quot;e&apos;f");
	/* tab kept, other controls dropped */
	CHECK_STR(E("t\tn\nr\r\001x\x7f", ESCAPE_XML_TEXT), "t\tnrx\x7f");
	CHECK_STR(E("\xff\xc3\xa9", ESCAPE_XML_TEXT), "\xef\xbf\xbd\xc3\xa9");
}

TEST(core_escape_js)
{
	CHECK_STR(E("a\"b\\c<d>e&f]g'h", ESCAPE_JS),
		  "a\\u0022b\\u005cc\\u003cd\\u003ee\\u0026f\\u005dg'h");
	CHECK_STR(E("]]>", ESCAPE_JS), "\\u005d\\u005d\\u003e");
	CHECK_STR(E("\n\001\x7f", ESCAPE_JS), "\\u000a\\u0001\x7f");
	CHECK_STR(E("\xe2\x80\xa8\xe2\x80\xa9\xc3\xa9", ESCAPE_JS), "\\u2028\\u2029\xc3\xa9");
	CHECK_STR(E("\xff" "a", ESCAPE_JS), "\\ufffda");
}

TEST(core_escape_json)
{
	CHECK_STR(E("a\"b\\c", ESCAPE_JSON), "a\\\"b\\\\c");
	CHECK_STR(E("<>&]'", ESCAPE_JSON), "\\u003c\\u003e\\u0026]'");
	CHECK_STR(E("\t\x7f", ESCAPE_JSON), "\\u0009\\u007f");
	CHECK_STR(E("\xe2\x80\xa8\xc3\xa9\xc3", ESCAPE_JSON), "\xe2\x80\xa8\xc3\xa9\\ufffd");
}

TEST(core_escape_json_bytes)
{
	CHECK_STR(E("a\"b\\c", ESCAPE_JSON_BYTES), "a\\\"b\\\\c");
	CHECK_STR(E("<>&\x7f\n", ESCAPE_JSON_BYTES), "<>&\x7f\\u000a");
	/* bytes as they are, valid UTF-8 or not */
	CHECK_STR(E("\xff\xc3\xa9\xe2\x80\xa8", ESCAPE_JSON_BYTES), "\xff\xc3\xa9\xe2\x80\xa8");
}

TEST(core_escape_utf8_char)
{
	uint32_t cp = 0;

	CHECK_EQ(utf8_char((const unsigned char *)"A", 1, &cp), 1);
	CHECK_EQ(cp, 'A');
	CHECK_EQ(utf8_char((const unsigned char *)"\xf0\x9f\x94\xa5", 4, &cp), 4);
	CHECK_EQ(cp, 0x1f525);
	CHECK_EQ(utf8_char((const unsigned char *)"\xf0\x9f\x94", 3, &cp), 0);
	CHECK_EQ(utf8_char((const unsigned char *)"\xf4\x90\x80\x80", 4, &cp), 0);
	CHECK_EQ(utf8_char((const unsigned char *)"\xe0\x80\x80", 3, &cp), 0);
}
