// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember record's sampling options, as perf record 6.1 spells them: how
 * often (-F, -c), and what each sample holds besides (call graphs, branch
 * stacks, registers, the clock of its time).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "record/err.h"
#include "record/options-callbacks.h"
#include "record/options.h"
#include "util/sysctl.h"

int record_opt_freq(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;
	char *end;
	unsigned long v;

	if (unset)
		return 0;
	o->sample.freq_given = true;
	if (!strcmp(arg, "max")) {
		o->sample.freq_max = true;
		return 0;
	}
	errno = 0;
	v = strtoul(arg, &end, 0);
	if (errno || end == arg || *end || arg[0] == '-' || v > 0xffffffffUL) {
		record_err("-F expects a frequency in Hz or 'max', not '%s'", arg);
		return -1;
	}
	o->sample.freq = (unsigned int)v;
	o->sample.freq_max = false;
	return 0;
}

int record_opt_period(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;
	char *end;

	if (unset)
		return 0;
	errno = 0;
	o->sample.period = strtoull(arg, &end, 0);
	if (errno || end == arg || *end || arg[0] == '-') {
		record_err("-c expects a sample period (events between samples), not '%s'", arg);
		return -1;
	}
	o->sample.period_given = true;
	return 0;
}

/*
 * The next of perf's --call-graph tokens at *p: split at commas, empty
 * ones skipped (perf takes them with strtok_r()). Its length in *len;
 * NULL when there is none.
 */
static const char *callchain_token(const char **p, size_t *len)
{
	const char *tok = *p + strspn(*p, ",");

	if (!*tok)
		return NULL;
	*len = strcspn(tok, ",");
	*p = tok + *len;
	return tok;
}

/* perf's get_stack_size(): a number, rounded up to 8 bytes, 8 to 65528 */
static int parse_stack_size(const char *tok, size_t len, unsigned int *stack_size, char *why,
			    size_t why_size)
{
	char buf[32], *end;
	unsigned long long size = 0;

	if (len < sizeof(buf)) {
		memcpy(buf, tok, len);
		buf[len] = 0;
		errno = 0;
		size = strtoull(buf, &end, 0);
		if (errno || end == buf || *end || buf[0] == '-')
			size = 0;
	}
	size = (size + 7) & ~7ULL;
	if (!size || size > RECORD_DWARF_STACK_MAX) {
		snprintf(why, why_size, "callchain: Incorrect stack dump size (max %d): %.*s",
			 RECORD_DWARF_STACK_MAX, (int)len, tok);
		return -EINVAL;
	}
	*stack_size = (unsigned int)size;
	return 0;
}

/*
 * perf's parse_callchain_record(): the mode, then for fp a stack depth
 * (taken when below the kernel's, anything else ignored), for dwarf a
 * stack dump size; what follows is ignored; lbr takes nothing more.
 */
int record_callchain__parse(const char *arg, enum record_callchain *mode,
			    unsigned int *stack_size, unsigned int *max_stack, char *why,
			    size_t why_size)
{
	const char *p = arg, *tok;
	size_t len = 0;

	tok = callchain_token(&p, &len);
	if (tok && len == 2 && !strncmp(tok, "fp", 2)) {
		*mode = RECORD_CALLCHAIN_FP;
		tok = callchain_token(&p, &len);
		if (tok) {
			unsigned long depth = strtoul(tok, NULL, 0);

			if (depth < sysctl__max_stack())
				*max_stack = (unsigned int)depth;
		}
		return 0;
	}
	if (tok && len == 3 && !strncmp(tok, "lbr", 3)) {
		if (callchain_token(&p, &len)) {
			snprintf(why, why_size, "callchain: No more arguments needed for --call-graph lbr");
			return -EINVAL;
		}
		*mode = RECORD_CALLCHAIN_LBR;
		return 0;
	}
	if (tok && len == 5 && !strncmp(tok, "dwarf", 5)) {
		unsigned int size = RECORD_DWARF_STACK;

		tok = callchain_token(&p, &len);
		if (tok && parse_stack_size(tok, len, &size, why, why_size))
			return -EINVAL;
		*mode = RECORD_CALLCHAIN_DWARF;
		*stack_size = size;
		return 0;
	}
	snprintf(why, why_size,
		 "callchain: Unknown --call-graph option value: %s (use fp, dwarf[,size] or lbr)", arg);
	return -EINVAL;
}

