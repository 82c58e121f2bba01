/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Symbols: which binary and which function an address falls in, named
 * exactly as perf report and perf script name them.
 *
 *   dso      ── address → symbol (ELF .symtab/.dynsym, debug files,
 *               kallsyms, /tmp/perf-PID.map, the vdso), loaded lazily, once
 *   symbol   ── name (demangled as perf shows it), start, end, binding
 *
 * A dso is opened on its own (ember_dso__open()) or handed out by a
 * machine (<ember/machine.h>), which places dsos in processes' address
 * spaces. Names and symbols live as long as their dso.
 */
#ifndef EMBER_SYMBOL_H
#define EMBER_SYMBOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ember/common.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ember_dso;
struct ember_symbol;

#define EMBER_BUILD_ID_MAX 20

/* ---- options ------------------------------------------------------------ */

/*
 * Where symbols come from. Zero-initialise, set sz = sizeof(opts), then
 * the fields you need; a NULL opts pointer means all defaults.
 */
struct ember_symbol_opts {
	size_t sz;
	/* Prefix for every binary and debug-file path, as perf --symfs. */
	const char *symfs;
	/* Build-id cache as perf record fills it; NULL: $HOME/.debug, "": none. */
	const char *buildid_dir;
	/* Kernel symbols; NULL: /proc/kallsyms, "": no kernel symbols. */
	const char *kallsyms;
	/* Keep C++/Rust names mangled (perf --no-demangle). */
	bool no_demangle;
	/* Demangle with parameters, as perf -v does ("ns::f(int)" not "ns::f"). */
	bool demangle_params;
	/*
	 * Keep every name of an address (perf probe's allow_aliases: "free"
	 * beside "__libc_free"), for finding symbols by name; lookups by
	 * address then see one of them.
	 */
	bool allow_aliases;
};

/* ---- symbols ------------------------------------------------------------ */

/*
 * The symbol's name, demangled as perf shows it. Owned by the dso.
 * Names are demangled on first use: two threads asking for the same
 * symbol's name for the first time need a lock of their own.
 */
EMBER_API const char *ember_symbol__name(const struct ember_symbol *sym);
/*
 * Start and end (exclusive) in the dso's address space, the space of
 * ember_addr_location.addr: file offsets for ELF binaries, absolute
 * addresses for the kernel and JIT maps. A zero-size symbol that perf
 * could not extend has end == start and matches its start only.
 */
EMBER_API uint64_t ember_symbol__start(const struct ember_symbol *sym);
EMBER_API uint64_t ember_symbol__end(const struct ember_symbol *sym);
/* ELF binding (STB_GLOBAL, STB_LOCAL, STB_WEAK) and type (STT_FUNC, ...). */
EMBER_API int ember_symbol__binding(const struct ember_symbol *sym);
EMBER_API int ember_symbol__type(const struct ember_symbol *sym);

/* ---- dsos --------------------------------------------------------------- */

/*
 * Open one binary on its own, outside any machine, e.g. to list or look
 * up its symbols. Symbols load on first use, with the same search as a
 * machine's (debuglink, build-id cache, /usr/lib/debug). Returns NULL
 * with errno set. Free with ember_dso__delete().
 */
EMBER_API struct ember_dso *ember_dso__open(const char *path, const struct ember_symbol_opts *opts);
/* Frees a dso from ember_dso__open(); NULL is fine. Never for a machine's dsos. */
EMBER_API void ember_dso__delete(struct ember_dso *dso);

/* As perf script -F dso prints it: "/usr/lib/x86_64-linux-gnu/libc.so.6", "[vdso]". */
EMBER_API const char *ember_dso__name(const struct ember_dso *dso);
/* As perf report's Shared Object column: "libc.so.6", "[kernel.kallsyms]". */
EMBER_API const char *ember_dso__short_name(const struct ember_dso *dso);
/*
 * The file symbols were read from (a debug file, the binary, a build-id
 * cache entry); NULL before loading or when none was found.
 */
