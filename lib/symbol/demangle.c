// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perf 6.1 as Debian builds it demangles with libiberty's cplus_demangle()
 * and no options: C++ names lose their parameters ("ns::K::spin"), Rust
 * legacy names their hash ("r::inner::W<T>::spin"), Rust v0 names come out
 * as "<r::inner::W<u32>>::spin". Using the same library gives the same
 * names. Builds without libiberty (no -DHAVE_LIBIBERTY -liberty) keep
 * names mangled, as perf built with NO_DEMANGLE does.
 */
#include <stdlib.h>
#include <ember/symbol.h>
#include "symbol/demangle.h"

#ifdef HAVE_LIBIBERTY
#include <libiberty/demangle.h>

char *demangle_sym(const char *name, enum demangle_mode mode)
{
	if (mode == DEMANGLE_NONE || !name || !*name)
		return NULL;
	return cplus_demangle(name, mode == DEMANGLE_PARAMS ? DMGL_PARAMS | DMGL_ANSI : DMGL_NO_OPTS);
}

bool demangle__available(void)
{
	return true;
}
#else
char *demangle_sym(const char *name, enum demangle_mode mode)
{
	(void)name;
	(void)mode;
	return NULL;
}

bool demangle__available(void)
{
	return false;
}
#endif

char *ember_demangle(const char *name, bool params)
{
	return demangle_sym(name, params ? DEMANGLE_PARAMS : DEMANGLE_NAME);
}
