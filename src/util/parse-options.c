// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/parse-options.h"

struct parse_state {
	const char *cmd;
	const char *const *usagestr;
	const struct option *opts;
};

static int opt_error(const struct parse_state *st, const char *fmt, const char *what)
{
	fprintf(stderr, "ember %s: ", st->cmd);
	fprintf(stderr, fmt, what);
	fprintf(stderr, " (see 'ember %s --help')\n", st->cmd);
	return PARSE_OPT_ERROR;
}

static bool takes_arg(const struct option *o)
{
	switch (o->type) {
	case OPTION_BOOLEAN:
	case OPTION_INCR:
		return false;
	case OPTION_CALLBACK:
		return !(o->flags & OPTF_NOARG);
	default:
		return true;
	}
}

static int parse_number(const struct parse_state *st, const struct option *o, const char *arg,
			unsigned long long *out, bool is_signed)
{
	char *end;

	errno = 0;
	if (is_signed)
		*out = (unsigned long long)strtoll(arg, &end, 0);
	else
		*out = strtoull(arg, &end, 0);
	if (errno || end == arg || *end || (!is_signed && arg[0] == '-'))
		return opt_error(st, "option '%s' expects a number", o->long_name ? o->long_name : "?");
	return 0;
}

/* Apply one option; arg is NULL when none was given. */
static int apply(const struct parse_state *st, const struct option *o, const char *arg, bool unset)
{
	unsigned long long n;
	int err;

	switch (o->type) {
	case OPTION_BOOLEAN:
		*(bool *)o->value = !unset;
		return 0;
	case OPTION_INCR:
		*(int *)o->value = unset ? 0 : *(int *)o->value + 1;
		return 0;
	case OPTION_STRING:
		*(const char **)o->value = unset ? NULL : arg;
		return 0;
	case OPTION_INTEGER:
		if (unset) {
			*(int *)o->value = 0;
			return 0;
		}
		err = parse_number(st, o, arg, &n, true);
		if (err)
			return err;
		if ((long long)n < INT_MIN || (long long)n > INT_MAX)
			return opt_error(st, "option '%s' is out of range", o->long_name);
		*(int *)o->value = (int)n;
		return 0;
	case OPTION_UINTEGER:
		if (unset) {
			*(unsigned int *)o->value = 0;
			return 0;
		}
		err = parse_number(st, o, arg, &n, false);
		if (err)
			return err;
		if (n > UINT_MAX)
			return opt_error(st, "option '%s' is out of range", o->long_name);
		*(unsigned int *)o->value = (unsigned int)n;
		return 0;
	case OPTION_U64:
		if (unset) {
			*(unsigned long long *)o->value = 0;
			return 0;
		}
		err = parse_number(st, o, arg, &n, false);
		if (err)
			return err;
		*(unsigned long long *)o->value = n;
		return 0;
	case OPTION_CALLBACK:
		if (o->callback(o, arg, unset))
			return PARSE_OPT_ERROR;
		return 0;
	default:
		return 0;
	}
}

static const struct option *find_short(const struct option *opts, int c)
{
	for (; opts->type != OPTION_END; opts++)
		if (opts->type != OPTION_GROUP && opts->short_name == c)
			return opts;
	return NULL;
}

/*
 * Find a long option by exact name, or by an unambiguous prefix (as perf
 * does: --per-c for --per-cpu). *negated is set for --no-NAME.
 */
static const struct option *find_long(const struct parse_state *st, const char *name, size_t len,
				      bool *negated, int *err)
{
	const struct option *o, *prefix_match = NULL;
	int nr_prefix = 0;

	*err = 0;
	for (int pass = 0; pass < 2; pass++) {
		bool neg = pass == 1;
		const char *n = name;
		size_t l = len;

		if (neg) {
			if (len < 3 || strncmp(name, "no-", 3))
				break;
			n += 3;
			l -= 3;
		}
		for (o = st->opts; o->type != OPTION_END; o++) {
			if (o->type == OPTION_GROUP || !o->long_name)
				continue;
			if (neg && (o->flags & OPTF_NONEG))
				continue;
			if (strlen(o->long_name) == l && !strncmp(o->long_name, n, l)) {
				*negated = neg;
				return o;
			}
			if (!strncmp(o->long_name, n, l)) {
				if (prefix_match != o)
					nr_prefix++;
				prefix_match = o;
				*negated = neg;
			}
		}
	}
	/* An option literally named "no-xxx" (as perf's --no-inherit) matched exactly above. */
	if (nr_prefix == 1)
		return prefix_match;
	if (nr_prefix > 1)
		*err = -1;
	return NULL;
}

