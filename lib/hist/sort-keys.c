// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perf report's dimensions (--sort keys and -F fields) and how
 * setup_sorting() turns the options into a sort list and the columns:
 * overhead fields are put in front of the sort keys unless -F is given
 * or the keys name one already, sort keys become columns, and columns
 * not in the sort list end it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <ember/hist.h>
#include "hist/opts.h"

static const char *const dim_names[EMBER_HIST_DIM_NR] = {
	[EMBER_HIST_DIM_OVERHEAD] = "overhead",
	[EMBER_HIST_DIM_OVERHEAD_SYS] = "overhead_sys",
	[EMBER_HIST_DIM_OVERHEAD_US] = "overhead_us",
	[EMBER_HIST_DIM_OVERHEAD_GUEST_SYS] = "overhead_guest_sys",
	[EMBER_HIST_DIM_OVERHEAD_GUEST_US] = "overhead_guest_us",
	[EMBER_HIST_DIM_OVERHEAD_CHILDREN] = "overhead_children",
	[EMBER_HIST_DIM_SAMPLE] = "sample",
	[EMBER_HIST_DIM_PERIOD] = "period",
	[EMBER_HIST_DIM_PID] = "pid",
	[EMBER_HIST_DIM_COMM] = "comm",
	[EMBER_HIST_DIM_DSO] = "dso",
	[EMBER_HIST_DIM_SYM] = "symbol",
	[EMBER_HIST_DIM_PARENT] = "parent",
	[EMBER_HIST_DIM_CPU] = "cpu",
	[EMBER_HIST_DIM_SOCKET] = "socket",
	[EMBER_HIST_DIM_SYMBOL_SIZE] = "symbol_size",
	[EMBER_HIST_DIM_DSO_SIZE] = "dso_size",
	[EMBER_HIST_DIM_IPC_NULL] = "ipc_null",
	[EMBER_HIST_DIM_SRCLINE] = "srcline",
	[EMBER_HIST_DIM_SRCFILE] = "srcfile",
	[EMBER_HIST_DIM_TRACE] = "trace",
	[EMBER_HIST_DIM_ADDR] = "addr",
	[EMBER_HIST_DIM_TIME] = "time",
	[EMBER_HIST_DIM_WEIGHT] = "weight",
	[EMBER_HIST_DIM_LOCAL_WEIGHT] = "local_weight",
	[EMBER_HIST_DIM_TRANSACTION] = "transaction",
	[EMBER_HIST_DIM_CGROUP] = "cgroup",
	[EMBER_HIST_DIM_CGROUP_ID] = "cgroup_id",
	[EMBER_HIST_DIM_CODE_PAGE_SIZE] = "code_page_size",
	[EMBER_HIST_DIM_INS_LAT] = "ins_lat",
	[EMBER_HIST_DIM_LOCAL_INS_LAT] = "local_ins_lat",
};

/* perf looks the key dimensions up before the overhead ones. */
static const enum ember_hist_dim lookup_order[] = {
	EMBER_HIST_DIM_PID, EMBER_HIST_DIM_COMM, EMBER_HIST_DIM_DSO, EMBER_HIST_DIM_SYM,
	EMBER_HIST_DIM_PARENT, EMBER_HIST_DIM_CPU, EMBER_HIST_DIM_SOCKET, EMBER_HIST_DIM_SRCLINE,
	EMBER_HIST_DIM_SRCFILE, EMBER_HIST_DIM_LOCAL_WEIGHT, EMBER_HIST_DIM_WEIGHT,
	EMBER_HIST_DIM_TRANSACTION, EMBER_HIST_DIM_TRACE, EMBER_HIST_DIM_SYMBOL_SIZE,
	EMBER_HIST_DIM_DSO_SIZE, EMBER_HIST_DIM_CGROUP, EMBER_HIST_DIM_CGROUP_ID,
	EMBER_HIST_DIM_IPC_NULL, EMBER_HIST_DIM_TIME, EMBER_HIST_DIM_CODE_PAGE_SIZE,
	EMBER_HIST_DIM_LOCAL_INS_LAT, EMBER_HIST_DIM_INS_LAT, EMBER_HIST_DIM_ADDR,
	EMBER_HIST_DIM_OVERHEAD, EMBER_HIST_DIM_OVERHEAD_SYS, EMBER_HIST_DIM_OVERHEAD_US,
	EMBER_HIST_DIM_OVERHEAD_GUEST_SYS, EMBER_HIST_DIM_OVERHEAD_GUEST_US,
	EMBER_HIST_DIM_OVERHEAD_CHILDREN, EMBER_HIST_DIM_SAMPLE, EMBER_HIST_DIM_PERIOD,
};

