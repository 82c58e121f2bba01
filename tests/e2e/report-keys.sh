#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# perf report 6.1's other --sort keys in ember: addr and time (the
# sample's address, its time in 100 ms steps) against perf, alone and with
# other keys, with and without callchains; the keys for data these files
# lack (weight, local_weight, transaction, cgroup, cgroup_id,
# code_page_size, ins_lat, local_ins_lat) with perf's value for none, and
# p_stage_cyc dropped as perf drops it off powerpc. A file that has such
# data (perf record -W) is refused with one line; branch-stack and memory
# keys are refused with their reason; unknown keys as before.
. "$(dirname "$0")/../lib/e2e.sh"
. "$(dirname "$0")/../lib/report-lib.bash"

if ! have_perf; then
	skip setup "perf is not installed"
	exit 0
fi
cd "$TMP" || exit 1

rec p -F 999 -- "$WL/hotloop" 250 || exit 0
rec g -g -F 999 -- "$WL/hotloop" 250 || exit 0

for k in addr time addr,sym sym,addr time,comm pid,time,dso weight local_weight transaction \
	cgroup cgroup_id code_page_size ins_lat local_ins_lat weight,comm comm,cgroup \
	cgroup_id,sym p_stage_cyc sym,local_p_stage_cyc tr; do
	same "key-$k" -i p.data --sort "$k"
	same "key-g-$k" -i g.data --sort "$k"
	same "key-g-self-$k" -i g.data --no-children --sort "$k"
done
same key-F -i p.data -F overhead,time,weight,addr

refused() { # NAME STATUS PATTERN ARGS...: ember refuses with that status and one such line
	local name=$1 want=$2 pat=$3
	shift 3
	"$EMBER" report --stdio "$@" >"$name.out" 2>"$name.err"
	local st=$?
	if [ "$st" = "$want" ] && [ "$(wc -l <"$name.err")" = 1 ] && grep -q -- "$pat" "$name.err"; then
		pass "$name"
	else
		fail "$name" "status $st (want $want): $(head -3 "$name.err")"
	fi
}
refused refuse-branch 2 "branch-stack key" -i p.data --sort dso_from
refused refuse-branch-prefix 2 "branch-stack key" -i p.data --sort symbol_t
refused refuse-mem 2 "memory-access key" -i p.data --sort dcacheline
if "$PERF" record -q -W -o w.data -- "$WL/hotloop" 20 >/dev/null 2>&1; then
	refused refuse-weight 1 "has sample weights" -i w.data --sort weight
	refused refuse-weight-F 1 "has sample weights" -i w.data -F overhead,local_weight
else
	skip refuse-weight "perf record -W failed here"
fi
