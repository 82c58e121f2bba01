/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Growing arrays: the doubling every table's side array needs. */
#ifndef EMBER_CORE_ARRAY_H
#define EMBER_CORE_ARRAY_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

/*
 * Room for one more element of size bytes in *v, which holds nr of
 * *alloc: the array doubles (from 256) when full. 0, or -ENOMEM with *v
 * and *alloc unchanged.
 */
static inline int array__reserve(void **v, size_t *alloc, size_t nr, size_t size)
{
	size_t n;
	void *p;

	if (nr < *alloc)
		return 0;
	n = *alloc ? *alloc * 2 : 256;
	if (n > SIZE_MAX / size)
		return -ENOMEM;
	p = realloc(*v, n * size);
	if (!p)
		return -ENOMEM;
	*v = p;
	*alloc = n;
	return 0;
}

#endif