int record_options__parse_callchain(const char *arg, enum record_callchain *mode,
				    unsigned int *stack_size, unsigned int *max_stack)
{
	char why[256];
	int err = record_callchain__parse(arg, mode, stack_size, max_stack, why, sizeof(why));

	if (err)
		record_err("%s", why);
	return err;
}

int record_opt_call_graph(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;

	if (unset) {
		o->sample.callchain = RECORD_CALLCHAIN_NONE;
		return 0;
	}
	if (record_options__parse_callchain(arg, &o->sample.callchain, &o->sample.stack_size,
					    &o->sample.max_stack))
		return -1;
	return 0;
}

/* -g: frame-pointer call graphs, unless --call-graph already chose a mode. */
int record_opt_g(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;

	if (unset)
		o->sample.callchain = RECORD_CALLCHAIN_NONE;
	else if (o->sample.callchain == RECORD_CALLCHAIN_NONE)
		o->sample.callchain = RECORD_CALLCHAIN_FP;
	return 0;
}

/* perf's -j names (util/parse-branch-options.c), and -b's "any". */
static const struct {
	const char *name;
	uint64_t bit;
} branch_modes[] = {
	{ "u", PERF_SAMPLE_BRANCH_USER },
	{ "k", PERF_SAMPLE_BRANCH_KERNEL },
	{ "hv", PERF_SAMPLE_BRANCH_HV },
	{ "any", PERF_SAMPLE_BRANCH_ANY },
	{ "any_call", PERF_SAMPLE_BRANCH_ANY_CALL },
	{ "any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN },
	{ "ind_call", PERF_SAMPLE_BRANCH_IND_CALL },
	{ "abort_tx", PERF_SAMPLE_BRANCH_ABORT_TX },
	{ "in_tx", PERF_SAMPLE_BRANCH_IN_TX },
	{ "no_tx", PERF_SAMPLE_BRANCH_NO_TX },
	{ "cond", PERF_SAMPLE_BRANCH_COND },
	{ "ind_jmp", PERF_SAMPLE_BRANCH_IND_JUMP },
	{ "call", PERF_SAMPLE_BRANCH_CALL },
	{ "save_type", PERF_SAMPLE_BRANCH_TYPE_SAVE },
	{ "stack", PERF_SAMPLE_BRANCH_CALL_STACK },
	{ "hw_index", PERF_SAMPLE_BRANCH_HW_INDEX },
	{ "priv", PERF_SAMPLE_BRANCH_PRIV_SAVE },
};

int record_options__parse_branch(const char *arg, uint64_t *mask)
{
	const uint64_t plm = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL |
			     PERF_SAMPLE_BRANCH_HV;
	const char *p = arg;

	*mask = 0;
	while (*p) {
		size_t len = strcspn(p, ",|"), i;

		for (i = 0; i < sizeof(branch_modes) / sizeof(branch_modes[0]); i++)
			if (strlen(branch_modes[i].name) == len &&
			    !strncmp(branch_modes[i].name, p, len))
				break;
		if (i == sizeof(branch_modes) / sizeof(branch_modes[0])) {
			record_err("unknown branch filter %.*s, check man page", (int)len, p);
			return -EINVAL;
		}
		*mask |= branch_modes[i].bit;
		p += len;
		if (*p)
			p++;
	}
	/* As perf: privilege levels alone mean any branch at those levels. */
	if (!(*mask & ~plm))
		*mask |= PERF_SAMPLE_BRANCH_ANY;
	return 0;
}

int record_opt_branch_filter(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;
	uint64_t mask;

	if (unset) {
		o->sample.branch_stack = 0;
		return 0;
	}
	if (record_options__parse_branch(arg, &mask))
		return -1;
	o->sample.branch_stack |= mask;
	return 0;
}

int record_opt_branch_any(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;

	o->sample.branch_stack = unset ? 0 : o->sample.branch_stack | PERF_SAMPLE_BRANCH_ANY;
	return 0;
}

/* x86_64's perf register names, in PERF_REG_X86_* order. */
static const char *const x86_regs[] = {
	"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
	"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
};

/* --user-regs / --intr-regs: "" or NULL is perf's default set, "?" lists them. */
static int parse_regs(const char *what, const char *arg, uint64_t *mask)
{
	const char *p = arg;

	if (!arg || !*arg) {
		*mask = 0xff0fffULL;	/* every register but ds, es, fs, gs, as perf */
		return 0;
	}
	if (!strcmp(arg, "?")) {
		fputs("available registers:", stdout);
		for (size_t i = 0; i < sizeof(x86_regs) / sizeof(x86_regs[0]); i++)
			printf(" %s", x86_regs[i]);
		putchar('\n');
		return 1;
	}
	*mask = 0;
	while (*p) {
		size_t len = strcspn(p, ","), i;

		for (i = 0; i < sizeof(x86_regs) / sizeof(x86_regs[0]); i++)
			if (strlen(x86_regs[i]) == len && !strncasecmp(x86_regs[i], p, len))
				break;
		if (i == sizeof(x86_regs) / sizeof(x86_regs[0])) {
			record_err("unknown register \"%.*s\" in %s, check man page (or %s=?)",
				   (int)len, p, what, what);
			return -1;
		}
		*mask |= 1ULL << i;
		p += len;
		if (*p)
			p++;
	}
	return 0;
}

int record_opt_user_regs(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;

	if (unset) {
		o->sample.user_regs = 0;
		return 0;
	}
	return parse_regs("--user-regs", arg, &o->sample.user_regs);
}

int record_opt_intr_regs(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;

	if (unset) {
		o->sample.intr_regs = 0;
		return 0;
	}
	return parse_regs("--intr-regs", arg, &o->sample.intr_regs);
}

/* perf's clockid names (util/clockid.c), and numbers. */
static const struct {
	const char *name;
	int id;
} clockids[] = {
	{ "monotonic", CLOCK_MONOTONIC }, { "monotonic_raw", CLOCK_MONOTONIC_RAW },
	{ "realtime", CLOCK_REALTIME }, { "boottime", CLOCK_BOOTTIME }, { "tai", CLOCK_TAI },
	{ "mono", CLOCK_MONOTONIC }, { "raw", CLOCK_MONOTONIC_RAW }, { "real", CLOCK_REALTIME },
	{ "boot", CLOCK_BOOTTIME },
};

int record_opt_clockid(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;
	const char *name = arg;
	char *end;
	long v;

	if (unset) {
		o->sample.use_clockid = false;
		return 0;
	}
	if (!strncasecmp(name, "CLOCK_", 6))
		name += 6;
	for (size_t i = 0; i < sizeof(clockids) / sizeof(clockids[0]); i++) {
		if (!strcasecmp(clockids[i].name, name)) {
			o->sample.use_clockid = true;
			o->sample.clockid = clockids[i].id;
			return 0;
		}
	}
	errno = 0;
	v = strtol(arg, &end, 0);
	if (errno || end == arg || *end || v < 0) {
		record_err("unknown clockid %s, check man page", arg);
		return -1;
	}
	/* The kernel's perf clocks: the ones clock_gettime() reads without a task or cpu. */
	if (v != CLOCK_MONOTONIC && v != CLOCK_MONOTONIC_RAW && v != CLOCK_REALTIME &&
	    v != CLOCK_BOOTTIME && v != CLOCK_TAI) {
		record_err("wrong clockid (%ld): perf events time with monotonic, monotonic_raw, "
			   "realtime, boottime or tai", v);
		return -1;
	}
	o->sample.use_clockid = true;
	o->sample.clockid = (int)v;
	return 0;
}
