/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Dynamic probes, as perf probe makes them: uprobes on user binaries and
 * kprobes on the kernel, defined through tracefs' uprobe_events and
 * kprobe_events.
 *
 *   definition ── what a person types: perf's PROBE SYNTAX
 *                  ([[GROUP:]EVENT=]FUNC[@SRC][:RLN|+OFFS|%return|;PTN] [ARG ...])
 *   trace event ── what the kernel is told: one line of uprobe_events
 *                  ("p:probe_bin/fn /path/bin:0x1149 %di:u64"), one per
 *                  place a definition resolves to
 *   tracefs     ── the lines read back, written, and removed
 *
 * Definitions and trace events are plain structs with fixed room (no
 * allocation grows with what a definition holds beyond one copy of its
 * text): a bad definition is an error with a reason, never a crash. A
 * trace event is validated before a line is made of it, so no name or
 * argument can smuggle a newline or a second definition into tracefs.
 */
#ifndef EMBER_PROBE_H
#define EMBER_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <ember/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Arguments per probe (perf's MAX_PROBE_ARGS). */
#define EMBER_PROBE_MAX_ARGS 128
/* Room for a group or event name with its NUL (perf's MAX_EVENT_NAME_LEN). */
#define EMBER_PROBE_NAME_MAX 64
/* Member accesses per argument ("r->a.b[2]" has three). */
#define EMBER_PROBE_MAX_FIELDS 16
/*
 * Room for a line with its NUL: tracefs reads a definition in one buffer
 * of 4096 bytes, so it takes lines of up to 4095 characters (6.18 here).
 */
#define EMBER_PROBE_LINE_MAX 4096
/* Room for a reason a definition was refused. */
#define EMBER_PROBE_ERR_MAX 160

/* ---- definitions (perf-probe(1) PROBE SYNTAX) ---------------------------- */

/* One argument: [NAME=]VAR[FIELDS][@user][:TYPE]. Strings point into the definition. */
struct ember_probe_arg {
	const char *name;	/* NAME=, else the last member named, the variable when members are
				 * all indexes ("a[2]"), else NULL */
	const char *var;	/* local variable, $retval, $vars, %REG, @SYM, +OFF(%REG), ... */
	const char *fields;	/* the member accesses as typed ("->a.b[2]"), or NULL */
	unsigned int nr_fields;
	const char *type;	/* s8..s64 u8..u64 x8..x64 string ustring, or NULL */
	bool user_access;	/* VAR@user */
};

/*
 * A parsed definition. The probe point is a function (FUNC, with @SRC,
 * +OFFS, :RLN, %return or ;PTN), an absolute address (0xADDR, in
 * `function` too), or a source file (SRC:ALN, SRC;PTN).
 */
struct ember_probe_def {
	const char *group;	/* GROUP: or NULL */
	const char *event;	/* EVENT= or NULL */
	const char *function;	/* FUNC (may be a glob) or 0xADDR, or NULL */
	const char *file;	/* SRC or @SRC, or NULL */
	const char *lazy;	/* ;PTN as typed (escapes kept), or NULL */
	uint64_t offset;	/* +OFFS */
	uint64_t abs_address;	/* function "0x..." */
	unsigned int line;	/* :RLN (function relative) or :ALN (file) */
	bool retprobe;		/* %return */
	bool abs;		/* function is an absolute address */
	unsigned int nr_args;
	struct ember_probe_arg args[EMBER_PROBE_MAX_ARGS];
	char err[EMBER_PROBE_ERR_MAX];	/* why __parse() refused it */
	char *buf;		/* owned: the split copy of the text */
};

/*
 * Parse a definition: the probe point, then arguments separated by
 * blanks (perf joins its command line's words with blanks first).
 * Returns 0; -EINVAL with def->err saying why (nothing else to free);
 * -E2BIG for too many arguments or members; -ENOMEM. On success the
 * definition owns a copy of spec: free it with ember_probe_def__exit().
 */
