// SPDX-License-Identifier: GPL-2.0-only
/* ember: the command table and dispatch. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "builtin.h"

struct command {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *help;
};

static const struct command commands[] = {
	{ "annotate",	cmd_annotate,	"Read perf.data (created by ember or perf record) and display annotated code" },
	{ "collapse",	cmd_collapse,	"Fold perf script output into stacks, as stackcollapse-perf.pl" },
	{ "flamegraph",	cmd_flamegraph,	"Draw an interactive flame graph from perf.data or folded stacks" },
	{ "heatmap",	cmd_heatmap,	"Draw a latency or sample-density heat map" },
	{ "help",	cmd_help,	"Display help information about ember" },
	{ "list",	cmd_list,	"List all symbolic event types" },
	{ "probe",	cmd_probe,	"Define new dynamic tracepoints" },
	{ "profile",	cmd_profile,	"Count stacks in the kernel (BPF) and write folded stacks or a flame graph" },
	{ "record",	cmd_record,	"Run a command and record its profile into perf.data" },
	{ "report",	cmd_report,	"Read perf.data (created by ember or perf record) and display the profile" },
	{ "script",	cmd_script,	"Read perf.data (created by ember or perf record) and display trace output" },
	{ "stat",	cmd_stat,	"Run a command and gather performance counter statistics" },
	{ "top",	cmd_top,	"System profiling tool" },
	{ "trace",	cmd_trace,	"strace inspired tool" },
	{ "version",	cmd_version,	"Display the version of ember" },
	{ "watch",	cmd_watch,	"Wait for a cpu time spike, then write its flame graph and perf.data" },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void print_commands(FILE *fp)
{
	fprintf(fp, "\n usage: ember [--version] [--help] COMMAND [ARGS]\n\n");
	fprintf(fp, " The most commonly used ember commands are:\n");
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(fp, "   %-11s %s\n", commands[i].name, commands[i].help);
	fprintf(fp, "\n See 'ember help COMMAND' for more information on a specific command.\n\n");
}

/* `ember help CMD` is `ember CMD --help`; doc/ember-CMD.1 has the long form. */
int cmd_help(int argc, const char **argv)
{
	const struct command *cmd;
	const char *help_argv[] = { NULL, "--help", NULL };

	if (argc < 2) {
		print_commands(stdout);
		return 0;
	}
	cmd = find_command(argv[1]);
	if (!cmd) {
		fprintf(stderr, "ember: '%s' is not an ember command. See 'ember --help'.\n", argv[1]);
		return 2;
	}
	if (cmd->fn == cmd_help) {
		printf("\n usage: ember %s\n\n %s\n\n", cmd->name, cmd->help);
		return 0;
	}
	help_argv[0] = cmd->name;
	return cmd->fn(2, help_argv);
}

/* Output lost on a full disk must not pass for success, whatever the command. */
static int finish(const struct command *cmd, int ret)
{
	if ((fflush(stdout) || ferror(stdout)) && !ret) {
		fprintf(stderr, "ember %s: cannot write the output: %s\n", cmd->name,
			strerror(errno ? errno : EIO));
		return 1;
	}
	return ret;
}

int main(int argc, const char **argv)
{
	const struct command *cmd;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		print_commands(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-v"))
		return cmd_version(argc - 1, argv + 1);
	/* perf -vv: the version and the build options */
	if (!strcmp(argv[1], "-vv"))
		return cmd_version(2, (const char *[]){ "version", "--build-options", NULL });

	cmd = find_command(argv[1]);
	if (!cmd) {
		fprintf(stderr, "ember: '%s' is not an ember command. See 'ember --help'.\n", argv[1]);
		return 2;
	}
	return finish(cmd, cmd->fn(argc - 1, argv + 1));
}
