/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Where the kernel's code is read from, as perf annotate looks for it: a
 * vmlinux (the one given, the build-id cache's, perf's vmlinux path) with
 * the kernel's build-id, else /proc/kcore (an ELF core file of the
 * running kernel: its PT_LOAD segments by virtual address).
 */
#ifndef EMBER_ANNOTATE_KERNEL_CODE_H
#define EMBER_ANNOTATE_KERNEL_CODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <gelf.h>

struct ember_dso;

struct kernel_code {
	char *path;		/* malloc'd */
	bool kcore;		/* path is /proc/kcore: no sections, no symbols */
	/*
	 * What to subtract from a recorded kernel address for the file's:
	 * the recording's ref_reloc symbol (_text) less the vmlinux's (KASLR)
	 */
	uint64_t reloc;
};

/*
 * Finds the kernel's code for dso (the kernel's): vmlinux when given
 * (else the build-id cache, then perf's vmlinux path, skipped with
 * ignore_vmlinux), each used only with dso's build-id when dso has one;
 * else kcore_path when it is readable (NULL: /proc/kcore). 0, -EOPNOTSUPP
 * (none), -ENOMEM. Free kc->path with kernel_code__exit().
 */
int kernel_code__find(struct kernel_code *kc, const struct ember_dso *dso, const char *vmlinux,
		      bool ignore_vmlinux, const char *kcore_path);
void kernel_code__exit(struct kernel_code *kc);

/*
 * Copies [vaddr, vaddr + len) of a core file (kcore) from its PT_LOAD
 * segments into buf. 0, or -ENODATA when a byte is in none.
 */
int kernel_code__read_core(Elf *elf, uint64_t vaddr, uint8_t *buf, size_t len);

#endif
