/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Tracepoints: the TRACING_DATA blob perf.data carries (event formats,
 * printk formats, saved cmdlines), and the printing and field access of
 * tracepoint samples (PERF_SAMPLE_RAW payloads) it makes possible.
 *
 * The blob is byte for byte what perf 6.1 writes: in file mode the
 * HEADER_TRACING_DATA feature section, in pipe mode the payload of the
 * PERF_RECORD_HEADER_TRACING_DATA record (there padded to 8 bytes).
 * Parsing builds a libtraceevent handle (struct tep_handle) from it.
 */
#ifndef EMBER_TRACE_H
#define EMBER_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <ember/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One tracepoint, as "sys:name" names it. */
struct ember_tracepoint {
	const char *sys;
	const char *name;
};

/*
 * Build the TRACING_DATA blob for `nr` tracepoints from the tracefs at
 * `tracefs` (NULL: find it, mounting it as perf does), byte for byte as
 * perf 6.1 would for the same events: systems and events in tracefs
 * directory order whatever the order of `tps`, (like perf) every event of
 * a listed system whose name is that of any listed tracepoint, an empty
 * kallsyms, then printk_formats and saved_cmdlines. On success *data is a
 * malloc'ed buffer of *size bytes that the caller frees. Returns 0, -EINVAL
 * (nr is 0, a NULL name), -ENOENT (a tracepoint or tracefs missing),
 * -ENOMEM or the read error.
 */
EMBER_API int ember_tracing_data__build(const char *tracefs, const struct ember_tracepoint *tps,
					size_t nr, void **data, size_t *size);

/* The event formats of a TRACING_DATA blob, as a libtraceevent handle. */
struct ember_trace;
struct tep_handle;

/*
 * Parse a TRACING_DATA blob (`size` bytes at `data`; bytes after its end,
 * such as pipe-mode padding, are ignored). Every length is checked: NULL
 * with errno EINVAL for a truncated or malformed blob, ENOMEM. An event
 * whose format libtraceevent cannot parse is left out (pr_debug says
 * which). Free with ember_trace__delete().
 */
EMBER_API struct ember_trace *ember_trace__parse(const void *data, size_t size);
EMBER_API void ember_trace__delete(struct ember_trace *t);

/* The libtraceevent handle, owned by t. */
EMBER_API struct tep_handle *ember_trace__tep(struct ember_trace *t);
/* Bytes of the blob the parse consumed (the blob's own size). */
EMBER_API size_t ember_trace__size(const struct ember_trace *t);

/* The id of event sys:name (attr.config of its evsel), or -ENOENT. */
EMBER_API int ember_trace__event_id(struct ember_trace *t, const char *sys, const char *name);
/* The system and name of event `id` (owned by t). 0 or -ENOENT. */
EMBER_API int ember_trace__event_name(struct ember_trace *t, int id, const char **sys,
				      const char **name);

/*
 * Resolve kernel addresses (%ps, %pS) while printing, as perf script does
 * with its kernel map: fn returns the name of the symbol holding *addrp
 * and sets *addrp to its start (and *modp to its module, or NULL), or
 * returns NULL. Without one, kallsyms in the blob are used (perf 6.1
 * writes none) and addresses print as numbers. fn NULL removes it.
 * Returns 0 or -ENOMEM.
 */
typedef char *(*ember_trace_func_resolver_t)(void *priv, unsigned long long *addrp, char **modp);
EMBER_API int ember_trace__set_function_resolver(struct ember_trace *t,
						 ember_trace_func_resolver_t fn, void *priv);

/*
 * Print the fields of a tracepoint sample (`raw`, `raw_size` bytes: the
 * PERF_SAMPLE_RAW payload) as `perf script` prints them, through the
 * event's print fmt: "comm=sleep pid=123 prio=120 target_cpu=001".
 * The event is the one the record's common_type names. No newline.
 * snprintf: writes at most `size` bytes, NUL included, and returns the
 * length of the whole text; fprintf: returns the bytes written. Both
 * return -ENOENT (unknown event), -EINVAL (raw shorter than the event's
 * fields, or a corrupt dump length), -ENOMEM. Events whose print fmt
 * libtraceevent cannot run print "[FAILED TO PARSE] field=value...", as
 * in perf. Printing uses a scratch buffer in t: one thread at a time.
 */
EMBER_API int ember_trace__snprintf(struct ember_trace *t, int cpu, const void *raw,
				    size_t raw_size, char *buf, size_t size);
EMBER_API int ember_trace__fprintf(struct ember_trace *t, int cpu, const void *raw,
				   size_t raw_size, FILE *fp);

/* A field of an event (a libtraceevent tep_format_field), owned by the ember_trace. */
struct ember_trace_field;

/* Field `name` (common_* fields too) of event `id`, or NULL with errno ENOENT. */
EMBER_API const struct ember_trace_field *ember_trace__field(struct ember_trace *t, int id,
							     const char *name);
/*
 * Read a numeric field (1, 2, 4 or 8 bytes; signed ones sign-extended,
 * so (int64_t)*val is their value). 0, -EINVAL (raw too short, not a
 * number: array or dynamic field).
 */
EMBER_API int ember_trace_field__num(const struct ember_trace_field *f, const void *raw,
				     size_t raw_size, uint64_t *val);
/*
 * Copy a string field (char array or __data_loc string) into buf,
 * NUL-terminated and truncated to `size`. Returns its length (as
 * snprintf), -EINVAL (raw too short, location out of bounds, not a string).
 */
EMBER_API int ember_trace_field__str(const struct ember_trace_field *f, const void *raw,
				     size_t raw_size, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
