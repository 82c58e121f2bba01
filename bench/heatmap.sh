#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember heatmap against perf's documented pipeline on the same perf.data:
#   heatmap-syscalls  200k write syscalls recorded by perf record
#                     (raw_syscalls:sys_enter/sys_exit); ember heatmap
#                     --start/--end/--key tid to SVG, against perf script
#                     | awk pairing them (the awk alone: trace2heatmap.pl is
#                     not counted, it is not installed here). Wall time,
#                     median of 3.
set -u
. "$(dirname "$0")/lib.bash"
bench_init heatmap
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
tmp=$(mktemp -d /tmp/ember-bench-heatmap.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

"$PERF" record -q -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit -o "$tmp/sc.data" -- \
	"$BUILD/workloads/writes" 200000 >/dev/null 2>&1 || { echo "heatmap bench: perf record failed"; exit 1; }

wall_s() {
	local t0 t1
	t0=$(now_ns)
	"$@" >/dev/null 2>&1
	t1=$(now_ns)
	echo "scale=6; ($t1 - $t0) / 1000000000" | bc
}

ember_run() {
	"$EMBER" heatmap --start raw_syscalls:sys_enter --end raw_syscalls:sys_exit --key tid \
		-i "$tmp/sc.data" -o "$tmp/e.svg"
}
perf_run() {
	"$PERF" script -i "$tmp/sc.data" -F tid,time,event | awk '
		{ sub(/:$/, "", $2) }
		$3 ~ /sys_enter/ { ts[$1] = $2 }
		$3 ~ /sys_exit/ { if (l = ts[$1]) { printf "%.f %.f\n", $2 * 1000000, ($2 - l) * 1000000; ts[$1] = 0 } }' >"$tmp/p.txt"
}

e=() p=()
for i in 1 2 3; do
	e+=("$(wall_s ember_run)")
	p+=("$(wall_s perf_run)")
done
# peak memory of one more run of each (perf's: its pipeline's biggest process)
export -f ember_run perf_run
export EMBER PERF tmp
ke=$(peak_rss_kb bash -c ember_run)
kp=$(peak_rss_kb bash -c perf_run)
result "heatmap-syscalls (400k events)" "$(median "${e[@]}")" "$(median "${p[@]}")" s "<=0.2" "$ke" "$kp"
