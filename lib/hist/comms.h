/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * perf's comm override: a thread seen before any COMM is known by the
 * placeholder ":TID", and perf renames that placeholder in place when
 * the thread's first COMM comes, so that report shows the earlier
 * samples under the later name (script, printing as it goes, does not).
 */
#ifndef EMBER_HIST_COMMS_H
#define EMBER_HIST_COMMS_H

struct hist_comms;

/* An empty table; NULL on ENOMEM. */
struct hist_comms *hist_comms__new(void);
void hist_comms__delete(struct hist_comms *c);
/* A sample saw thread under its placeholder comm. 0 or -ENOMEM. */
int hist_comms__placeholder(struct hist_comms *c, const void *thread, const char *comm);
/* A COMM set thread's comm to comm (stable): the first after placeholder samples renames them. */
void hist_comms__set(struct hist_comms *c, const void *thread, const char *comm);
/* The comm that samples of thread recorded as comm are shown under. */
const char *hist_comms__get(const struct hist_comms *c, const void *thread, const char *comm);

#endif
