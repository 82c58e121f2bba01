/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EMBER_SCRIPT_SIDEBAND_H
#define EMBER_SCRIPT_SIDEBAND_H

#include <linux/perf_event.h>
#include "script/outbuf.h"

/*
 * "PERF_RECORD_<NAME>" and the record's description, as perf script
 * prints side-band records (perf's perf_event__fprintf), with its newline.
 */
void script_sideband__print(struct outbuf *ob, const struct perf_event_header *h);

#endif
