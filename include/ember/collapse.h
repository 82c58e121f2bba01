/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Folded stacks from `perf script` text, as Brendan Gregg's
 * stackcollapse-perf.pl (FlameGraph master, with period weighting) makes
 * them: one line per distinct stack, "root;caller;...;leaf COUNT", sorted
 * by byte value. Any byte sequence is valid input: lines the rules do not
 * recognise are reported through the diagnostics callback and skipped.
 *
 * The naming rules, for every producer of folded stacks that must agree
 * with `perf script | ember collapse` (ember flamegraph --folded does):
 *
 * Samples. A line is a sample header when it starts with a non-blank and
 * reads "COMM PID[/TID] ..." (COMM is the shortest prefix of two or more
 * bytes followed by blanks, digits, optional slashes and digits, and a
 * blank). Without a "/TID" the one number is the TID and the PID is "?";
 * a TID of exactly "0" also counts as missing (so swapper's "0/0" gives
 * PID "?", TID "0"). When the header ends in "[PERIOD] EVENT:" (blanks
 * after the last ':' allowed), EVENT is checked against the event filter
 * (by default the first event seen; other events are skipped) and PERIOD
 * is the sample's count; otherwise the count is 1, as it is for a PERIOD
 * of exactly "0". A blank line ends the sample; the last sample of an
 * input without its blank line is lost, as in the script.
 *
 * Root frame. COMM, "COMM-PID" with --pid, "COMM-PID/TID" with --tid,
 * then every space turned into '_'. A root of exactly "0" drops the
 * sample (Perl's false).
 *
 * Frames. A line "  PC SYMBOL (DSO)" (PC a run of [A-Za-z0-9_], DSO the
 * text between the last " (" and the last ')'), callee first, gives the
 * frames outermost first after the root. The SYMBOL text becomes names:
 *   1. a trailing "+0x<lowercase hex>" is removed; a SYMBOL starting
 *      with '(' gives no frame;
 *   2. it is split at "->" (empty trailing pieces dropped), each piece
 *      one frame, the first outermost;
 *   3. "[unknown]" becomes "[BASENAME-OF-DSO]", or "[unknown]" when the
 *      DSO is "[unknown]"; with --addrs "[NAME <PC>]";
 *   4. ';' becomes ':'; unless the name looks like a Go method (".(...)."),
 *      everything from the first '(' not opening "(anonymous namespace)"
 *      is cut; '"' and '\'' are removed;
 *   5. when the root starts with "java" and the name holds a '/', a
 *      leading 'L' is removed;
 *   6. annotations: pieces after the first get "_[i]" (unless they hold
 *      it); else --kernel adds "_[k]" when the DSO starts with '[' or ends
 *      in "vmlinux" and does not contain "unknown"; else --jit adds "_[j]"
 *      (unless held) when the DSO contains "/tmp/perf-N.map".
 * Counts add up per distinct stack as Perl numbers do: exact integers up
 * to 2^64-1, then doubles printed with 15 significant digits.
 *
 * --inline and --context replace a frame of an ELF DSO by its inline
 * chain from DWARF (addr2line -i -f -s -C, as the script runs it), when
 * the DSO can be read; --srcline reads the line after each frame as its
 * source location (perf script -F+srcline).
 */
#ifndef EMBER_COLLAPSE_H
#define EMBER_COLLAPSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <ember/common.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ember_collapse;

/* What the diagnostics callback is told about. */
enum ember_collapse_diag {
	/* A line that is neither a header, a frame, a comment nor blank. */
	EMBER_COLLAPSE_UNRECOGNIZED,
	/*
	 * The first sample of an event other than the defaulted filter; text
	 * is that event's name (the script prints "Filtering for events of
	 * type: EVENT"). Once per run, and only when no filter was given.
	 */
	EMBER_COLLAPSE_FILTERING,
	/* --inline could not read a DSO's debug information; text is the DSO. */
	EMBER_COLLAPSE_NO_DEBUGINFO,
};

/* lineno counts from 1 over all input; text is not NUL-terminated. */
typedef void (*ember_collapse_diag_fn)(void *ctx, enum ember_collapse_diag kind, uint64_t lineno,
				       const char *text, size_t len);

/*
 * Options, named after stackcollapse-perf.pl's. Zero-initialise, set
 * sz = sizeof(opts), then the fields you need; NULL means all defaults.
 */
struct ember_collapse_opts {
	size_t sz;
	bool include_pid;	/* --pid: root "COMM-PID" */
	bool include_tid;	/* --tid: root "COMM-PID/TID" */
	bool annotate_kernel;	/* --kernel: "_[k]" (--all sets both) */
	bool annotate_jit;	/* --jit: "_[j]" */
	bool include_addrs;	/* --addrs: "[DSO <PC>]" for unknown symbols */
	bool show_inline;	/* --inline: inline chains from DWARF */
	bool show_context;	/* --context: "func:file:line" with --inline */
	bool srcline;		/* --srcline: input from perf script -F+srcline */
	/* --event-filter; NULL or "": the first event seen. Copied. */
	const char *event_filter;
	ember_collapse_diag_fn diag;
	void *diag_ctx;
};

/* Counters for a summary line. */
struct ember_collapse_stats {
	uint64_t lines;		/* lines read */
	uint64_t samples;	/* samples counted into a stack */
	uint64_t filtered;	/* sample headers skipped by the event filter */
	uint64_t unrecognized;	/* lines reported as EMBER_COLLAPSE_UNRECOGNIZED */
	uint64_t stacks;	/* distinct stacks */
	uint64_t inline_lookups; /* --inline: address lookups done (cache misses) */
};

/* A new, empty collapser, or NULL with errno set. Free with __delete(). */
EMBER_API struct ember_collapse *ember_collapse__new(const struct ember_collapse_opts *opts);
/* NULL is fine. */
EMBER_API void ember_collapse__delete(struct ember_collapse *c);

/*
 * Feed bytes of perf script text, cut anywhere; lines end at '\n'. Any
 * bytes (NUL included) and any line length are accepted. Returns 0 or
 * -ENOMEM.
 */
EMBER_API int ember_collapse__feed(struct ember_collapse *c, const void *buf, size_t len);
/*
 * The end of one input file: a last line without '\n' is taken as a line
 * (as Perl's <> does between files). Returns 0 or -ENOMEM.
 */
EMBER_API int ember_collapse__end_file(struct ember_collapse *c);
/* One line, without its '\n'. Returns 0 or -ENOMEM. */
EMBER_API int ember_collapse__line(struct ember_collapse *c, const char *line, size_t len);

/*
 * The output, in order: fn gets each stack (not NUL-terminated) and its
 * count as text ("3", "1.84467440737096e+19"). A non-zero return from fn
 * stops the walk and is returned. Call after the last __end_file().
 */
typedef int (*ember_collapse_fn)(void *ctx, const char *stack, size_t len, const char *count);
EMBER_API int ember_collapse__foreach(struct ember_collapse *c, ember_collapse_fn fn, void *ctx);
/* Writes "STACK COUNT\n" lines to fp. Returns 0 or -EIO. */
EMBER_API int ember_collapse__write(struct ember_collapse *c, FILE *fp);

EMBER_API void ember_collapse__stats(const struct ember_collapse *c, struct ember_collapse_stats *st);

/*
 * The naming rules above, for producers that start from resolved samples
 * rather than text (see the top of this file).
 *
 * ember_collapse__root_name: comm, pid and tid as perf script prints them
 * (pid NULL: perf script printed only the tid). Writes the root frame's
 * name to buf (NUL-terminated, truncated to size) and returns its full
 * length, as snprintf.
 *
 * ember_collapse__frame_names: sym as perf script prints it ("main+0x1d",
 * "[unknown]"), dso as printed between the parentheses
 * ("/usr/bin/bash", "[kernel.kallsyms]"), pc the address text, root the
 * root frame's name (for the Java rule). Writes the frame names joined
 * by ';' (no names: an empty string; check the return value, which is
 * the full length or -1 when the symbol gives no frame).
 */
EMBER_API size_t ember_collapse__root_name(const struct ember_collapse_opts *opts, const char *comm,
					   const char *pid, const char *tid, char *buf, size_t size);
EMBER_API long ember_collapse__frame_names(const struct ember_collapse_opts *opts, const char *root,
					   const char *pc, const char *sym, const char *dso, char *buf,
					   size_t size);

#ifdef __cplusplus
}
#endif

#endif