EMBER_API int ember_probe_def__parse(struct ember_probe_def *def, const char *spec);
/* Frees what __parse() kept; a zeroed or exited def is fine. */
EMBER_API void ember_probe_def__exit(struct ember_probe_def *def);
/* Whether the definition needs debug information (lines, files, patterns, variables, $vars). */
EMBER_API bool ember_probe_def__needs_dwarf(const struct ember_probe_def *def);
/*
 * The probe point as perf shows it after "(on ": "fn", "fn+4", "fn%return",
 * "fn:3", "fn@src.c", "fn:3@src.c", "@src.c:12" (a lazy pattern is not
 * shown: "fn" for "fn;PTN", "@src.c" for "src.c;PTN"). Returns the length,
 * as snprintf.
 */
EMBER_API int ember_probe_def__point(const struct ember_probe_def *def, char *buf, size_t size);
/* One argument as perf shows it after "with ": "name=var->f:type". Returns the length. */
EMBER_API int ember_probe_arg__format(const struct ember_probe_arg *arg, char *buf, size_t size);

/* Whether s is a C identifier (perf's rule for group and event names). */
EMBER_API bool ember_probe__is_c_name(const char *s);

/* ---- trace events (a line of uprobe_events / kprobe_events) --------------- */

struct ember_probe_trace_arg {
	const char *name;	/* NULL: the kernel names it argN */
	const char *value;	/* a fetch argument: %di, +8(%si), $retval, @sym, ... */
	const char *type;	/* NULL or a type as in ember_probe_arg */
};

struct ember_probe_trace {
	bool uprobe;		/* uprobe_events, else kprobe_events */
	bool retprobe;		/* r: else p: */
	char group[EMBER_PROBE_NAME_MAX];
	char event[EMBER_PROBE_NAME_MAX];
	const char *target;	/* uprobe: the binary's path; kprobe: the symbol, or NULL */
	uint64_t offset;	/* uprobe: file offset; kprobe: from the symbol, or the address */
	uint64_t ref_ctr_offset; /* uprobe: the semaphore's file offset (SDT), 0 none */
	unsigned int maxactive;	/* kretprobe's rN:, 0 default */
	unsigned int nr_args;
	struct ember_probe_trace_arg args[EMBER_PROBE_MAX_ARGS];
	char *buf;		/* owned by __parse()'d events: the split line */
};

/*
 * The line to write to tracefs for t, as perf writes it
 * ("p:probe_bin/fn /path/bin:0x1149 %di:u64 name=$retval"), after checking
 * every part: names are C identifiers shorter than EMBER_PROBE_NAME_MAX,
 * the path is absolute without blanks or controls, each argument a fetch
 * argument the kernel knows with a known type. Returns the length, -EINVAL
 * (a part refused; *why, when not NULL, names it: static text),
 * -ENAMETOOLONG (longer than size), or -E2BIG (too many arguments).
 */
EMBER_API int ember_probe_trace__format(const struct ember_probe_trace *t, char *buf,
					size_t size, const char **why);
/*
 * Parse one line as tracefs lists it ("p:grp/ev /path:0x0000000000001149
 * arg1=%di:u64"). uprobe says which file it came from. Returns 0, -EINVAL
 * for a line that is not one, -ENOMEM. Free with ember_probe_trace__exit().
 */
EMBER_API int ember_probe_trace__parse(struct ember_probe_trace *t, const char *line,
				       bool uprobe);
EMBER_API void ember_probe_trace__exit(struct ember_probe_trace *t);

/*
 * perf's default group for probes on a binary: "probe_" and the file's
 * base name up to its first character that is not alphanumeric or '_'
 * ("/usr/lib/libc.so.6" → "probe_libc"). Returns 0, -ENAMETOOLONG.
 */
EMBER_API int ember_probe__exec_group(const char *path, char *buf, size_t size);

