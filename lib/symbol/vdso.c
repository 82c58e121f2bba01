// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The [vdso]: not a file anyone can open, so perf takes the image mapped
 * into its own process (the kernel maps the same one into every process
 * of the same ABI) and reads its symbols from there. So does ember,
 * without the temporary file: libelf reads the copy in memory. A
 * recorded build-id that is not ours is looked for in the build-id cache
 * (<buildid_dir>/[vdso]/<id>/vdso, where perf record puts it).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/log.h"
#include "symbol/build-id.h"
#include "symbol/symbol-elf.h"

void *vdso__copy_self(size_t *size)
{
	char line[512];
	void *image = NULL;
	FILE *f = fopen("/proc/self/maps", "re");

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		unsigned long start, end;

		if (!strstr(line, "[vdso]") || sscanf(line, "%lx-%lx", &start, &end) != 2)
			continue;
		image = malloc(end - start);
		if (image) {
			memcpy(image, (void *)start, end - start);
			*size = end - start;
		}
		break;
	}
	fclose(f);
	return image;
}

static int vdso__load_from(struct ember_dso *dso, struct symsrc *ss)
{
	int ret = symsrc__read_segments(ss, &dso->segs, &dso->nr_segs);

	if (ret)
		return ret;
	ret = symsrc__load_symbols(&dso->symtab, ss, ss, dso->segs, dso->nr_segs,
				   dso->conf->demangle, false);
	if (!dso->id.build_id_size) {
		uint8_t bid[BUILD_ID_MAX];
		int n = build_id__read_elf(ss->elf, bid, sizeof(bid));

		if (n > 0)
			dso__set_build_id(dso, bid, n);
	}
	return ret;
}

int dso__load_vdso(struct ember_dso *dso)
{
	const struct sym_conf *conf = dso->conf;
	char path[PATH_MAX], hex[BUILD_ID_HEX_MAX];
	struct symsrc ss;
	size_t size = 0;
	void *image;
	int ret;

	image = vdso__copy_self(&size);
	if (image) {
		ret = symsrc__open_mem(&ss, image, size, dso->id.build_id, dso->id.build_id_size);
		if (!ret) {
			ret = vdso__load_from(dso, &ss);
			dso->symsrc_path = strdup("[vdso]");
			symsrc__close(&ss);
			free(image);
			return ret;
		}
		free(image);
	}
	if (!dso->id.build_id_size || !conf->buildid_dir[0])
		return -ENOENT;
	build_id__hex(dso->id.build_id, dso->id.build_id_size, hex);
	snprintf(path, sizeof(path), "%s/[vdso]/%s/vdso", conf->buildid_dir, hex);
	ret = symsrc__open(&ss, path, dso->id.build_id, dso->id.build_id_size);
	if (ret) {
		pr_debug("[vdso]: recorded build-id %s is not this kernel's and not in %s\n", hex,
			 conf->buildid_dir);
		return ret;
	}
	ret = vdso__load_from(dso, &ss);
	dso->symsrc_path = strdup(path);
	symsrc__close(&ss);
	return ret;
}
