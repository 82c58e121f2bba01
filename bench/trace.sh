#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember trace against perf trace, strace and the bare command, on dd of 200k
# 512-byte blocks from /dev/zero to /dev/null (400k syscalls), wall time of
# the whole run (tool start to exit), the median of TRACE_ROUNDS (3) rounds
# in which every tool runs once, in turn (see bench/run.sh for the output):
#   trace-summary          ember trace -s against perf trace -s (goal: 25 times faster)
#   trace-summary-overhead ember trace -s against dd alone: the "perf" column is dd
#                          with no tracer (goal: within 4 times)
#   trace-lines            ember trace (a line per syscall) against perf trace
#   trace-lines-strace     the same against strace -o /dev/null: the "perf" column is strace
# The lines go to /dev/null for every tool. A tracer that drops events when
# its buffer is full prints fewer lines: the count of each is logged.
set -u
. "$(dirname "$0")/lib.bash"
bench_init trace
DD=(dd if=/dev/zero of=/dev/null bs=512 count=200k)
ROUNDS=${TRACE_ROUNDS:-3}
STRACE=$(command -v strace || true)

declare -A wall rss
add() { # KEY: BR_WALL and BR_RSS of the run just made
	wall[$1]+="$BR_WALL "
	rss[$1]=$BR_RSS
}
med() { # KEY
	# shellcheck disable=SC2086
	median ${wall[$1]}
}

for r in $(seq "$ROUNDS"); do
	bench_run - "${DD[@]}"; add dd
	bench_run - "$EMBER" trace -s -- "${DD[@]}"; add ember-s
	bench_run - "$PERF" trace -s -- "${DD[@]}"; add perf-s
	bench_run - "$EMBER" trace -- "${DD[@]}"; add ember-lines
	bench_run - "$PERF" trace -- "${DD[@]}"; add perf-lines
	if [ -n "$STRACE" ]; then
		bench_run - "$STRACE" -o /dev/null -- "${DD[@]}"; add strace
	fi
	echo "trace bench: round $r of $ROUNDS done"
done

# how many lines each tracer printed for the run (400k syscalls, a line each)
lines=$(mktemp /tmp/ember-bench-trace.XXXXXX)
printf 'trace bench: lines printed: ember %s, perf %s' \
	"$("$EMBER" trace -- "${DD[@]}" 2>&1 >/dev/null | wc -l)" \
	"$("$PERF" trace -- "${DD[@]}" 2>&1 >/dev/null | wc -l)"
if [ -n "$STRACE" ]; then
	"$STRACE" -o "$lines" -- "${DD[@]}" 2>/dev/null
	printf ', strace %s' "$(wc -l <"$lines")"
fi
echo
rm -f "$lines"

result "trace-summary (dd 200k, -s)" "$(med ember-s)" "$(med perf-s)" s "<=0.04" \
	"${rss[ember-s]}" "${rss[perf-s]}"
result "trace-summary-overhead (perf col: dd)" "$(med ember-s)" "$(med dd)" s "<=4.0" \
	"${rss[ember-s]}" "${rss[dd]}"
result "trace-lines (dd 200k)" "$(med ember-lines)" "$(med perf-lines)" s "<=1.0" \
	"${rss[ember-lines]}" "${rss[perf-lines]}"
if [ -n "$STRACE" ]; then
	result "trace-lines-strace (perf col: strace)" "$(med ember-lines)" "$(med strace)" s \
		"<=1.0" "${rss[ember-lines]}" "${rss[strace]}"
else
	echo "trace bench: strace is not installed, trace-lines-strace skipped"
fi
