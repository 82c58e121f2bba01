/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf's comm override: a thread seen before any COMM is known by the
 * placeholder ":TID", and perf renames that placeholder in place when
 * the thread's first COMM comes, so that report shows the earlier
 * samples under the later name (script, printing as it goes, does not).
 */
#ifndef EMBER_REPORT_COMMS_H
#define EMBER_REPORT_COMMS_H

struct rep_comms;

/* An empty table; NULL on ENOMEM. */
struct rep_comms *rep_comms__new(void);
void rep_comms__delete(struct rep_comms *c);
/* A sample saw thread under its placeholder comm. 0 or -ENOMEM. */
int rep_comms__placeholder(struct rep_comms *c, const void *thread, const char *comm);
/* A COMM set thread's comm to comm (stable): the first after placeholder samples renames them. */
void rep_comms__set(struct rep_comms *c, const void *thread, const char *comm);
/* The comm that samples of thread recorded as comm are shown under. */
const char *rep_comms__get(const struct rep_comms *c, const void *thread, const char *comm);

#endif