const char *ember_hist_dim__name(enum ember_hist_dim d)
{
	return d < EMBER_HIST_DIM_NR ? dim_names[d] : NULL;
}

/* perf's keys ember cannot show, with why; perf takes them by prefix too. */
static const struct {
	const char *name, *why;
} unsupported[] = {
	{ "dso_from", "a branch-stack key (perf report -b); ember reads no branch stacks" },
	{ "dso_to", "a branch-stack key (perf report -b); ember reads no branch stacks" },
	{ "symbol_from", "a branch-stack key (perf report -b); ember reads no branch stacks" },
	{ "symbol_to", "a branch-stack key (perf report -b); ember reads no branch stacks" },
	{ "mispredict", "a branch-stack key (perf report -b); ember reads no branch stacks" },
	{ "in_tx", "a branch-stack key (perf report -b); ember reads no branch stacks" },
	{ "abort", "a branch-stack key (perf report -b); ember reads no branch stacks" },
	{ "cycles", "a branch-stack key (perf report -b); ember reads no branch stacks" },
	{ "srcline_from", "a branch-stack key (perf report -b); ember reads no branch stacks" },
	{ "srcline_to", "a branch-stack key (perf report -b); ember reads no branch stacks" },
	{ "ipc_lbr", "a branch-stack key (perf report -b); ember reads no branch stacks" },
	{ "addr_from", "a branch-stack key (perf report -b); ember reads no branch stacks" },
	{ "addr_to", "a branch-stack key (perf report -b); ember reads no branch stacks" },
	{ "symbol_daddr", "a memory-access key (perf report --mem-mode); not supported by ember" },
	{ "dso_daddr", "a memory-access key (perf report --mem-mode); not supported by ember" },
	{ "locked", "a memory-access key (perf report --mem-mode); not supported by ember" },
	{ "tlb", "a memory-access key (perf report --mem-mode); not supported by ember" },
	{ "mem", "a memory-access key (perf report --mem-mode); not supported by ember" },
	{ "snoop", "a memory-access key (perf report --mem-mode); not supported by ember" },
	{ "dcacheline", "a memory-access key (perf report --mem-mode); not supported by ember" },
	{ "symbol_iaddr", "a memory-access key (perf report --mem-mode); not supported by ember" },
	{ "phys_daddr", "a memory-access key (perf report --mem-mode); not supported by ember" },
	{ "data_page_size", "a memory-access key (perf report --mem-mode); not supported by ember" },
	{ "blocked", "a memory-access key (perf report --mem-mode); not supported by ember" },
	{ "trace_fields", "perf's --raw-trace form of trace; not supported by ember" },
};

const char *ember_hist_dim__unsupported(const char *name)
{
	size_t len = strlen(name), i;

	for (i = 0; len && i < sizeof(unsupported) / sizeof(unsupported[0]); i++)
		if (!strncasecmp(name, unsupported[i].name, len))
			return unsupported[i].why;
	return NULL;
}

/* perf's pipeline-stage keys exist on powerpc only: elsewhere perf drops them. */
static bool ignored(const char *name)
{
	size_t len = strlen(name);

	return len && (!strncasecmp(name, "local_p_stage_cyc", len) ||
		       !strncasecmp(name, "p_stage_cyc", len));
}

int ember_hist_dim__find(const char *name)
{
	size_t len = strlen(name), i;

	if (!len)
		return -1;
	/* perf: the key may be a prefix of the name ("sym" for "symbol") */
	for (i = 0; i < sizeof(lookup_order) / sizeof(lookup_order[0]); i++)
		if (!strncasecmp(name, dim_names[lookup_order[i]], len))
			return lookup_order[i];
	return -1;
}

bool ember_hist_dim__is_value(enum ember_hist_dim d)
{
	return d <= EMBER_HIST_DIM_PERIOD;
}

static bool has(const enum ember_hist_dim *v, int nr, enum ember_hist_dim d)
{
	int i;

	for (i = 0; i < nr; i++)
		if (v[i] == d)
			return true;
	return false;
}

/* Adds the comma-separated keys of list to v; -EINVAL with the bad key copied out. */
static int add_list(enum ember_hist_dim *v, int *nr, const char *list, char *bad, size_t badsz)
{
	char *copy = strdup(list), *tok, *save = NULL;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		int d = ember_hist_dim__find(tok);

		if (d < 0 && ignored(tok))
			continue;
		if (d < 0) {
			if (bad && badsz)
				snprintf(bad, badsz, "%s", tok);
			err = -EINVAL;
			break;
		}
		/* perf ignores a key given twice */
		if (has(v, *nr, d))
			continue;
		if (*nr == EMBER_HIST_MAX_COLS) {
			err = -E2BIG;
			break;
		}
		v[(*nr)++] = d;
	}
	free(copy);
	return err;
}

