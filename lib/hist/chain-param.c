// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* perf report's -g/--call-graph argument: mode, threshold, limit, order, key, value. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <ember/hist.h>

void ember_callchain_param__init(struct ember_callchain_param *p)
{
	*p = (struct ember_callchain_param){
		.mode = EMBER_CALLCHAIN_GRAPH_ABS,
		.order = EMBER_CALLCHAIN_CALLEE,
		.value = EMBER_CALLCHAIN_PERCENT,
		.key = EMBER_CALLCHAIN_FUNCTION,
		.min_percent = 0.5,
	};
}

int ember_callchain_param__parse(struct ember_callchain_param *p, const char *arg)
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
			p->mode = EMBER_CALLCHAIN_GRAPH_ABS;
		} else if (!strcmp(tok, "fractal")) {
			p->mode = EMBER_CALLCHAIN_GRAPH_REL;
		} else if (!strcmp(tok, "flat")) {
			p->mode = EMBER_CALLCHAIN_FLAT;
		} else if (!strcmp(tok, "folded")) {
			p->mode = EMBER_CALLCHAIN_FOLDED;
		} else if (!strcmp(tok, "none")) {
			p->mode = EMBER_CALLCHAIN_NONE;
		} else if (!strcmp(tok, "caller")) {
			p->order = EMBER_CALLCHAIN_CALLER;
			p->order_set = true;
		} else if (!strcmp(tok, "callee")) {
			p->order = EMBER_CALLCHAIN_CALLEE;
			p->order_set = true;
		} else if (!strcmp(tok, "function")) {
			p->key = EMBER_CALLCHAIN_FUNCTION;
		} else if (!strcmp(tok, "address")) {
			p->key = EMBER_CALLCHAIN_ADDRESS;
		} else if (!strcmp(tok, "percent")) {
			p->value = EMBER_CALLCHAIN_PERCENT;
		} else if (!strcmp(tok, "period")) {
			p->value = EMBER_CALLCHAIN_PERIOD;
		} else if (!strcmp(tok, "count")) {
			p->value = EMBER_CALLCHAIN_COUNT;
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
