/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Whole writes: write(2) may take less than asked, or be interrupted. */
#ifndef EMBER_LIB_IO_H
#define EMBER_LIB_IO_H

#include <stddef.h>

/* Writes all size bytes of buf to fd; 0, or -errno (-EIO if write(2) took nothing). */
int io_write_all(int fd, const void *buf, size_t size);

#endif