/* Whether an event name is taken (in any group, as perf checks). */
typedef bool (*ember_probe_name_taken_fn)(const char *event, void *arg);

/*
 * perf's name for a new event from base (a function's name): base cut
 * at its first '.' or '@' past the first character, "__return" added for
 * a return probe; when that is taken and allow_suffix, the first free
 * "base_N" (N from 1). Returns 0, -EEXIST (taken, no suffix allowed;
 * buf holds the name), -ERANGE (no free suffix), -EINVAL (not a C
 * name), -ENAMETOOLONG.
 */
EMBER_API int ember_probe__event_name(const char *base, bool retprobe, bool allow_suffix,
				      ember_probe_name_taken_fn taken, void *arg, char *buf,
				      size_t size);

/* ---- resolving definitions to places --------------------------------------- */

/*
 * The places a definition names in the user binary at path (absolute),
 * from its symbol table as perf finds them without debug information
 * (or def's absolute address, a file offset, as one place named abs_ADDR):
 * every function symbol whose name (version cut, unless the definition
 * gives one) matches def->function as a glob, at its file offset plus
 * def->offset, in address order, at most max (perf's --max-probes).
 * Each out[i] gets uprobe, retprobe, target (= path, not copied),
 * offset, the arguments (pointing into def) and, in event, the symbol's
 * name as a base for the caller's naming ("" when it does not fit);
 * group is left to the caller.
 * Returns the number found, -ENOENT (no symbol matches), -ERANGE
 * (offset past the function's end), -ENODATA (no symbols), or -errno
 * opening the file.
 */
EMBER_API int ember_probe__resolve_uprobe(const struct ember_probe_def *def, const char *path,
					  struct ember_probe_trace *out, size_t max);

/* How DWARF is read for places and lines (perf probe's options). */
struct ember_probe_dwarf_opts {
	size_t sz;			/* sizeof(struct ember_probe_dwarf_opts) */
	bool no_inlines;		/* --no-inlines: not an inline function's copies */
	const char *source_prefix;	/* -s: where sources are, else their units' directories */
	bool kernel;			/* path is a vmlinux (perf's kernel rules) */
};

/*
 * The places a definition names in the user binary at path (absolute)
 * through its DWARF (or separate debug information), as perf probe finds
 * them when there is some: functions by name or glob in DWARF's order,
 * each inlined copy too, at their entries (past the prologue for
 * arguments by name in a binary built without optimization), +OFFS from
 * there; FUNC:RLN lines relative to the declaration, SRC:ALN lines, ;PTN
 * lines of the source file matching the pattern (blanks ignored); opts
 * may be NULL (inlined copies searched, sources in their units'
 * compilation directories). Each
 * out[i] is set as ember_probe__resolve_uprobe() sets it, with the name
 * of the function (or inlined copy) the place is in as event base.
 * msg gets perf's messages, a line each: the reasons of a failure, or a
 * note on success (the prologue skipped). Returns the number of places;
 * -ENODATA when path has no DWARF, or for a return probe or an address
 * (perf 6.1 puts those by the symbol table); -ENODEV when DWARF has no
 * such place (perf's "not found"); else an error in the search, where
 * perf tries the symbol table next unless the definition needs DWARF:
 * -ENOENT (a line that shares another line's address, ...; no place
 * for a definition with arguments, msg empty: perf retries none), -ERANGE
 * (more than max), -EINVAL (an offset past the function), -ENOMEM,
 * -errno reading the binary or the source.
 */
EMBER_API int ember_probe__resolve_dwarf(const struct ember_probe_def *def, const char *path,
					 const struct ember_probe_dwarf_opts *opts,
					 struct ember_probe_trace *out, size_t max, char *msg,
					 size_t msgsz);

/* A place named back from DWARF, as perf -l names it: FUNC[+OFF|:LINE]@FILE. */
struct ember_probe_point {
	char function[256];	/* "" when DWARF names none */
	char file[1024];	/* "" when DWARF names none */
	int line;		/* relative to the function's declaration, when has_line */
	uint64_t offset;	/* from the function's entry, when has_offset */
	bool has_line, has_offset;
};

