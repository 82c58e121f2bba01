// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Frame colours. Every palette of flamegraph.pl, coloured as its --hash
 * option does (a frame's colour depends on its name only, so the same
 * function has the same colour in every graph), plus the frame kinds of
 * mixed-mode flame graphs: kernel orange, JIT green, inlined aqua.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "flame-priv.h"

static const char *const palette_names[EMBER_FLAME_NR_PALETTES] = {
	[EMBER_FLAME_PALETTE_HOT] = "hot",	 [EMBER_FLAME_PALETTE_MEM] = "mem",
	[EMBER_FLAME_PALETTE_IO] = "io",	 [EMBER_FLAME_PALETTE_WAKEUP] = "wakeup",
	[EMBER_FLAME_PALETTE_JAVA] = "java",	 [EMBER_FLAME_PALETTE_JS] = "js",
	[EMBER_FLAME_PALETTE_PERL] = "perl",	 [EMBER_FLAME_PALETTE_RED] = "red",
	[EMBER_FLAME_PALETTE_GREEN] = "green",	 [EMBER_FLAME_PALETTE_BLUE] = "blue",
	[EMBER_FLAME_PALETTE_AQUA] = "aqua",	 [EMBER_FLAME_PALETTE_YELLOW] = "yellow",
	[EMBER_FLAME_PALETTE_PURPLE] = "purple", [EMBER_FLAME_PALETTE_ORANGE] = "orange",
	[EMBER_FLAME_PALETTE_CHAIN] = "chain",
};

int ember_flame_palette__parse(const char *name)
{
	for (int i = 0; name && i < EMBER_FLAME_NR_PALETTES; i++)
		if (!strcmp(name, palette_names[i]))
			return i;
	return -EINVAL;
}

const char *ember_flame_palette__name(enum ember_flame_palette palette)
{
	return (unsigned int)palette < EMBER_FLAME_NR_PALETTES ? palette_names[palette] : NULL;
}

/*
 * A number in [0, 1] from the first three characters of a name, early
 * ones weighing most; a "module`" prefix is skipped. This is the vector
 * hash flamegraph.pl --hash uses, so colours match its graphs.
 */
static double namehash(const unsigned char *name, size_t len)
{
	double vector = 0, weight = 1, max = 1;
	int mod = 10;

	for (size_t i = 1; i < len; i++) {
		if (name[i] == '`') {
			name += i + 1;
			len -= i + 1;
			break;
		}
	}
	for (size_t i = 0; i < len; i++) {
		int c = name[i] % mod;

		vector += ((double)c / (mod++ - 1)) * weight;
		max += weight;
		weight *= 0.70;
		if (mod > 12)
			break;
	}
	return 1 - vector / max;
}

static bool has(const char *name, const char *needle)
{
	return strstr(name, needle) != NULL;
}

/* java: "(java|javax|jdk|net|org|com|io|sun)/" at the start, after an optional 'L'. */
static bool java_package(const char *name)
{
	static const char *const pkgs[] = { "java/", "javax/", "jdk/", "net/",
					    "org/",  "com/",   "io/",  "sun/" };

	if (*name == 'L')
		name++;
	for (size_t i = 0; i < sizeof(pkgs) / sizeof(pkgs[0]); i++)
		if (!strncmp(name, pkgs[i], strlen(pkgs[i])))
			return true;
	return false;
}

/* js: a '/' followed somewhere later by ".js". */
static bool js_source(const char *name)
{
	const char *slash = strchr(name, '/');

	return slash && strstr(slash + 1, ".js");
}

