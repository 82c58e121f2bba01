// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "symbol/build-id.h"

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

/* Looks for a GNU build-id note in one note section's or segment's data. */
static int build_id__from_notes(Elf_Data *data, uint8_t *buf, size_t size)
{
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nhdr;

	while ((off = gelf_getnote(data, off, &nhdr, &name_off, &desc_off)) > 0) {
		const char *name = (const char *)data->d_buf + name_off;
		size_t n;

		if (nhdr.n_type != NT_GNU_BUILD_ID || nhdr.n_namesz != sizeof("GNU") ||
		    memcmp(name, "GNU", sizeof("GNU")))
			continue;
		n = nhdr.n_descsz < size ? nhdr.n_descsz : size;
		memcpy(buf, (const char *)data->d_buf + desc_off, n);
		return n;
	}
	return -ENODATA;
}

int build_id__read_elf(Elf *elf, uint8_t *buf, size_t size)
{
	Elf_Scn *scn = NULL;
	size_t phnum;
	int ret;

	/* Sections first (what perf reads), then PT_NOTE segments for section-less images. */
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr shdr;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (data && (ret = build_id__from_notes(data, buf, size)) > 0)
			return ret;
	}
	if (elf_getphdrnum(elf, &phnum))
		return -ENODATA;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr phdr;
		Elf_Data *data;

		if (!gelf_getphdr(elf, i, &phdr) || phdr.p_type != PT_NOTE)
			continue;
		data = elf_getdata_rawchunk(elf, phdr.p_offset, phdr.p_filesz, ELF_T_NHDR);
		if (data && (ret = build_id__from_notes(data, buf, size)) > 0)
			return ret;
	}
	return -ENODATA;
}

int build_id__read_file(const char *path, uint8_t *buf, size_t size)
{
	int fd, ret;
	Elf *elf;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF)
		ret = -ENOEXEC;
	else
		ret = build_id__read_elf(elf, buf, size);
	elf_end(elf);
	close(fd);
	return ret;
}

int build_id__read_notes_file(const char *path, uint8_t *buf, size_t size)
{
	char notes[4096];
	Elf_Data data = { .d_buf = notes, .d_type = ELF_T_NHDR, .d_version = EV_CURRENT };
	ssize_t n;
	int fd;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, notes, sizeof(notes));
	close(fd);
	if (n <= 0)
		return -ENODATA;
	data.d_size = n;
	return build_id__from_notes(&data, buf, size);
}

char *build_id__hex(const uint8_t *id, size_t size, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	if (size > BUILD_ID_MAX)
		size = BUILD_ID_MAX;
	for (i = 0; i < size; i++) {
		out[2 * i] = digits[id[i] >> 4];
		out[2 * i + 1] = digits[id[i] & 15];
	}
	out[2 * i] = '\0';
	return out;
}

int elf__read_debuglink(Elf *elf, char *buf, size_t size)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return -ENODATA;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr shdr;
		const char *name;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &shdr))
			continue;
		name = elf_strptr(elf, shstrndx, shdr.sh_name);
		if (!name || strcmp(name, ".gnu_debuglink"))
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || !data->d_size || shdr.sh_type == SHT_NOBITS)
			return -ENODATA;
		/* The section starts with the NUL-terminated file name (then a CRC). */
		if (!memchr(data->d_buf, '\0', data->d_size) ||
		    strlen(data->d_buf) + 1 > size || !*(const char *)data->d_buf)
			return -ENODATA;
		strcpy(buf, data->d_buf);
		return 0;
	}
	return -ENODATA;
}
