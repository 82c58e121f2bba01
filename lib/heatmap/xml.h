/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Escaping for the SVG and HTML writers. */
#ifndef EMBER_LIB_HEATMAP_XML_H
#define EMBER_LIB_HEATMAP_XML_H

#include <stdio.h>

/* s with & < > " ' as entities, and control bytes other than tab dropped (XML forbids them). */
void heatmap_xml_puts(FILE *fp, const char *s);
/*
 * s as the body of a JSON string (no quotes), safe inside an HTML
 * <script>: < > & as \u escapes, control bytes escaped, bytes that are
 * not UTF-8 replaced by U+FFFD so the page's parser takes it.
 */
void heatmap_json_puts(FILE *fp, const char *s);

#endif