static int parse_long(struct parse_state *st, const char *arg, int argc, const char **argv, int *i)
{
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	const struct option *o;
	bool negated = false;
	int ambiguous;

	o = find_long(st, arg, len, &negated, &ambiguous);
	if (!o) {
		char name[128];

		snprintf(name, sizeof(name), "%.*s", (int)len, arg);
		return opt_error(st, ambiguous ? "ambiguous option '--%s'" : "unknown option '--%s'",
				 name);
	}
	if (negated) {
		if (eq)
			return opt_error(st, "option '--no-%s' takes no value", o->long_name);
		return apply(st, o, NULL, true);
	}
	if (!takes_arg(o)) {
		if (eq)
			return opt_error(st, "option '--%s' takes no value", o->long_name);
		return apply(st, o, NULL, false);
	}
	if (eq)
		return apply(st, o, eq + 1, false);
	if (o->flags & OPTF_OPTARG)
		return apply(st, o, o->defval, false);
	if (*i + 1 >= argc)
		return opt_error(st, "option '--%s' requires a value", o->long_name);
	return apply(st, o, argv[++*i], false);
}

static int parse_short(struct parse_state *st, const char *arg, int argc, const char **argv, int *i)
{
	for (const char *p = arg; *p; p++) {
		const struct option *o = find_short(st->opts, *p);
		char name[2] = { *p, 0 };

		if (!o)
			return opt_error(st, "unknown switch '-%s'", name);
		if (!takes_arg(o)) {
			int err = apply(st, o, NULL, false);

			if (err)
				return err;
			continue;
		}
		if (p[1])
			return apply(st, o, p + 1, false);
		if (o->flags & OPTF_OPTARG)
			return apply(st, o, o->defval, false);
		if (*i + 1 >= argc)
			return opt_error(st, "switch '-%s' requires a value", name);
		return apply(st, o, argv[++*i], false);
	}
	return 0;
}

int parse_options(int argc, const char **argv, const struct option *opts,
		  const char *const usagestr[], int flags)
{
	struct parse_state st = { .cmd = argv[0], .usagestr = usagestr, .opts = opts };
	int nr_args = 0, i, err;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (arg[0] != '-' || arg[1] == '\0') {
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION)
				break;
			argv[nr_args++] = arg;
			continue;
		}
		if (!strcmp(arg, "--")) {
			i++;
			break;
		}
		if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
			print_usage(stdout, usagestr, opts);
			return PARSE_OPT_HELP;
		}
		if (arg[1] == '-')
			err = parse_long(&st, arg + 2, argc, argv, &i);
		else
			err = parse_short(&st, arg + 1, argc, argv, &i);
		if (err)
			return err;
	}
	for (; i < argc; i++)
		argv[nr_args++] = argv[i];
	argv[nr_args] = NULL;
	return nr_args;
}

void print_usage(FILE *fp, const char *const usagestr[], const struct option *opts)
{
	fprintf(fp, "\n Usage: %s\n", usagestr[0]);
	for (int i = 1; usagestr[i]; i++)
		fprintf(fp, "    or: %s\n", usagestr[i]);
	fputc('\n', fp);
	for (; opts->type != OPTION_END; opts++) {
		char left[80];
		int n = 0;

		if (opts->flags & OPTF_HIDDEN)
			continue;
		if (opts->type == OPTION_GROUP) {
			fprintf(fp, "\n%s\n", opts->help);
			continue;
		}
		if (opts->short_name)
			n += snprintf(left + n, sizeof(left) - n, "-%c", opts->short_name);
		if (opts->long_name)
			n += snprintf(left + n, sizeof(left) - n, "%s--%s", n ? ", " : "    ",
				      opts->long_name);
		if (opts->argh && n < (int)sizeof(left))
			snprintf(left + n, sizeof(left) - n, (opts->flags & OPTF_OPTARG) ? "[=<%s>]" : " <%s>",
				 opts->argh);
		fprintf(fp, "    %-24s %s\n", left, opts->help ? opts->help : "");
	}
	fputc('\n', fp);
}
