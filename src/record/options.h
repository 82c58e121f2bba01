/* SPDX-License-Identifier: GPL-2.0-only */
/* ember record's command line. */
#ifndef EMBER_RECORD_OPTIONS_H
#define EMBER_RECORD_OPTIONS_H

#include "record/record.h"

/*
 * Parse argv (argv[0] is "record") into rec->opts; -e specs go straight
 * into rec->opts.evlist, which must exist. The command to run, if any, is
 * left in rec->argc/rec->argv. Checks option combinations and the sample
 * frequency against perf_event_max_sample_rate (warning as perf does).
 * Returns -1 to go on, or the exit code (0 after --help, 2 on a usage error,
 * the message printed).
 */
int record_options__parse(struct record *rec, int argc, const char **argv);

/*
 * Parse a --call-graph argument ("fp", "dwarf[,SIZE]", "lbr") into *mode
 * and *stack_size. Returns 0 or -EINVAL (message printed).
 */
int record_options__parse_callchain(const char *arg, enum record_callchain *mode,
				    unsigned int *stack_size);

/*
 * Parse a branch filter ("any", "any_call,u", ...: perf's -j names) into
 * PERF_SAMPLE_BRANCH_* bits; without a privilege level (u, k, hv) the
 * kernel takes the event's. Returns 0 or -EINVAL (message printed).
 */
int record_options__parse_branch(const char *arg, uint64_t *mask);

#endif