EMBER_API const char *ember_dso__symsrc_path(struct ember_dso *dso);
/* Copies the build-id into buf; returns its size (0: none known). */
EMBER_API size_t ember_dso__build_id(const struct ember_dso *dso, uint8_t buf[EMBER_BUILD_ID_MAX]);
/*
 * Loads the symbols if not yet done. Returns how many there are, or a
 * negative errno (-ENOENT no file, -ENODATA no symbols in it, -EACCES
 * kernel addresses hidden by kptr_restrict, -EILSEQ build-id mismatch).
 */
EMBER_API int ember_dso__load(struct ember_dso *dso);
/* The symbol at addr (dso address space, see ember_symbol__start), or NULL. */
EMBER_API const struct ember_symbol *ember_dso__find_symbol(struct ember_dso *dso, uint64_t addr);
/* Symbols sorted by start, for listing: idx in [0, ember_dso__load()). */
EMBER_API const struct ember_symbol *ember_dso__symbol(struct ember_dso *dso, size_t idx);
/*
 * Converts between the ELF virtual addresses nm/objdump print and the
 * dso address space, through the PT_LOAD program headers. Identity for
 * the kernel, JIT maps and anything that is not an ELF file.
 */
EMBER_API uint64_t ember_dso__vaddr_to_addr(struct ember_dso *dso, uint64_t vaddr);
EMBER_API uint64_t ember_dso__addr_to_vaddr(struct ember_dso *dso, uint64_t addr);

/*
 * Which file a dso is, as an MMAP2 record says (ember_machine__process_mmap2()
 * in <ember/machine.h>); zero fields mean unknown.
 */
struct ember_dso_id {
	uint32_t maj;
	uint32_t min;
	uint64_t ino;
	uint64_t ino_generation;
	uint8_t build_id[EMBER_BUILD_ID_MAX];
	uint8_t build_id_size; /* 0: none (not PERF_RECORD_MISC_MMAP_BUILD_ID) */
};

/* ---- source lines ------------------------------------------------------- */

/*
 * Source lines of addresses, as perf 6.1 (built without libbfd) gets
 * them: it asks `addr2line -e FILE -i -f` and keeps the first answer's
 * "file:line". Here the same answer comes from elfutils: the DWARF line
 * table, and where that knows nothing, binutils' symbol-table fallback
 * (the nearest function symbol, named after the STT_FILE before it when
 * it is local; line 0). Each file is opened once and kept.
 */
struct ember_srclines;

/* An empty set of files; NULL on ENOMEM. Free with ember_srclines__delete(). */
EMBER_API struct ember_srclines *ember_srclines__new(void);
/* Frees the set and every file and name it kept; NULL is fine. */
EMBER_API void ember_srclines__delete(struct ember_srclines *s);
/*
 * addr2line's first location for vaddr (an ELF virtual address) in the
 * file at path. Returns 1 with *file (the name as DWARF or the symbol
 * table spells it, NULL for addr2line's "??"; owned by s, valid until
 * ember_srclines__delete()) and *line (0 for addr2line's "?"); 0 when
 * addr2line would print "??:0" (nothing known, or no ELF file there); a
 * negative errno on failure.
 */
EMBER_API int ember_srclines__find(struct ember_srclines *s, const char *path, uint64_t vaddr,
				   const char **file, unsigned int *line);
/*
 * The address perf asks addr2line about (perf's map__rip_2objdump(at)),
 * for a map of dso in which one location was recorded at ip and is addr
 * dso-relative: for an executable linked at fixed addresses (whose
 * symbols perf moves to file offsets) the map's start minus its offset is
 * added back; other dsos take at as it is.
 */
EMBER_API uint64_t ember_dso__objdump_addr(struct ember_dso *dso, uint64_t ip, uint64_t addr,
					   uint64_t at);

/* ---- names -------------------------------------------------------------- */

/*
 * Demangles a C++ or Rust (legacy and v0) name as perf does (without
 * parameters unless `params`). Returns a malloc'd string the caller frees,
 * or NULL when the name is not mangled or ember was built without a
 * demangler.
 */
EMBER_API char *ember_demangle(const char *name, bool params);

#ifdef __cplusplus
}
#endif

#endif
