/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* lib/trace internals shared by the TRACING_DATA reader, the printer and field access. */
#ifndef EMBER_LIB_TRACE_TRACE_H
#define EMBER_LIB_TRACE_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <traceevent/event-parse.h>
#include <ember/trace.h>

/*
 * Zeroes after a raw sample's copy when printing: libtraceevent takes the
 * length of __print_hex() and __print_array() from the data, unchecked.
 * format-check.c lets through literal and 16-bit lengths (below 64 Ki
 * elements of up to 8 bytes) and names the wider length fields, whose
 * value then adds to the slack (up to TRACE_PRINT_MAX_SLACK).
 */
#define TRACE_PRINT_SLACK (65536 * 8 + 65536)
#define TRACE_PRINT_MAX_SLACK (64 << 20)
#define TRACE_MAX_LEN_FIELDS 4

/* An event whose print fmt takes a dump's length from a field wider than 16 bits. */
struct trace_len_guard {
	int id;
	int nr;
	struct tep_format_field *fields[TRACE_MAX_LEN_FIELDS];
};

struct ember_trace {
	struct tep_handle *tep;
	size_t size;			/* bytes of the blob parsed */
	struct trace_len_guard *guards;
	size_t nr_guards;
	uint8_t *scratch;		/* a raw sample's copy, zeroes after it */
	size_t scratch_size;
	size_t scratch_used;		/* bytes of the last copy */
};

/* What trace_format_check() found. */
struct trace_format_info {
	size_t print_off;		/* where the "print fmt:" line starts */
	int nr_len_fields;		/* wide length fields of __print_hex/__print_array */
	char len_fields[TRACE_MAX_LEN_FIELDS][64];
};

/*
 * The event a raw sample belongs to (by its common_type), after checking
 * that every fixed field and every __data_loc payload lies within
 * raw_size bytes. NULL with errno: ENOENT unknown type, EINVAL too short.
 */
struct tep_event *trace_raw_event(struct ember_trace *t, const void *raw, size_t raw_size);

/* Whether all of field f's bytes (and its __data_loc payload) lie within raw_size. */
bool trace_field_fits(const struct tep_format_field *f, const void *raw, size_t raw_size);

/*
 * Where a __data_loc field's payload is: 0 with *off and *len, or -EINVAL
 * when the location word or the payload is out of bounds.
 */
int trace_field_dynamic(const struct tep_format_field *f, const void *raw, size_t raw_size,
			size_t *off, size_t *len);

/*
 * Check that an event format file (size bytes) has the shape tracefs gives
 * them, so that libtraceevent can parse it safely, and fill *info. Returns
 * 0; 1 when only its print fmt is beyond libtraceevent (to be replaced from
 * info->print_off on), -EINVAL (malformed), -ENOMEM.
 */
int trace_format_check(const char *buf, size_t size, struct trace_format_info *info);

/*
 * A copy of a checked format whose print fmt strings have their raw tabs
 * written as "\t": libtraceevent 1.7 fails on a raw tab (perf 6.1's own
 * copy of it did not) and prints the escape as the tab. NULL on ENOMEM;
 * the caller frees.
 */
char *trace_format_escape_tabs(const char *buf, size_t size, size_t print_off, size_t *new_size);

/* Whether a header_page text is field lines only: 0 or -EINVAL. */
int trace_header_page_check(const char *buf, size_t size);

/*
 * The text tables of the blob (NUL-terminated, modified in place), into
 * tep: /proc/kallsyms lines ("ffffffff81000000 T _stext\t[mod]"),
 * printk_formats lines (`0xffffffff82a01234 : "fmt"`) and saved_cmdlines
 * lines ("pid comm"). Malformed lines are skipped. 0 or -ENOMEM.
 */
int trace_add_kallsyms(struct tep_handle *tep, char *buf);
int trace_add_printk_formats(struct tep_handle *tep, char *buf);
int trace_add_cmdlines(struct tep_handle *tep, char *buf);

#endif
