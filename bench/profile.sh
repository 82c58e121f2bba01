#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember profile (stacks counted in the kernel) against ember record -g +
# ember flamegraph --folded (the "perf" column), on the same work at the same
# rate: countloop 8000 (hot_a twice hot_b, fixed work, ~1.4 s of cpu) under
# -F 4000 (perf record's default rate, where per-sample costs show), the
# median of PROFILE_ROUNDS (5) rounds in which each tool runs once, in turn:
#   profile-workload-cpu   the workload's own user + system cpu (/usr/bin/time's
#                          %U + %S inside the profiled command: the BPF program
#                          runs in the workload's context, its cost is in %S;
#                          goal: no more than under record)
#   profile-workload-wall  the workload's own elapsed time (%e), the same way
#   profile-bytes      bytes written and read to get the folded stacks: the
#                      folded file, against perf.data written by record and
#                      read again by flamegraph (goal: 20 times fewer)
# and logs whether the hottest stacks of both agree (names and order).
set -u
. "$(dirname "$0")/lib.bash"
bench_init profile
ROUNDS=${PROFILE_ROUNDS:-5}
FREQ=4000
WORK=("$BUILD/workloads/countloop" 8000)
if [ ! -x /usr/bin/time ]; then
	echo "profile bench: /usr/bin/time is not installed, skipped"
	exit 0
fi
if ! "$EMBER" profile -d 0.1 -a >/dev/null 2>&1; then
	echo "profile bench: ember profile cannot run here (root and BPF needed), skipped"
	exit 0
fi
dir=$(mktemp -d /tmp/ember-bench-profile.XXXXXX)
trap 'rm -rf "$dir"' EXIT

declare -A wall cpu
add() { # KEY FILE: the workload's "%e %U %S"
	local e u s
	read -r e u s <"$2"
	wall[$1]+="$e "
	cpu[$1]+="$(echo "$u + $s" | bc) "
}
for r in $(seq "$ROUNDS"); do
	bench_run - "$EMBER" profile -F $FREQ -o "$dir/p.folded" -- \
		/usr/bin/time -f '%e %U %S' -o "$dir/p.time" "${WORK[@]}"
	add profile "$dir/p.time"
	bench_run - "$EMBER" record -q -F $FREQ -g -o "$dir/r.data" -- \
		/usr/bin/time -f '%e %U %S' -o "$dir/r.time" "${WORK[@]}"
	add record "$dir/r.time"
	bench_run - "$EMBER" flamegraph -q --folded --annotate kernel --count-samples \
		-i "$dir/r.data" -o "$dir/r.folded"
	echo "profile bench: round $r of $ROUNDS done"
done

# the hottest stacks of the last round, names and order
top() { sort -t' ' -k2,2nr -k1,1 "$1" | head -2 | sed 's/ [0-9]*$//'; }
if [ "$(top "$dir/p.folded")" = "$(top "$dir/r.folded")" ]; then
	echo "profile bench: the two hottest stacks agree: $(top "$dir/p.folded" | tr '\n' ' ')"
else
	echo "profile bench: the hottest stacks differ:"
	diff <(top "$dir/p.folded") <(top "$dir/r.folded")
fi
samples() { awk '{ n += $NF } END { print n }' "$1"; }
echo "profile bench: samples counted: profile $(samples "$dir/p.folded"), record" \
	"$(samples "$dir/r.folded")"

pbytes=$(stat -c %s "$dir/p.folded")
rbytes=$(( $(stat -c %s "$dir/r.data") * 2 + $(stat -c %s "$dir/r.folded") ))
# shellcheck disable=SC2086
result "profile-workload-cpu (vs record -g)" "$(median ${cpu[profile]})" \
	"$(median ${cpu[record]})" s "<=1.0"
# shellcheck disable=SC2086
result "profile-workload-wall (vs record -g)" "$(median ${wall[profile]})" \
	"$(median ${wall[record]})" s "<=1.0"
result "profile-bytes (vs record -g)" "$pbytes" "$rbytes" B "<=0.05"
