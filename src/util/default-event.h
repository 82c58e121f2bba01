/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EMBER_UTIL_DEFAULT_EVENT_H
#define EMBER_UTIL_DEFAULT_EVENT_H

#include <ember/event.h>

/*
 * perf's default event (record's and top's): cycles at the highest
 * precise level the PMU takes (precise_max: the open steps precise_ip
 * down), user only when the kernel may not be profiled (not root and
 * perf_event_paranoid above 1, perf_event_can_profile_kernel()).
 * Appended to evlist. 0 or -ENOMEM.
 */
int default_event__add(struct ember_evlist *evlist);

#endif
