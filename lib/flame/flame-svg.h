/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Pieces of the SVG writer. */
#ifndef EMBER_LIB_FLAME_SVG_H
#define EMBER_LIB_FLAME_SVG_H

/* The embedded JavaScript (svg-script.c); expects `cfg` defined before it. */
extern const char flame_svg_script[];

#endif
