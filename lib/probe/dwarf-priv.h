/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A user binary's DWARF opened for probing: its own, or separate debug
 * information found by build-id or .gnu_debuglink (libdwfl's standard
 * finders), at the binary's own addresses; and the distance from those
 * addresses to file offsets that perf takes from .text.
 */
#ifndef EMBER_LIB_PROBE_DWARF_PRIV_H
#define EMBER_LIB_PROBE_DWARF_PRIV_H

#include <stdint.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

struct probe_dwarf {
	Dwfl *dwfl;
	Dwarf *dw;
	Dwarf_Addr bias;
	uint64_t text_delta;	/* .text's sh_addr - sh_offset: vaddr - this = file offset */
};

/*
 * Open path's DWARF. Returns 0; -ENODATA when the binary has no DWARF
 * (nor separate debug information) or is no ELF file; -errno when it
 * cannot be read.
 */
int probe_dwarf__open(struct probe_dwarf *d, const char *path);
void probe_dwarf__close(struct probe_dwarf *d);

#endif
