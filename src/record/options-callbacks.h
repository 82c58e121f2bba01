/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The callbacks of ember record's option table (options.c), each defined
 * with its job: options-events.c, options-sample.c, options-output.c. Each
 * takes opt->value as the struct record_opts and returns 0, or -1 after
 * printing what is wrong with the argument.
 */
#ifndef EMBER_RECORD_OPTIONS_CALLBACKS_H
#define EMBER_RECORD_OPTIONS_CALLBACKS_H

#include <stdbool.h>
#include "util/parse-options.h"

struct record_opts;

/* options-events.c */
int record_opt_event(const struct option *opt, const char *arg, bool unset);
int record_opt_switch_output_event(const struct option *opt, const char *arg, bool unset);
int record_opt_control(const struct option *opt, const char *arg, bool unset);
int record_opt_filter(const struct option *opt, const char *arg, bool unset);
int record_opt_exclude_perf(const struct option *opt, const char *arg, bool unset);

/* options-output.c */
int record_opt_mmap_pages(const struct option *opt, const char *arg, bool unset);
int record_opt_comp_level(const struct option *opt, const char *arg, bool unset);
int record_opt_max_size(const struct option *opt, const char *arg, bool unset);
int record_opt_mmap_flush(const struct option *opt, const char *arg, bool unset);
int record_opt_affinity(const struct option *opt, const char *arg, bool unset);
int record_opt_switch_output(const struct option *opt, const char *arg, bool unset);
int record_opt_threads(const struct option *opt, const char *arg, bool unset);
int record_opt_synth(const struct option *opt, const char *arg, bool unset);

/* options-sample.c */
int record_opt_freq(const struct option *opt, const char *arg, bool unset);
int record_opt_period(const struct option *opt, const char *arg, bool unset);
int record_opt_call_graph(const struct option *opt, const char *arg, bool unset);
int record_opt_g(const struct option *opt, const char *arg, bool unset);
int record_opt_branch_filter(const struct option *opt, const char *arg, bool unset);
int record_opt_branch_any(const struct option *opt, const char *arg, bool unset);
int record_opt_user_regs(const struct option *opt, const char *arg, bool unset);
int record_opt_intr_regs(const struct option *opt, const char *arg, bool unset);
int record_opt_clockid(const struct option *opt, const char *arg, bool unset);

/*
 * The combinations perf refuses or overrides, after parsing (argc: the
 * words of the command to run). Returns -1 to go on, or an exit code
 * (message printed).
 */
int record_options__check(struct record_opts *o, int argc);

#endif
