/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The FlameScope page's style and script, as C strings (html-page.c). */
#ifndef EMBER_LIB_HEATMAP_HTML_PAGE_H
#define EMBER_LIB_HEATMAP_HTML_PAGE_H

extern const char heatmap_html_style[];
extern const char heatmap_html_script[];

#endif