/*
 * The place at a file offset of the binary at path, from its DWARF (the
 * offset made an address through .text, as perf does; none at 0): the
 * function holding it (or the inlined copy, down to the one whose entry
 * it is), its relative line when a line is there, else its offset from
 * the function's entry, and the source file. Returns 1; -ENOENT when
 * DWARF holds nothing there (msg gets perf's warning); -ENODATA when
 * path has no DWARF; -EINVAL for offset 0; -errno.
 */
EMBER_API int ember_probe__dwarf_point(const char *path, uint64_t offset,
				       struct ember_probe_point *pt, char *msg, size_t msgsz);
/*
 * pt as perf shows a place: FUNC, then "+OFF" (a non-zero offset), else
 * ":LINE" (a non-zero line), else "%return" (retprobe); then "@FILE" (its
 * last 30 characters, from a '/'), ":LINE" after it when there is no
 * FUNC. The has_ flags are not looked at: perf -l shows the offset and
 * line its previous probe left where this one set none. Returns the
 * length, as snprintf.
 */
EMBER_API int ember_probe_point__format(const struct ember_probe_point *pt, bool retprobe,
					char *buf, size_t size);

/* The probe-able lines of a -L range (perf's LINE RANGE syntax). */
struct ember_probe_lines {
	char *function;		/* FUNC, or NULL for a file's range (owned) */
	char *path;		/* the source file to show (owned) */
	int offset;		/* the function's declared line, or 0 */
	int start, end;		/* absolute lines; end is INT_MAX when open */
	int *lines;		/* the probe-able lines, ascending (owned) */
	size_t nr_lines;
};

/*
 * Find the lines of spec ("FUNC[@SRC][:RLN[+NUM|-RLN2]]" or
 * "SRC[:ALN[+NUM|-ALN2]]") in the binary at path, as perf probe -L does:
 * the lines that have an address of their own. msg gets perf's reason
 * for a failure. Returns 0; -EINVAL (spec refused), -ENODATA (no DWARF),
 * -ENOENT (no such line), -EOPNOTSUPP (nothing found, perf's "analysis
 * failed"), -errno (the source cannot be read). Free with
 * ember_probe_lines__exit().
 */
EMBER_API int ember_probe__lines(const char *path, const char *spec,
				 const struct ember_probe_dwarf_opts *opts,
				 struct ember_probe_lines *lines, char *msg, size_t msgsz);
EMBER_API void ember_probe_lines__exit(struct ember_probe_lines *lines);
/* ---- debug information: arguments by name, -V ---------------------------------- */

/* A binary's DWARF, opened once for all the places of a command. */
struct ember_probe_dwarf;

/*
 * Open the DWARF of path (the file's own, or its separate debug
 * information found by build-id under /usr/lib/debug or .gnu_debuglink).
 * NULL with errno: ENODATA when there is none (or path is no ELF file),
 * access()'s errno when the file cannot be read, ENOMEM. Free with
 * ember_probe_dwarf__delete().
 */
EMBER_API struct ember_probe_dwarf *ember_probe_dwarf__open(const char *path);
EMBER_API void ember_probe_dwarf__delete(struct ember_probe_dwarf *d);

/* Whether some argument of def names a variable, or is $vars or $params. */
EMBER_API bool ember_probe_def__needs_dwarf_args(const struct ember_probe_def *def);

