/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* GNU build-ids (NT_GNU_BUILD_ID notes) and .gnu_debuglink names. */
#ifndef EMBER_LIB_BUILD_ID_H
#define EMBER_LIB_BUILD_ID_H

#include <stddef.h>
#include <stdint.h>
#include <gelf.h>

#define BUILD_ID_MAX 20
#define BUILD_ID_HEX_MAX (BUILD_ID_MAX * 2 + 1)

/* Reads elf's build-id into buf[size]; returns its length, or -ENODATA when it has none. */
int build_id__read_elf(Elf *elf, uint8_t *buf, size_t size);
/* Same, for the ELF file at path; -errno when it cannot be opened. */
int build_id__read_file(const char *path, uint8_t *buf, size_t size);
/* Same, for a raw notes file such as /sys/kernel/notes. */
int build_id__read_notes_file(const char *path, uint8_t *buf, size_t size);
/* Writes id as lower-case hex into out[BUILD_ID_HEX_MAX]; returns out. */
char *build_id__hex(const uint8_t *id, size_t size, char *out);
/* Copies elf's .gnu_debuglink file name into buf[size]; 0, or -ENODATA without one. */
int elf__read_debuglink(Elf *elf, char *buf, size_t size);

#endif
