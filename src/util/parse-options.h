/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Command-line options in perf's style: short and long names, "--opt=val",
 * "--opt val", "-e val", "-eval", bundled flags "-ag", "--no-FLAG" for
 * booleans, and "--" to end options.
 */
#ifndef EMBER_PARSE_OPTIONS_H
#define EMBER_PARSE_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

enum option_type {
	OPTION_END,
	OPTION_GROUP,		/* a heading in the help text */
	OPTION_BOOLEAN,		/* bool *; --no-NAME clears it */
	OPTION_INCR,		/* int *; each use adds one (-v -v, -ddd) */
	OPTION_INTEGER,		/* int * */
	OPTION_UINTEGER,	/* unsigned int * */
	OPTION_U64,		/* unsigned long long * */
	OPTION_STRING,		/* const char ** (points into argv) */
	OPTION_CALLBACK,	/* callback(opt, arg, unset) */
};

/* Option flags. */
#define OPTF_OPTARG	(1 << 0)	/* the argument is optional (only as --opt=val) */
#define OPTF_NOARG	(1 << 1)	/* a callback that takes no argument */
#define OPTF_HIDDEN	(1 << 2)	/* not listed in the help text */
#define OPTF_NONEG	(1 << 3)	/* no --no-NAME form */

struct option;
typedef int (*option_cb_t)(const struct option *opt, const char *arg, bool unset);

struct option {
	enum option_type type;
	int short_name;
	const char *long_name;
	void *value;
	const char *argh;	/* the argument's name in the help text */
	const char *help;
	option_cb_t callback;
	int flags;
	const char *defval;	/* argument given to OPTF_OPTARG options used bare */
};

#define OPT_END()				{ .type = OPTION_END }
#define OPT_GROUP(h)				{ .type = OPTION_GROUP, .help = (h) }
#define OPT_BOOLEAN(s, l, v, h)			{ OPTION_BOOLEAN, (s), (l), (v), NULL, (h) }
#define OPT_INCR(s, l, v, h)			{ OPTION_INCR, (s), (l), (v), NULL, (h) }
#define OPT_INTEGER(s, l, v, a, h)		{ OPTION_INTEGER, (s), (l), (v), (a), (h) }
#define OPT_UINTEGER(s, l, v, a, h)		{ OPTION_UINTEGER, (s), (l), (v), (a), (h) }
#define OPT_U64(s, l, v, a, h)			{ OPTION_U64, (s), (l), (v), (a), (h) }
#define OPT_STRING(s, l, v, a, h)		{ OPTION_STRING, (s), (l), (v), (a), (h) }
#define OPT_CALLBACK(s, l, v, a, h, cb)		{ OPTION_CALLBACK, (s), (l), (v), (a), (h), (cb) }
#define OPT_CALLBACK_NOARG(s, l, v, h, cb)	{ OPTION_CALLBACK, (s), (l), (v), NULL, (h), (cb), OPTF_NOARG }

/* parse_options() flags. */
#define PARSE_OPT_STOP_AT_NON_OPTION	(1 << 0)	/* the rest is a command to run */
#define PARSE_OPT_KEEP_UNKNOWN		(1 << 1)

/* Returned by parse_options() after printing help for -h/--help. */
#define PARSE_OPT_HELP		(-1000)
/* Returned after printing a usage error (the caller exits 2). */
#define PARSE_OPT_ERROR		(-1001)

/*
 * Parse argv[1..argc-1] (argv[0] is the command's name). Non-option
 * arguments are moved, in order, to the front of argv. Returns how many
 * there are, PARSE_OPT_HELP after printing help on stdout, or
 * PARSE_OPT_ERROR after printing one line on stderr.
 */
int parse_options(int argc, const char **argv, const struct option *opts,
		  const char *const usagestr[], int flags);

/* Print the usage lines and the option table. */
void print_usage(FILE *fp, const char *const usagestr[], const struct option *opts);

/* For commands: map parse_options() results to an exit code, or -1 to go on. */
static inline int parse_options_exit_code(int ret)
{
	if (ret == PARSE_OPT_HELP)
		return 0;
	if (ret == PARSE_OPT_ERROR)
		return 2;
	return -1;
}

#endif
