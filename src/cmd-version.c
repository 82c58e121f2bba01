// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember version [--build-options]: the version, and with --build-options
 * what the build has, in perf's layout ("%22s: [ on  ]  # MACRO"). Each
 * row is on when the Makefile defined its macro, which it does when the
 * compiler finds the header the code uses (see FEATURES there).
 */
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>
#include "builtin.h"
#include "util/parse-options.h"

struct build_option {
	const char *name;
	const char *macro;
	bool on;
};

static const struct build_option build_options[] = {
	/* libdw: source lines, inline frames, debuginfo lookups */
	{ "dwarf", "HAVE_DWARF_SUPPORT",
#ifdef HAVE_DWARF_SUPPORT
	  true
#endif
	},
	{ "libelf", "HAVE_LIBELF_SUPPORT",
#ifdef HAVE_LIBELF_SUPPORT
	  true
#endif
	},
	/* unwinding --call-graph dwarf stack copies (lib/unwind): libdwfl, perf's macro */
	{ "libdw-dwarf-unwind", "HAVE_DWARF_SUPPORT",
#ifdef HAVE_DWARF_SUPPORT
	  true
#endif
	},
	{ "libtraceevent", "HAVE_LIBTRACEEVENT",
#ifdef HAVE_LIBTRACEEVENT
	  true
#endif
	},
	/* record -z and COMPRESSED records; libzstd.so.1 is loaded when needed */
	{ "zstd", "HAVE_ZSTD_SUPPORT",
#ifdef HAVE_ZSTD_SUPPORT
	  true
#endif
	},
	/* C++ and Rust names demangled as Debian's perf does */
	{ "libiberty", "HAVE_LIBIBERTY",
#ifdef HAVE_LIBIBERTY
	  true
#endif
	},
	/* nothing in ember uses this yet: BPF counters */
	{ "bpf", "HAVE_LIBBPF_SUPPORT",
#ifdef HAVE_LIBBPF_SUPPORT
	  true
#endif
	},
	/* ember annotate's disassembly */
	{ "libcapstone", "HAVE_LIBCAPSTONE_SUPPORT",
#ifdef HAVE_LIBCAPSTONE_SUPPORT
	  true
#endif
	},
};

#define NR_BUILD_OPTIONS (sizeof(build_options) / sizeof(build_options[0]))

/* perf colours on green and OFF red on a terminal. */
static void print_build_options(FILE *fp, bool color)
{
	for (size_t i = 0; i < NR_BUILD_OPTIONS; i++) {
		const struct build_option *o = &build_options[i];
		const char *status = o->on ? "on" : "OFF";

		fprintf(fp, "%22s: [ ", o->name);
		if (color)
			fprintf(fp, "%s%-3s\033[m", o->on ? "\033[32m" : "\033[31m", status);
		else
			fprintf(fp, "%-3s", status);
		fprintf(fp, " ]  # %s\n", o->macro);
	}
}

int cmd_version(int argc, const char **argv)
{
	static const char *const usage[] = { "ember version [<options>]", NULL };
	bool build = false;
	const struct option options[] = {
		OPT_BOOLEAN(0, "build-options", &build, "display the build options"),
		OPT_END(),
	};
	int nargs = parse_options(argc, argv, options, usage, 0);

	if (parse_options_exit_code(nargs) >= 0)
		return parse_options_exit_code(nargs);
	printf("ember version %s\n", EMBER_VERSION);
	if (build)
		print_build_options(stdout, isatty(STDOUT_FILENO));
	return 0;
}