static void push(enum ember_hist_dim *v, int *nr, enum ember_hist_dim d)
{
	if (!has(v, *nr, d) && *nr < EMBER_HIST_MAX_COLS)
		v[(*nr)++] = d;
}

static bool is_strict(const char *order)
{
	return order && order[0] != '+';
}

int ember_hist_layout__setup(struct ember_hist_layout *l, const struct ember_hist_layout_opts *opts,
			     char *bad, size_t badsz)
{
	struct ember_hist_layout_opts whole, *o = &whole;
	const char *defsort;
	bool strict_fields;
	char *keys = NULL;
	int err = 0, i;

	if (!opts || !opts->sz)
		return -EINVAL;
	hist_opts_copy(o, sizeof(*o), opts, opts->sz);
	defsort = o->default_sort ? o->default_sort : "comm,dso,sym";
	strict_fields = is_strict(o->field_order);
	memset(l, 0, sizeof(*l));

	/* the sort keys: --sort, "+key" appends to the default */
	if (o->sort_order && o->sort_order[0] == '+') {
		if (asprintf(&keys, "%s,%s", defsort, o->sort_order + 1) < 0)
			return -ENOMEM;
	} else if (o->sort_order) {
		keys = strdup(o->sort_order);
	} else if (!strict_fields) {
		keys = strdup(defsort);
	}
	if ((o->sort_order || !strict_fields) && !keys)
		return -ENOMEM;

	if (keys) {
		/*
		 * perf prepends the overhead fields for backward
		 * compatibility, unless the keys contain their names (a
		 * substring test: "overhead_sys" counts as "overhead").
		 */
		if (!strict_fields) {
			bool want_children = o->children && !strstr(keys, "overhead_children");

			if (want_children)
				l->sort[l->nr_sort++] = EMBER_HIST_DIM_OVERHEAD_CHILDREN;
			if (!strstr(keys, "overhead"))
				l->sort[l->nr_sort++] = EMBER_HIST_DIM_OVERHEAD;
		}
		err = add_list(l->sort, &l->nr_sort, keys, bad, badsz);
		/*
		 * perf report appends "ipc_null" to a --sort naming "symbol"
		 * (not "sym"): the IPC columns, empty without branch data
		 */
		if (!err && o->sort_order && strstr(o->sort_order, "symbol"))
			err = add_list(l->sort, &l->nr_sort, "ipc_null", bad, badsz);
		if (!err && o->sort_order && !strncasecmp(o->sort_order, "sym", 3) &&
		    !o->field_order)
			l->first_sort_is_sym = true;
		free(keys);
		if (err)
			return err;
	}

	/* the columns: -F, or perf_hpp__init()'s overhead columns */
	if (o->field_order) {
		const char *f = o->field_order[0] == '+' ? o->field_order + 1 : o->field_order;

		if (!strict_fields) {
			if (o->children)
				push(l->cols, &l->nr_cols, EMBER_HIST_DIM_OVERHEAD_CHILDREN);
			push(l->cols, &l->nr_cols, EMBER_HIST_DIM_OVERHEAD);
		}
		err = add_list(l->cols, &l->nr_cols, f, bad, badsz);
		if (err)
			return err;
	} else {
		if (o->children)
			push(l->cols, &l->nr_cols, EMBER_HIST_DIM_OVERHEAD_CHILDREN);
		push(l->cols, &l->nr_cols, EMBER_HIST_DIM_OVERHEAD);
		if (o->show_nr_samples)
			push(l->cols, &l->nr_cols, EMBER_HIST_DIM_SAMPLE);
		if (o->show_total_period)
			push(l->cols, &l->nr_cols, EMBER_HIST_DIM_PERIOD);
	}
	/* sort keys become columns, columns end the sort list */
	for (i = 0; i < l->nr_sort; i++)
		push(l->cols, &l->nr_cols, l->sort[i]);
	for (i = 0; i < l->nr_cols; i++)
		push(l->sort, &l->nr_sort, l->cols[i]);

	l->self_header = o->children && !strict_fields;
	for (i = 0; i < l->nr_sort; i++)
		if (!ember_hist_dim__is_value(l->sort[i]))
			l->key_mask |= EMBER_HIST_KEY(l->sort[i]);
	return 0;
}
