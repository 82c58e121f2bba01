/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The machine model: which command and which mapping a sample's
 * (pid, tid, cpumode, ip) falls in, kept from a recording's side-band
 * records as perf's machine.c keeps it.
 *
 *   machine  ── pid/tid → thread (comm, maps shared by a process's threads)
 *   thread   ── ip → map (start, end, pgoff, dso), sorted, O(log n)
 *   map      ── ip → dso-relative address (perf's al->addr), then the
 *               dso's symbol (<ember/symbol.h>)
 *
 * Two ways in: an ember_machine fed with the records of a perf.data file
 * (report, script: MMAP/MMAP2, COMM, FORK, EXIT, KSYMBOL already decoded
 * by the caller; <ember/session.h> does it for a file), or an
 * ember_symbolizer for live processes, which reads /proc/PID/maps itself.
 *
 * Lifetime: every pointer a machine hands out (threads, maps, dsos,
 * symbols, comm and name strings) stays valid until the machine is
 * deleted, even after the map is replaced by a later mmap or the thread
 * exits; a renderer may keep them in its histogram without references.
 * A machine is not thread-safe: use one per thread, or lock around it.
 */
#ifndef EMBER_MACHINE_H
#define EMBER_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <ember/common.h>
#include <ember/symbol.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ember_machine;
struct ember_thread;
struct ember_map;
struct perf_event_header;

/* ---- maps and threads --------------------------------------------------- */

EMBER_API uint64_t ember_map__start(const struct ember_map *map);
EMBER_API uint64_t ember_map__end(const struct ember_map *map);
EMBER_API uint64_t ember_map__pgoff(const struct ember_map *map);
EMBER_API struct ember_dso *ember_map__dso(const struct ember_map *map);
/* ip → dso address space, as perf's map__map_ip(). */
EMBER_API uint64_t ember_map__map_ip(const struct ember_map *map, uint64_t ip);

EMBER_API pid_t ember_thread__pid(const struct ember_thread *thread);
EMBER_API pid_t ember_thread__tid(const struct ember_thread *thread);
EMBER_API pid_t ember_thread__ppid(const struct ember_thread *thread);
/* Current comm; ":TID" until a COMM (or a FORK from a named parent) sets it. */
EMBER_API const char *ember_thread__comm(const struct ember_thread *thread);
/* True once an EXIT record was seen (the thread stays findable, as in perf). */
EMBER_API bool ember_thread__exited(const struct ember_thread *thread);
/*
 * A value that changes whenever the thread's addresses may resolve
 * differently (its maps or the kernel's changed): what was resolved
 * under one value can be reused while the value holds.
 */
EMBER_API uint64_t ember_thread__maps_gen(const struct ember_thread *thread);

/* ---- the machine -------------------------------------------------------- */

/* A new, empty machine (the host). NULL with errno on failure. */
EMBER_API struct ember_machine *ember_machine__new(const struct ember_symbol_opts *opts);
/* Frees the machine and everything it handed out. NULL is fine. */
EMBER_API void ember_machine__delete(struct ember_machine *machine);

/*
 * PERF_RECORD_MMAP2: `misc` is the record header's misc (cpumode: user
 * maps go to thread pid/tid, kernel ones to the kernel maps). The new map
 * replaces whatever part of older maps it overlaps, as the kernel does.
 * id may be NULL. An executable anonymous map ("//anon", "[heap]", ...) is
 * named /tmp/perf-PID.map and takes its symbols from that file, as perf.
 * Returns 0 or -errno.
 */
EMBER_API int ember_machine__process_mmap2(struct ember_machine *machine, uint16_t misc, pid_t pid,
					   pid_t tid, uint64_t start, uint64_t len, uint64_t pgoff,
					   uint32_t prot, uint32_t flags, const char *filename,
					   const struct ember_dso_id *id);
/* PERF_RECORD_MMAP: as mmap2, with prot PROT_EXEC unless misc has MMAP_DATA. */
EMBER_API int ember_machine__process_mmap(struct ember_machine *machine, uint16_t misc, pid_t pid,
					  pid_t tid, uint64_t start, uint64_t len, uint64_t pgoff,
					  const char *filename);
/* PERF_RECORD_COMM; misc carries PERF_RECORD_MISC_COMM_EXEC. */
EMBER_API int ember_machine__process_comm(struct ember_machine *machine, uint16_t misc, pid_t pid,
					  pid_t tid, const char *comm);
/*
 * PERF_RECORD_FORK: a new thread of the parent's process shares its maps;
 * a new process gets a copy, unless misc has PERF_RECORD_MISC_FORK_EXEC
 * (perf's mark for synthesized forks, whose mmaps follow).
 */
EMBER_API int ember_machine__process_fork(struct ember_machine *machine, uint16_t misc, pid_t pid,
					  pid_t tid, pid_t ppid, pid_t ptid);
/*
 * A side-band record as the kernel writes it (MMAP, MMAP2, COMM, FORK,
 * EXIT, KSYMBOL; native endian, its size in hdr->size), checked and
 * processed by the function of its type above; other types are left
 * alone. Returns 0, -EINVAL for a malformed record (nothing changed),
 * or the function's error.
 */
EMBER_API int ember_machine__process_event(struct ember_machine *machine,
					   const struct perf_event_header *hdr);
/* PERF_RECORD_EXIT: marks the thread exited. */
EMBER_API int ember_machine__process_exit(struct ember_machine *machine, pid_t pid, pid_t tid);
/*
 * PERF_RECORD_KSYMBOL: a kernel symbol appearing (a BPF program, a
 * trampoline) as its own map and dso named `name`, or going away when
 * flags has PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER.
 */
EMBER_API int ember_machine__process_ksymbol(struct ember_machine *machine, uint64_t addr,
					     uint32_t len, uint16_t ksym_type, uint16_t flags,
					     const char *name);
/*
 * A build-id from the perf.data header (HEADER_BUILD_ID) for a file:
 * symbols are then only taken from files with that build-id. `kernel`
 * for the kernel and modules ("[kernel.kallsyms]", module paths).
 */
EMBER_API int ember_machine__set_build_id(struct ember_machine *machine, bool kernel,
					  const char *filename, const uint8_t *build_id,
					  size_t size);
/*
 * Creates the kernel maps from the running kernel ([kernel.kallsyms]
 * from _text to _etext, a map per module in /proc/modules), as perf
 * does when no kernel MMAP record says otherwise. Called on demand by
 * the first kernel lookup; call it early to pay the cost up front.
 */
EMBER_API int ember_machine__create_kernel_maps(struct ember_machine *machine);

/* The thread, created (comm ":TID") when unknown, as perf's findnew. NULL: ENOMEM. */
EMBER_API struct ember_thread *ember_machine__findnew_thread(struct ember_machine *machine,
							     pid_t pid, pid_t tid);
/* The thread, or NULL. */
EMBER_API struct ember_thread *ember_machine__find_thread(struct ember_machine *machine, pid_t pid,
							  pid_t tid);

/* Where an address resolved to. Every pointer lives as long as the machine. */
struct ember_addr_location {
	struct ember_thread *thread;
	struct ember_map *map;		/* NULL: no map covers ip */
	struct ember_dso *dso;		/* the map's dso, or NULL */
	const struct ember_symbol *sym; /* NULL: no symbol covers it */
	const char *comm;		/* the thread's comm at the time of the lookup */
	const char *dso_name;		/* ember_dso__name(), NULL without map */
	const char *dso_short_name;	/* ember_dso__short_name(), NULL without map */
	const char *sym_name;		/* NULL without symbol */
	uint64_t ip;			/* as asked */
	uint64_t addr;			/* map-relative (perf's al->addr); ip without map */
	uint64_t sym_off;		/* addr - symbol start: perf script's +0x... */
	uint8_t cpumode;		/* PERF_RECORD_MISC_* as used for the lookup */
	char level;			/* perf report's [k] [.] [g] [u] [H]: 'k' '.' 'g' 'u' 'H' */
	/*
	 * A function inlined at ip (a callchain entry of an unwound frame,
	 * one per inline level, as perf shows them): sym_name is its name,
	 * sym and sym_off those of the function it is inlined in.
	 */
	bool inlined;
	/*
	 * An inline level's source line ("file:line", the file's base name,
	 * "??:0" unknown) as addr2line -i gives it: the address's own for the
	 * innermost, the call site for each outer one; NULL for a frame that
	 * is not an inline level.
	 */
	const char *srcline;
};

/*
 * Resolves (pid, tid, cpumode, ip) for a sample: finds or creates the
 * thread, then ember_thread__resolve(). No allocation once the thread
 * and the dso's symbols exist. Returns 0 (al filled, map/sym may be
 * NULL) or -ENOMEM.
 */
EMBER_API int ember_machine__resolve(struct ember_machine *machine, pid_t pid, pid_t tid,
				     uint8_t cpumode, uint64_t ip, struct ember_addr_location *al);
/*
 * Resolves ip in thread's address space: cpumode KERNEL looks in the
 * kernel maps, USER in the thread's; guest and hypervisor modes find no
 * map (level 'H'), as perf report without --guest. cpumode
 * PERF_RECORD_MISC_CPUMODE_UNKNOWN tries kernel, then user, as perf does
 * for branch addresses. Always fills al; returns 0 when a map was found,
 * -ENOENT when not.
 */
EMBER_API int ember_thread__resolve(struct ember_thread *thread, uint8_t cpumode, uint64_t ip,
				    struct ember_addr_location *al);

/*
 * Walking a callchain: entries >= PERF_CONTEXT_MAX are markers that
 * switch the cpumode for the entries that follow. Returns 1 for a marker
 * (and updates *cpumode), 0 for an ordinary ip, -EINVAL for an unknown
 * marker (perf then discards the whole chain). PERF_CONTEXT_GUEST_KERNEL
 * and _GUEST_USER map to the guest cpumodes, PERF_CONTEXT_GUEST leaves
 * *cpumode alone.
 */
EMBER_API int ember_callchain__context(uint64_t ip, uint8_t *cpumode);

/* ---- live processes ----------------------------------------------------- */

struct ember_symbolizer;

/*
 * A symbolizer for running processes: reads /proc/PID/maps and comm the
 * first time it sees a pid, re-reads them when an address falls outside
 * every known map (a dlopen since), and caches each binary's symbols
 * across pids. Kernel addresses resolve through /proc/kallsyms. NULL with
 * errno on failure; free with ember_symbolizer__delete().
 */
EMBER_API struct ember_symbolizer *ember_symbolizer__new(const struct ember_symbol_opts *opts);
EMBER_API void ember_symbolizer__delete(struct ember_symbolizer *symbolizer);
/*
 * Resolves ip in process pid (user space, or the kernel for a kernel
 * address). Results live until the symbolizer is deleted. Returns 0 when
 * a symbol was found, -ENOENT when the address has no map or no symbol
 * (res still says what is known), -ESRCH when the process is gone.
 */
EMBER_API int ember_symbolizer__resolve(struct ember_symbolizer *symbolizer, pid_t pid,
					uint64_t ip, struct ember_addr_location *res);
/* Forgets what was read about pid (after an exec, say). */
EMBER_API void ember_symbolizer__forget(struct ember_symbolizer *symbolizer, pid_t pid);
/* The machine behind the symbolizer, for the lower-level calls above. */
EMBER_API struct ember_machine *ember_symbolizer__machine(struct ember_symbolizer *symbolizer);

#ifdef __cplusplus
}
#endif

#endif
