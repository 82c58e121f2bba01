/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* lib/trace internals shared by the TRACING_DATA reader, the printer and field access. */
#ifndef EMBER_LIB_TRACE_TRACE_H
#define EMBER_LIB_TRACE_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <traceevent/event-parse.h>
#include <ember/trace.h>

/*
 * Slack after a raw sample's copy when printing: libtraceevent takes the
 * length of __print_hex() and __print_array() from the data, unchecked.
 */
#define TRACE_PRINT_SLACK (64 * 1024)

struct ember_trace {
	struct tep_handle *tep;
	size_t size;			/* bytes of the blob parsed */
	uint8_t *scratch;		/* a raw sample's copy, zeroes after it */
	size_t scratch_size;
	size_t scratch_used;		/* bytes of the last copy */
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
 * them, so that libtraceevent can parse it safely. Returns 0; 1 when only
 * its print fmt is beyond libtraceevent (*print_off: where the "print fmt:"
 * line starts), -EINVAL (malformed), -ENOMEM.
 */
int trace_format_check(const char *buf, size_t size, size_t *print_off);

#endif
