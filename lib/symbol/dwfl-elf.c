// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
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