/* The single-hue palette a multi palette picks for a frame. */
static enum ember_flame_palette pick_hue(enum ember_flame_palette palette, const char *name,
					 enum ember_flame_kind kind)
{
	switch (palette) {
	case EMBER_FLAME_PALETTE_HOT:
		/* flamegraph.pl's hot ignores kinds; ember tells them apart. */
		if (kind == EMBER_FLAME_KERNEL)
			return EMBER_FLAME_PALETTE_ORANGE;
		if (kind == EMBER_FLAME_JIT)
			return EMBER_FLAME_PALETTE_GREEN;
		if (kind == EMBER_FLAME_INLINE)
			return EMBER_FLAME_PALETTE_AQUA;
		return EMBER_FLAME_PALETTE_HOT;
	case EMBER_FLAME_PALETTE_WAKEUP:
		return EMBER_FLAME_PALETTE_AQUA;
	case EMBER_FLAME_PALETTE_CHAIN:
		return kind == EMBER_FLAME_WAKER ? EMBER_FLAME_PALETTE_AQUA : EMBER_FLAME_PALETTE_BLUE;
	case EMBER_FLAME_PALETTE_JAVA:
		if (kind == EMBER_FLAME_JIT)
			return EMBER_FLAME_PALETTE_GREEN;
		if (kind == EMBER_FLAME_INLINE)
			return EMBER_FLAME_PALETTE_AQUA;
		if (java_package(name) || has(name, ":::"))
			return EMBER_FLAME_PALETTE_GREEN;
		if (has(name, "::"))
			return EMBER_FLAME_PALETTE_YELLOW;
		if (kind == EMBER_FLAME_KERNEL)
			return EMBER_FLAME_PALETTE_ORANGE;
		return EMBER_FLAME_PALETTE_RED;
	case EMBER_FLAME_PALETTE_JS:
		if (kind == EMBER_FLAME_JIT)
			return has(name, "/") ? EMBER_FLAME_PALETTE_GREEN : EMBER_FLAME_PALETTE_AQUA;
		if (has(name, "::"))
			return EMBER_FLAME_PALETTE_YELLOW;
		if (js_source(name))
			return EMBER_FLAME_PALETTE_GREEN;
		if (has(name, ":"))
			return EMBER_FLAME_PALETTE_AQUA;
		if (!strcmp(name, " "))
			return EMBER_FLAME_PALETTE_GREEN;
		if (kind == EMBER_FLAME_KERNEL)
			return EMBER_FLAME_PALETTE_ORANGE;
		return EMBER_FLAME_PALETTE_RED;
	case EMBER_FLAME_PALETTE_PERL:
		if (has(name, "::"))
			return EMBER_FLAME_PALETTE_YELLOW;
		if (has(name, "Perl") || has(name, ".pl"))
			return EMBER_FLAME_PALETTE_GREEN;
		if (kind == EMBER_FLAME_KERNEL)
			return EMBER_FLAME_PALETTE_ORANGE;
		return EMBER_FLAME_PALETTE_RED;
	default:
		return palette;
	}
}

void ember_flame_palette__color(enum ember_flame_palette palette, const char *name,
				enum ember_flame_kind kind, char *buf, size_t size)
{
	size_t len = name ? strlen(name) : 0;
	unsigned char rev[256];
	size_t rlen = len < sizeof(rev) ? len : sizeof(rev);
	double v1, v2;

	if (!name)
		name = "";
	/* The reversed name only matters through its first characters: its end. */
	for (size_t i = 0; i < rlen; i++)
		rev[i] = name[len - 1 - i];
	v1 = namehash((const unsigned char *)name, len);
	v2 = namehash(rev, rlen);
	flame_palette_color_v(palette, name, kind, v1, v2, v2, buf, size);
}

void flame_palette_color_v(enum ember_flame_palette palette, const char *name,
			   enum ember_flame_kind kind, double v1, double v2, double v3, char *buf,
			   size_t size)
{
	int r = 0, g = 0, b = 0;

	if (!name)
		name = "";
	switch (pick_hue(palette, name, kind)) {
	case EMBER_FLAME_PALETTE_HOT:
		r = 205 + (int)(50 * v3);
		g = (int)(230 * v1);
		b = (int)(55 * v2);
		break;
	case EMBER_FLAME_PALETTE_MEM:
		g = 190 + (int)(50 * v2);
		b = (int)(210 * v1);
		break;
	case EMBER_FLAME_PALETTE_IO:
		r = g = 80 + (int)(60 * v1);
		b = 190 + (int)(55 * v2);
		break;
	case EMBER_FLAME_PALETTE_RED:
		r = 200 + (int)(55 * v1);
		g = b = 50 + (int)(80 * v1);
		break;
	case EMBER_FLAME_PALETTE_GREEN:
		g = 200 + (int)(55 * v1);
		r = b = 50 + (int)(60 * v1);
		break;
	case EMBER_FLAME_PALETTE_BLUE:
		b = 205 + (int)(50 * v1);
		r = g = 80 + (int)(60 * v1);
		break;
	case EMBER_FLAME_PALETTE_YELLOW:
		r = g = 175 + (int)(55 * v1);
		b = 50 + (int)(20 * v1);
		break;
	case EMBER_FLAME_PALETTE_PURPLE:
		r = b = 190 + (int)(65 * v1);
		g = 80 + (int)(60 * v1);
		break;
	case EMBER_FLAME_PALETTE_AQUA:
		r = 50 + (int)(60 * v1);
		g = b = 165 + (int)(55 * v1);
		break;
	case EMBER_FLAME_PALETTE_ORANGE:
		r = 190 + (int)(65 * v1);
		g = 90 + (int)(65 * v1);
		break;
	default:
		break;
	}
	flame_fmt_rgb(buf, size, r, g, b);
}
