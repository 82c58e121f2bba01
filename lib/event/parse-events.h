/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Internal entry points of the event-spec parser: the same parse as
 * ember_evlist__parse_events() with the filesystem roots overridable
 * (tests run it against fixture trees), and perf's error layout.
 */
#ifndef EMBER_LIB_PARSE_EVENTS_H
#define EMBER_LIB_PARSE_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <ember/event.h>

struct ember_parse_opts {
	size_t sz;		/* sizeof(struct ember_parse_opts) */
	const char *tracefs;	/* tracing dir holding events/; NULL: find (mount) it */
	const char *pmu_dir;	/* PMU devices dir; NULL: /sys/bus/event_source/devices */
	bool counting;		/* for ember stat: sampling-only terms are errors, as in perf stat */
};

/*
 * ember_evlist__parse_events() with opts (may be NULL). Events are added
 * only when the whole spec parses; on failure the evlist is unchanged.
 * Returns 0, -EINVAL for a bad spec, or -errno (EACCES/EPERM when tracefs
 * cannot be read, ENOMEM); *err (may be NULL) is filled on every failure.
 */
int ember_evlist__parse_events_opts(struct ember_evlist *evlist, const char *spec,
				    struct ember_parse_error *err,
				    const struct ember_parse_opts *opts);

/*
 * Render err as perf does, for a terminal `width` columns wide (0: 80):
 *   event syntax error: 'cpu-clok'
 *                        \___ unknown event 'cpu-clok'
 *
 *   did you mean 'cpu-clock'?
 * The spec is cut with ".." when long. Every line ends in '\n'.
 * Returns what snprintf returns.
 */
int ember_parse_error__snprintf(const struct ember_parse_error *err, int width, char *buf,
				size_t size);

#endif