/*
 * Set the arguments of def's nr places (uprobes at file offsets, each
 * with its function's name in event, as ember_probe__resolve_uprobe()
 * leaves it) from def's, as perf probe does with DWARF at each place: a
 * variable by name (a parameter or local in that function's scopes
 * holding the place, else a global of its unit) with its members and
 * elements becomes the fetch argument of its location there (%di,
 * -40(%bp), +8(+16(%di)), a static's @+0xADDR), typed as perf types it
 * (s32, x64, string) unless cast; $vars and $params become the variables
 * placed there; other arguments stay as typed. A variable found at some
 * places only is the immediate \0xdeade12d at the others (perf's value).
 * The strings are owned by d. msg gets perf's messages, each line ending
 * in a newline: its warnings, and why on failure. Returns 0, -ENOENT (a
 * variable found at no place), -EINVAL (a member or cast that does not
 * fit the type), -ENOTSUP (a location perf does not read), -ELOOP (DWARF
 * whose unnamed members loop), -E2BIG, -ENOMEM.
 */
EMBER_API int ember_probe_dwarf__args(struct ember_probe_dwarf *d,
				      const struct ember_probe_def *def,
				      struct ember_probe_trace *traces, size_t nr, char *msg,
				      size_t msgsz);

/* Called with each line of a -V listing; non-zero stops the walk and is returned. */
typedef int (*ember_probe_var_fn)(const char *line, void *arg);

/* What ember_probe_dwarf__vars() lists besides the variables placed there. */
enum {
	EMBER_PROBE_VARS_EXTERNS = 1 << 0,	/* --externs: the unit's globals, too */
	EMBER_PROBE_VARS_RANGE = 1 << 1,	/* --range: where each is valid */
};

/*
 * perf probe -V at t's place: the variables that have a location there,
 * each as "TYPE\tNAME" ("struct pv_record*\tr"), sorted and without
 * repeats. flags: EMBER_PROBE_VARS_EXTERNS adds the unit's globals;
 * EMBER_PROBE_VARS_RANGE prefixes each with [VAL], [INV] (a local placed
 * only elsewhere in the function) or [EXT] and ends a local's line with
 * the ranges where it has a place ("\t@<pv_sum+[0-37,37-57]>"). where
 * gets the place as perf shows it, "FUNC+OFF" from its function's entry
 * (with -ENOENT, the address in hex, as perf names it). Returns 0, what fn
 * returned, -ENOENT (no function there in the DWARF), -ENOMEM.
 */
EMBER_API int ember_probe_dwarf__vars(struct ember_probe_dwarf *d,
				      const struct ember_probe_trace *t, const char *func,
				      unsigned int flags, char *where, size_t wsz,
				      ember_probe_var_fn fn, void *arg);

/* ---- the kernel ------------------------------------------------------------- */

/*
 * The running kernel's vmlinux as perf probe looks for it: the first of
 * ./vmlinux, /boot/vmlinux, /boot/vmlinux-R, /usr/lib/debug/boot/vmlinux-R,
 * /lib/modules/R/build/vmlinux, /usr/lib/debug/lib/modules/R/vmlinux and
 * /usr/lib/debug/boot/vmlinux-R.debug (R: uname -r) whose build-id is the
 * running kernel's (/sys/kernel/notes). 0 with its path in buf; -ENOENT
 * (none: buf is ""), -ENAMETOOLONG.
 */
EMBER_API int ember_probe__find_vmlinux(char *buf, size_t size);

/* Called with each name; non-zero stops the walk and is returned. */
typedef int (*ember_probe_name_fn)(const char *name, void *arg);

/*
 * The kernel's names perf probe -F lists, in no order, repeats kept: with
 * vmlinux, the function, object and label symbols of its .text (perf
 * keeps the other sections' apart); else the symbols of kallsyms (NULL:
 * /proc/kallsyms) of type T, W, D or B in either case, not a module's.
 * Returns 0, what fn returned, -ENODATA (vmlinux has no .text or
 * symbol table), -errno.
 */
EMBER_API int ember_probe__kernel_names(const char *vmlinux, const char *kallsyms,
					ember_probe_name_fn fn, void *arg);

