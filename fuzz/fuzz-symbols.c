// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the symbol sources that are text from outside, read
 * by ember's own parsers. The first byte picks one:
 *   0: a kallsyms file (perf report --kallsyms FILE, or a machine's
 *      /proc/kallsyms): kernel maps created from it, addresses resolved;
 *   1: a JIT map, /tmp/perf-PID.map (Node --perf-basic-prof, Java
 *      perf-map-agent), behind an executable anonymous map;
 *   2: a symbol name demangled (C++ and Rust, legacy and v0), names
 *      come from any binary; the second byte asks for parameters.
 * The addresses resolved come from the input too, so the lookups reach
 * the symbols it defines.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <ember/machine.h>

static char kallsyms_path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd;

	(void)argc;
	(void)argv;
	strcpy(kallsyms_path, "/tmp/ember-fuzz-kallsyms-XXXXXX");
	fd = mkstemp(kallsyms_path);
	if (fd < 0)
		abort();
	close(fd);
	return 0;
}

static void write_file(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "w");

	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f))
		abort();
}

/* Up to eight addresses: the input's bytes read as numbers, near base. */
static void lookups(struct ember_machine *m, pid_t pid, uint8_t cpumode, uint64_t base,
		    const uint8_t *data, size_t size)
{
	struct ember_addr_location al;
	volatile size_t len = 0;

	for (size_t i = 0; i < 8; i++) {
		uint64_t off = 0;

		if (size >= (i + 1) * 4)
			memcpy(&off, data + i * 4, 4);
		ember_machine__resolve(m, pid, pid, cpumode, base + (off & 0xffffff), &al);
		if (al.sym_name)
			len += strlen(al.sym_name);	/* read whole: ASan checks its end */
	}
}

static void kallsyms(const uint8_t *data, size_t size)
{
	struct ember_symbol_opts o = { .sz = sizeof(o), .kallsyms = kallsyms_path,
				       .buildid_dir = "" };
	struct ember_machine *m;

	write_file(kallsyms_path, data, size);
	m = ember_machine__new(&o);
	if (!m)
		abort();
	ember_machine__create_kernel_maps(m);
	lookups(m, -1, 1 /* PERF_RECORD_MISC_KERNEL */, 0xffffffff81000000ULL, data, size);
	ember_machine__delete(m);
}

static void perf_map(const uint8_t *data, size_t size)
{
	struct ember_symbol_opts o = { .sz = sizeof(o), .kallsyms = "", .buildid_dir = "" };
	pid_t pid = getpid();
	char path[64];
	struct ember_machine *m;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", pid);
	write_file(path, data, size);
	m = ember_machine__new(&o);
	if (!m)
		abort();
	ember_machine__process_mmap2(m, 2 /* PERF_RECORD_MISC_USER */, pid, pid, 0x10000, 1 << 24,
				     0, PROT_READ | PROT_EXEC, MAP_PRIVATE, "//anon", NULL);
	lookups(m, pid, 2, 0x10000, data, size);
	ember_machine__delete(m);
	unlink(path);
}

static void demangle(const uint8_t *data, size_t size)
{
	char *name = malloc(size + 1), *out;

	if (!name)
		abort();
	memcpy(name, data + (size > 0), size - (size > 0));
	name[size - (size > 0)] = '\0';
	out = ember_demangle(name, size && (data[0] & 1));
	free(out);
	free(name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	switch (data[0] % 3) {
	case 0:
		kallsyms(data + 1, size - 1);
		break;
	case 1:
		perf_map(data + 1, size - 1);
		break;
	default:
		demangle(data + 1, size - 1);
		break;
	}
	return 0;
}
