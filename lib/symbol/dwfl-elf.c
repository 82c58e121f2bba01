// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <string.h>
#include "symbol/dwfl-elf.h"

static const Dwfl_Callbacks offline_cb = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

Dwfl *dwfl_elf__open(const char *path)
{
	Dwfl *dwfl = dwfl_begin(&offline_cb);

	if (!dwfl)
		return NULL;
	dwfl_report_begin(dwfl);
	if (!dwfl_report_elf(dwfl, path, path, -1, 0, true)) {
		dwfl_end(dwfl);
		return NULL;
	}
	dwfl_report_end(dwfl, NULL, NULL);
	return dwfl;
}

/*
 * The file binutils' addr2line (2.40) names for line l: in a DWARF 5 line
 * table it takes file 1 for file 0, the unit's own file, where GCC
 * usually repeats it; where GCC does not (a .c that includes the code of
 * a .h or of another .c: glibc's libc-start.c, wcsxfrm.c), addr2line
 * names the unit's file with the line number of the included one. Before
 * DWARF 5, libdw's file 0 is a "???" placeholder.
 */
const char *dwfl_elf__line_file(Dwfl_Line *l, const char *file)
{
	Dwarf_Addr bias;
	Dwarf_Line *dl = dwfl_dwarf_line(l, &bias);
	Dwarf_Files *files;
	const char *unit;
	size_t idx;

	if (!dl || dwarf_line_file(dl, &files, &idx) || idx != 1)
		return file;
	unit = dwarf_filesrc(files, 0, NULL, NULL);
	return unit && strcmp(unit, "???") ? unit : file;
}
