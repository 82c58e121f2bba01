/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* C++ and Rust demangling, as perf does it (libiberty's cplus_demangle). */
#ifndef EMBER_LIB_DEMANGLE_H
#define EMBER_LIB_DEMANGLE_H

#include <stdbool.h>

enum demangle_mode {
	DEMANGLE_NONE,		/* keep names as they are */
	DEMANGLE_NAME,		/* "ns::f", perf's default */
	DEMANGLE_PARAMS,	/* "ns::f(int)", perf -v */
};

/*
 * Returns the demangled name (malloc'd, the caller frees it), or NULL when
 * name is not mangled, mode is DEMANGLE_NONE or there is no demangler.
 */
char *demangle_sym(const char *name, enum demangle_mode mode);
/* True when this build can demangle (it was built with libiberty). */
bool demangle__available(void);

#endif
