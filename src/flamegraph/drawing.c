// SPDX-License-Identifier: GPL-2.0-only
/* ember flamegraph's drawing options (flamegraph.pl's), checked and turned into SVG options. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "flamegraph/flamegraph.h"

/* --minwidth: pixels, or a percentage of the total with a trailing '%'. */
static int parse_minwidth(const char *arg, double *v, bool *percent)
{
	char *end;

	errno = 0;
	*v = strtod(arg, &end);
	*percent = *end == '%';
	if (*percent)
		end++;
	if (errno || end == arg || *end || !isfinite(*v) || *v < 0 || (*percent && *v > 100)) {
		fprintf(stderr, "ember flamegraph: --minwidth expects pixels (0.1) or a percentage "
				"(0.5%%), not '%s'\n",
			arg);
		return -1;
	}
	return 0;
}

/* --colors: a palette name; -1 after saying which ones there are. */
static int parse_palette(const char *arg, enum ember_flame_palette *palette)
{
	int p = ember_flame_palette__parse(arg);

	if (p < 0) {
		fprintf(stderr, "ember flamegraph: unknown palette '%s' (hot, mem, io, wakeup, "
				"chain, java, js, perl, red, green, blue, aqua, yellow, purple, orange)\n",
			arg);
		return -1;
	}
	*palette = p;
	return 0;
}

int fg_svg_opts__init(struct ember_flame_svg_opts *so, const struct fg_opts *o)
{
	*so = (struct ember_flame_svg_opts){
		.sz = sizeof(*so),
		.title = o->title,
		.subtitle = o->subtitle,
		.countname = o->countname,
		.nametype = o->nametype,
		.fonttype = o->fonttype,
		.width = o->width,
		.height = o->height,
		.fontsize = o->fontsize,
		.fontwidth = o->fontwidth,
		.minwidth = -1,
		.inverted = o->inverted,
		.negate = o->negate,
		.total = o->total,
		.notes = o->notes,
		.bgcolors = o->bgcolors,
		.encoding = o->encoding,
		.factor = o->factor,
		.random_colors = o->random_colors,
	};
	if (o->minwidth && parse_minwidth(o->minwidth, &so->minwidth, &so->minwidth_percent))
		return 2;
	if (o->colors && parse_palette(o->colors, &so->palette))
		return 2;
	if (o->diff && !o->title)
		so->title = "Differential Flame Graph";
	if (o->bgcolors) {
		char c1[8], c2[8];

		if (ember_flame_bgcolors__parse(o->bgcolors, c1, c2)) {
			fprintf(stderr, "ember flamegraph: --bgcolors takes yellow, blue, green, grey "
					"or #rrggbb, not '%s'\n",
				o->bgcolors);
			return 2;
		}
	}
	if (o->encoding && (!*o->encoding || strpbrk(o->encoding, "\"<>&' \t"))) {
		fprintf(stderr, "ember flamegraph: --encoding expects an encoding name like "
				"ISO-8859-1, not '%s'\n",
			o->encoding);
		return 2;
	}
	if (o->nameattr) {
		unsigned long bad = 0;

		so->nameattr = ember_flame_nameattr__read(o->nameattr, &bad);
		if (!so->nameattr) {
			if (errno == EINVAL)
				fprintf(stderr, "ember flamegraph: %s:%lu: not 'name<TAB>key=value"
						"<TAB>...'\n",
					o->nameattr, bad);
			else
				fprintf(stderr, "ember flamegraph: cannot read %s: %s\n", o->nameattr,
					strerror(errno));
			return 1;
		}
	}
	return 0;
}

void fg_svg_opts__exit(struct ember_flame_svg_opts *so)
{
	ember_flame_palette_map__delete(so->palette_map);
	so->palette_map = NULL;
	ember_flame_nameattr__delete((struct ember_flame_nameattr *)so->nameattr);
	so->nameattr = NULL;
}
