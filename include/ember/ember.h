/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * libember — the C SDK behind the ember command.
 *
 * Conventions (as libbpf and libperf): functions return 0 or a negative
 * errno; constructors return NULL with errno set. Nothing here prints to
 * stdout or exits; diagnostics go to the callback ember_set_log() sets
 * (<ember/common.h>). This header includes every public header.
 */
#ifndef EMBER_EMBER_H
#define EMBER_EMBER_H

#include <ember/common.h>
#include <ember/event.h>
#include <ember/mmap.h>
#include <ember/workload.h>
#include <ember/synth.h>
#include <ember/symbol.h>
#include <ember/machine.h>
#include <ember/perf-data.h>
#include <ember/trace.h>
#include <ember/probe.h>
#include <ember/session.h>
#include <ember/flame.h>
#include <ember/collapse.h>
#include <ember/heatmap.h>
#include <ember/hist.h>
#include <ember/annotate.h>
#include <ember/syscall.h>
#include <ember/bpf.h>
#include <ember/systrace.h>
#include <ember/systrace-summary.h>
#include <ember/profile.h>

#endif
