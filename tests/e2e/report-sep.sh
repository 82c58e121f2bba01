#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember report --stdio -t SEP (--field-separator) against perf report on the
# same files: the header line of column names, numbers unpadded after one
# space, names with the separator's character dotted out, callchains in
# their usual layout (folded ones joined by SEP), and perf's refusal of '.'.
. "$(dirname "$0")/../lib/e2e.sh"
. "$(dirname "$0")/../lib/report-lib.bash"

if ! have_perf; then
	skip setup "perf is not installed"
	exit 0
fi
if ! is_root; then
	skip setup "recording the whole system needs root"
	exit 0
fi
cd "$TMP" || exit 1

# PLT rows of system-wide files: named differently by libember (see report.sh)
FILTER=cat
no_plt() { grep -Ev '\[\.\] (_init|[^ ]+@plt)'; }
no_plt_unresolved() { no_plt | no_unresolved; }

if rec g -g "$WL/hotloop" 300; then
	same g-comma -i g.data -t ,
	same g-comma-long -i g.data --field-separator=,
	same g-bar-n -i g.data --no-children -t '|' -n
	same g-ui -i g.data -tui
	same g-ui-none -i g.data -t ui -g none
	same g-space -i g.data -t ' ' -g none
	same g-space-chains -i g.data --no-children -t ' '
	same g-total -i g.data -t , --show-total-period -n -g none
	same g-total-nochildren -i g.data --no-children -t ';' --show-total-period -g none
	same g-tab -i g.data -t "$(printf '\t')" --no-children -n
	same g-word -i g.data -t ' :: ' --no-children
	same g-sort-sym -i g.data -t , -s sym
	same g-sort-sym-first -i g.data --no-children -t , -s sym,dso
	same g-sort-dso -i g.data -t '|' -s dso -n
	same g-sort-pid -i g.data -t , -s pid,comm -g none
	same g-sort-cpu -i g.data -t , -s cpu,sym --no-children
	same g-folded -i g.data --no-children -t , -g folded
	same g-folded-u -i g.data --no-children -t u -g folded
	same g-flat -i g.data --no-children -t , -g flat
	same g-caller -i g.data -t '|' -g caller
	same g-fractal -i g.data --no-children -t , -g fractal,0.5,callee,function,count
	same g-quiet -i g.data -q -t ,
	same g-comms -i g.data -t , --comms hotloop -g none
	same g-F -i g.data --no-children -t , -F overhead,sample,sym -g none
	same g-empty -i g.data -t '' -g none
	same g-long-children -i g.data -t ' :: ' -n -g none
	same g-long-chains -i g.data -t '<--->' --no-children -s sym
	same g-sym-not-last -i g.data -t ' ' -s sym,comm -g none
	same g-dash -i g.data -t - --no-children -s dso,sym -g none
	same g-percent -i g.data -t % -n --no-children -g none
	same g-folded-children -i g.data -t '|' -g folded,0.5,caller
	same g-percent-limit -i g.data -t , --percent-limit 5
	same g-relative -i g.data -t , --percentage relative --dsos hotloop -g none
	same g-inverted -i g.data -t , -G
	same g-parent -i g.data -t , -p hot_a
	same g-sort-parent -i g.data -t '|' -s parent
	same g-sort-counts -i g.data -t , -s sample,period,comm -g none
	# perf refuses '.' (names are dotted) after its first header lines, status 0
	perf_report -i g.data -t . >dot.perf
	"$EMBER" report --stdio -i g.data -t . >dot.ember 2>dot.err
	expect_eq dot-status 0 "$?"
	if cmp -s dot.perf dot.ember && grep -q "'.' is the only non valid --field-separator argument" dot.err; then
		pass dot
	else
		fail dot "$(diff dot.perf dot.ember | head -4; cat dot.err)"
	fi
fi

# as report.sh's system-wide file: a known workload among whatever else runs
if rec a -a -g -- sh -c "$WL/hotloop 400 & for i in \$(seq 50); do ls / >/dev/null; done; wait"; then
	FILTER=no_plt_unresolved
	same a-comma -i a.data -t ,
	same a-bar-nochildren -i a.data --no-children -t '|' -n -g none
	same a-sort-pid-cpu-dso -i a.data -t '|' -s pid,cpu,dso -g none
	same a-sort-comm -i a.data -t , -s comm --show-total-period
	same a-ui -i a.data --no-children -t ui -g none
	same a-space -i a.data --no-children -t ' ' -s dso,sym -g none
	FILTER=cat
fi

if rec multi -e cpu-clock,task-clock -g -- "$WL/hotloop" 200; then
	same multi-comma -i multi.data -t ,
	same multi-bar -i multi.data --no-children -t '|' -n -g none
fi

# a file of ember's own
if "$EMBER" record -q -g -o em.data "$WL/hotloop" 200 >/dev/null 2>em.err; then
	same ember-file -i em.data -t '|' -n
	same ember-file-folded -i em.data --no-children -t , -g folded
else
	fail ember-record "$(tail -3 em.err)"
fi

if have_tracefs && rec tp -e sched:sched_switch -a -- sleep 0.3; then
	same tp-comma -i tp.data -t ,
	same tp-bar-n -i tp.data -t '|' -n --show-total-period
	same tp-sort -i tp.data -t , -s comm,cpu
fi


