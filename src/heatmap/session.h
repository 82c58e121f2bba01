/* SPDX-License-Identifier: GPL-2.0-only */
/* Opening perf.data for ember heatmap, with perf's messages. */
#ifndef EMBER_SRC_HEATMAP_SESSION_H
#define EMBER_SRC_HEATMAP_SESSION_H

#include <stdbool.h>
#include <ember/session.h>

/* The session of path (need_ips: each sample's own ip resolved), or NULL after one line on stderr. */
struct ember_session *heatmap_session_open(const char *path, bool force, bool need_ips);
/* "cpu-clock, block:block_rq_issue": the events of the file, for messages. */
void heatmap_session_events(struct ember_session *s, char *buf, size_t size);

#endif
