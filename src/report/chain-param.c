// SPDX-License-Identifier: GPL-2.0-only
/* perf report's -g/--call-graph argument: mode, threshold, limit, order, key, value. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "report/report.h"

int rep_chain_param__parse(struct rep_chain_param *p, const char *arg)
{
	char *copy, *tok, *save = NULL;
	int numbers = 0, err = 0;

	if (!arg || !*arg)
		return 0;
	copy = strdup(arg);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "graph")) {
			p->mode = REP_CHAIN_GRAPH_ABS;
		} else if (!strcmp(tok, "fractal")) {
			p->mode = REP_CHAIN_GRAPH_REL;
		} else if (!strcmp(tok, "flat")) {
			p->mode = REP_CHAIN_FLAT;
		} else if (!strcmp(tok, "folded")) {
			p->mode = REP_CHAIN_FOLDED;
		} else if (!strcmp(tok, "none")) {
			p->mode = REP_CHAIN_NONE;
		} else if (!strcmp(tok, "caller")) {
			p->order = REP_ORDER_CALLER;
			p->order_set = true;
		} else if (!strcmp(tok, "callee")) {
			p->order = REP_ORDER_CALLEE;
			p->order_set = true;
		} else if (!strcmp(tok, "function")) {
			p->key = REP_CCKEY_FUNCTION;
		} else if (!strcmp(tok, "address")) {
			p->key = REP_CCKEY_ADDRESS;
		} else if (!strcmp(tok, "percent")) {
			p->value = REP_CCVAL_PERCENT;
		} else if (!strcmp(tok, "period")) {
			p->value = REP_CCVAL_PERIOD;
		} else if (!strcmp(tok, "count")) {
			p->value = REP_CCVAL_COUNT;
		} else if (!strcmp(tok, "fp") || !strcmp(tok, "dwarf") || !strcmp(tok, "lbr") ||
			   !strcmp(tok, "branch")) {
			/* record-side and branch options: nothing to do when reading */
		} else {
			char *end;

			if (numbers == 0) {
				double v = strtod(tok, &end);

				if (*end || end == tok) {
					err = -EINVAL;
					break;
				}
				p->min_percent = v;
			} else if (numbers == 1) {
				unsigned long v = strtoul(tok, &end, 0);

				if (*end || end == tok) {
					err = -EINVAL;
					break;
				}
				p->print_limit = v;
			} else {
				err = -EINVAL;
				break;
			}
			numbers++;
		}
	}
	free(copy);
	return err;
}
