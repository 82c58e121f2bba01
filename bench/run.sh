#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs every bench/*.sh but this one and prints one table of ember/perf ratios:
#   benchmark | ember | perf | ratio | goal | met? | ember RSS | perf RSS | RSS ratio
# A benchmark script reports each result on stdout as one tab-separated line
#   result<TAB>NAME<TAB>EMBER<TAB>PERF<TAB>UNIT<TAB>GOAL[<TAB>EMBER_KB<TAB>PERF_KB]
# (bench/lib.bash's result() prints it) where EMBER and PERF are measurements
# (lower is better) and GOAL bounds the ratio EMBER/PERF, like "<=1.0" or
# "<=0.05"; the optional EMBER_KB and PERF_KB are the peak resident memory
# of the runs measured (bench/lib.bash's bench_run), left blank in the table
# when absent. Anything else a script prints is passed through as a log.
# Ratios are reported, never asserted: the exit status is 0 unless a script
# failed to run. The table also goes to $BENCH_TABLE when that is set, and
# the result lines to $BENCH_RESULTS.
#   bench/run.sh --table FILE   prints the table of saved result lines
#   bench/run.sh [PATTERN]   only the scripts whose name contains PATTERN
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
export BUILD
pattern=${1:-}
results=$(mktemp /tmp/ember-bench.XXXXXX)
trap 'rm -f "$results"' EXIT
status=0
if [ "$pattern" = --table ]; then
	cp "${2:?bench/run.sh --table FILE}" "$results" || exit 1
	pattern=/nothing/
fi

for b in bench/*.sh; do
	[ "$(basename "$b")" = run.sh ] && continue
	case "$b" in *"$pattern"*) ;; *) continue ;; esac
	echo "== $b" >&2
	if ! bash "$b" | while IFS= read -r line; do
		case "$line" in
		result$'\t'*) printf '%s\n' "$line" >>"$results" ;;
		*) printf '%s\n' "$line" >&2 ;;
		esac
	done; then
		echo "bench: $b failed" >&2
		status=1
	fi
done

echo
table() {
awk -F'\t' '
function met(ratio, goal,   op, v) {
	if (match(goal, /^(<=|>=|<|>)/)) {
		op = substr(goal, 1, RLENGTH); v = substr(goal, RLENGTH + 1) + 0
		if (op == "<=") return ratio <= v
		if (op == ">=") return ratio >= v
		if (op == "<") return ratio < v
		return ratio > v
	}
	return 0
}
function mb(kb) { return (kb == "") ? "" : sprintf("%.1f MB", kb / 1024) }
# a measurement and its unit; memory in KB reads better in MB
function val(v, unit) {
	if (unit == "KB") return mb(v)
	return sprintf("%.4g %s", v, unit)
}
BEGIN {
	fmt = "%-40s | %12s | %12s | %8s | %8s | %-4s | %10s | %10s | %9s\n"
	printf fmt, "benchmark", "ember", "perf", "ratio", "goal", "met?", \
		"ember RSS", "perf RSS", "RSS ratio"
	printf fmt, "----------------------------------------", "------------", "------------", \
		"--------", "--------", "----", "----------", "----------", "---------"
}
{
	ratio = ($4 > 0) ? $3 / $4 : 0
	ek = (NF >= 8) ? $7 : ""
	pk = (NF >= 8) ? $8 : ""
	rr = (ek != "" && pk > 0) ? sprintf("%.3f", ek / pk) : ""
	# judged as printed: a ratio shown as 1.000 meets <=1.0
	shown = sprintf("%.3f", ratio)
	printf fmt, $2, val($3, $5), val($4, $5), \
		shown, $6, met(shown + 0, $6) ? "yes" : "NO", mb(ek), mb(pk), rr
}' "$results"
}
[ -n "${BENCH_RESULTS:-}" ] && cp "$results" "$BENCH_RESULTS"
if [ -n "${BENCH_TABLE:-}" ]; then
	table | tee "$BENCH_TABLE"
else
	table
fi
exit $status
