/* SPDX-License-Identifier: GPL-2.0-only */
/* Every ember command: one file src/cmd-<name>.c, one signature. */
#ifndef EMBER_BUILTIN_H
#define EMBER_BUILTIN_H

int cmd_list(int argc, const char **argv);
int cmd_stat(int argc, const char **argv);
int cmd_top(int argc, const char **argv);
int cmd_record(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_script(int argc, const char **argv);
int cmd_flamegraph(int argc, const char **argv);
int cmd_annotate(int argc, const char **argv);
int cmd_collapse(int argc, const char **argv);
int cmd_heatmap(int argc, const char **argv);
int cmd_probe(int argc, const char **argv);
int cmd_profile(int argc, const char **argv);
int cmd_trace(int argc, const char **argv);
int cmd_help(int argc, const char **argv);
int cmd_version(int argc, const char **argv);
int cmd_watch(int argc, const char **argv);

#endif