/*
 * The places a definition names in the running kernel from kallsyms
 * (NULL: /proc/kallsyms), as perf probe finds them without the kernel's
 * debug information: every text or weak symbol, not a module's, whose
 * name matches def->function as a glob, in address order (an alias at an
 * address already taken left out), at most max. Each out[i] is a kprobe
 * against _text ("_text+7045680", perf's relocation symbol), or for a
 * return probe against its function ("vfs_read+0": out[i] owns that
 * name, free with ember_probe_trace__exit()), with the arguments
 * (pointing into def) and the symbol's name in event as a base for the
 * caller's naming; group is left to the caller. Returns the number
 * found, -ENOENT (no symbol matches), -E2BIG (more than max), -ERANGE
 * (offset past the function's end), -EACCES (addresses hidden: no _text
 * address), -ENODATA (no symbols), -EINVAL (no function), -ENOMEM,
 * -errno reading kallsyms.
 */
EMBER_API int ember_probe__resolve_kprobe(const struct ember_probe_def *def, const char *kallsyms,
					  struct ember_probe_trace *out, size_t max);

/*
 * Where a kprobe's SYMBOL+OFF is in the running kernel, as perf -l names
 * it from kallsyms (NULL: /proc/kallsyms): the symbol holding the address
 * (the first of its aliases) into buf, and the offset from its start.
 * Returns 0; -ENOENT (no such symbol, or none holds the address), -EACCES
 * (addresses hidden), -ENODATA, -ENOMEM, -errno.
 */
EMBER_API int ember_probe__kernel_point(const char *kallsyms, const char *sym, uint64_t off,
					char *buf, size_t size, uint64_t *offset);

/*
 * Make nr places found in the vmlinux at path (uprobe places at its file
 * offsets, as ember_probe__resolve_uprobe() and __resolve_dwarf() leave
 * them) the kprobes perf writes: against the function symbol holding
 * each ("vfs_read+49", an inlined copy's "kernel_read+5": perf's for a
 * kernel given with -k), or with reloc against _text ("_text+7045729":
 * perf's for the running kernel's own vmlinux). Each t[i] owns its
 * symbol's name: free with ember_probe_trace__exit(). Returns 0, -ENOENT
 * (no symbol holds a place, or no _text), -ENOMEM, -errno.
 */
EMBER_API int ember_probe__kernel_places(const char *vmlinux, bool reloc,
					 struct ember_probe_trace *t, size_t nr);

/* ---- tracefs -------------------------------------------------------------- */

/* The probes defined in one of tracefs' files, in file order. */
struct ember_probe_events;

/*
 * Read <tracefs>/uprobe_events (uprobe) or kprobe_events. Returns the
 * list, or NULL with errno (ENOENT: the kernel has no such file, e.g.
 * no CONFIG_KPROBE_EVENTS). Free with ember_probe_events__delete().
 */
EMBER_API struct ember_probe_events *ember_probe_events__read(const char *tracefs, bool uprobe);
EMBER_API void ember_probe_events__delete(struct ember_probe_events *list);
EMBER_API size_t ember_probe_events__nr(const struct ember_probe_events *list);
/* The idx-th probe; owned by the list. */
EMBER_API const struct ember_probe_trace *
ember_probe_events__get(const struct ember_probe_events *list, size_t idx);
/* The line as tracefs listed it (without its newline); owned by the list. */
EMBER_API const char *ember_probe_events__line(const struct ember_probe_events *list, size_t idx);

/*
 * Define one probe: write its line (checked by ember_probe_trace__format())
 * to <tracefs>/uprobe_events or kprobe_events in one write. Returns 0,
 * -EINVAL (refused before writing: *why says, or the kernel refused it),
 * -ENOENT (no such file), -errno.
 */
EMBER_API int ember_probe__add(const char *tracefs, const struct ember_probe_trace *t,
			       const char **why);
/* Remove the probe group:event from uprobe_events or kprobe_events. 0 or -errno. */
EMBER_API int ember_probe__del(const char *tracefs, bool uprobe, const char *group,
			       const char *event);

#ifdef __cplusplus
}
#endif

#endif
