#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember script against perf script on the same perf.data, output to /dev/null
# (see bench/run.sh for the output):
#   script-cpu (-g)      a `perf record -g` file of two busy threads, a few hundred
#                        thousand samples with callchains: cpu time (user + sys) of
#                        the whole tool, median of 5, interleaved. CPU time, not wall
#                        time, because the 2-core VM is shared: wall time mostly
#                        measures the other tenants. Goal: 3x faster.
#   script-cpu (-a -g)   the same for a system-wide recording with kernel stacks
#   script-rss (...)     peak resident memory of the tool (time(1)'s maximum RSS)
# Both tools read kernel symbols from /proc/kallsyms (tens of ms of kernel time
# each run, in both numbers).
set -u
. "$(dirname "$0")/lib.bash"
bench_init script
TMP=$(mktemp -d /tmp/ember-bench-script.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
HOT="$BUILD/workloads/hotloop"
[ -x "$HOT" ] || { echo "script bench: $HOT is missing (make first)"; exit 1; }

# run TOOL FILE: "cpu_seconds peak_kb wall_seconds" of `TOOL script -i FILE >/dev/null`;
# cpu from perf stat's task-clock (ms resolution), memory and wall from time(1)
run() {
	local cpu
	cpu=$("$PERF" stat -x, -e task-clock -- "$1" script -i "$2" 2>&1 >/dev/null |
		awk -F, '/task-clock/ { printf "%.4f", $1 / 1000 }')
	/usr/bin/time -o "$TMP/time" -f "%M %e" "$1" script -i "$2" >/dev/null 2>/dev/null
	echo "$cpu $(cat "$TMP/time")"
}

# bench NAME FILE: 5 interleaved runs of each tool, medians reported
bench() {
	local name=$1 file=$2 n ce=() cp=() me=() mp=() we=() wp=() r
	n=$("$PERF" script -i "$file" -F tid 2>/dev/null | wc -l)
	if ! "$EMBER" script -i "$file" 2>/dev/null | cmp -s - <("$PERF" script -i "$file" 2>/dev/null); then
		echo "script: note: ember's output differs from perf's on $name" \
			"(see tests/e2e/script.sh)"
	fi
	for i in 1 2 3 4 5; do
		read -r c m w < <(run "$EMBER" "$file")
		ce+=("$c") me+=("$m") we+=("$w")
		read -r c m w < <(run "$PERF" "$file")
		cp+=("$c") mp+=("$m") wp+=("$w")
	done
	local mce mcp
	mce=$(median "${ce[@]}")
	mcp=$(median "${cp[@]}")
	echo "script: $name: $n samples; cpu ${mce}s ember vs ${mcp}s perf" \
		"($(echo "scale=2; $mcp / $mce" | bc)x); wall $(median "${we[@]}")s vs" \
		"$(median "${wp[@]}")s; peak $(($(median "${me[@]}") / 1024)) MB vs" \
		"$(($(median "${mp[@]}") / 1024)) MB"
	printf 'result\tscript-cpu (%s)\t%s\t%s\ts\t<=0.333\n' "$name" "$mce" "$mcp"
	printf 'result\tscript-rss (%s)\t%s\t%s\tMB\t<=1.0\n' "$name" \
		"$(echo "scale=1; $(median "${me[@]}") / 1024" | bc)" \
		"$(echo "scale=1; $(median "${mp[@]}") / 1024" | bc)"
}

# Several hundred thousand samples with callchains: two threads at a 10 us period.
"$PERF" record -q -g -c 10000 -o "$TMP/g.data" -- sh -c "$HOT 6000 & $HOT 6000; wait" \
	>/dev/null 2>&1
bench "-g" "$TMP/g.data"

# System-wide with kernel stacks, while the machine is busy.
"$PERF" record -q -a -g -c 20000 -o "$TMP/a.data" -- sh -c "$HOT 3000 & $HOT 3000; wait" \
	>/dev/null 2>&1
bench "-a -g" "$TMP/a.data"
