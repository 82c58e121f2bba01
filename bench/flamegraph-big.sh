#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember flamegraph's memory on a 1 GB perf.data: it must stream the file,
# not load it whole. Opt-in (minutes of recording and a GB of /tmp):
#   EMBER_BENCH_BIG=1 bench/run.sh flamegraph-big
# Rows (peak resident memory of one run each, see bench/run.sh):
#   flamegraph-big-svg     ember flamegraph (perf.data -> SVG) against the
#                          perf.data file's size: streaming keeps it a
#                          fraction of the file (goal <= 0.25); the pages of
#                          a file mapped whole count here
#   flamegraph-big-anon    the same, RssAnon only (heap and stacks, no file
#                          pages)
#   flamegraph-big-folded  ember flamegraph --folded, against the file size
#   flamegraph-big-vs-perf ember flamegraph against perf script on the same
#                          file, RSS then RssAnon (goal <= 1.0)
#   flamegraph-big-vs-pl   ember flamegraph against the pipeline's biggest
#                          process, `perf script | stackcollapse-perf.pl |
#                          flamegraph.pl`, when the FlameGraph scripts are on
#                          PATH (goal <= 1.0; this one takes minutes more)
# Each row carries cpu seconds as logs. The file: callchains (-g) of every
# cpu at a 10 us period while two cpu-bound workloads run, recorded until it
# holds EMBER_BENCH_BIG_MB megabytes (default 1024), at most 10 minutes.
set -u
. "$(dirname "$0")/lib.bash"
bench_init flamegraph-big
if [ "${EMBER_BENCH_BIG:-}" != 1 ]; then
	echo "flamegraph-big bench: opt-in, run with EMBER_BENCH_BIG=1 (records a 1 GB perf.data), skipped"
	exit 0
fi
MB=${EMBER_BENCH_BIG_MB:-1024}
# the file, perf's own temporary copies of it and the SVGs
free_mb=$(df -Pm /tmp | awk 'NR == 2 { print $4 }')
if [ "${free_mb:-0}" -lt $((MB * 2 + 512)) ]; then
	echo "flamegraph-big bench: $((MB * 2 + 512)) MB free in /tmp needed, ${free_mb:-?} MB found, skipped"
	exit 0
fi
TMP=$(mktemp -d /tmp/ember-bench-flamegraph-big.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
F="$TMP/big.data"
WL="$BUILD/workloads/hotloop"

# The workload watches the file grow and stops the spinners once it is big
# enough (perf writes as it goes), or after 10 minutes.
"$PERF" record -q -a -g -e cpu-clock -c 10000 -o "$F" -- sh -c '
	"$1" 600000 & a=$!
	"$1" 600000 & b=$!
	i=0
	while [ "$(stat -c %s "$2" 2>/dev/null || echo 0)" -lt "$3" ] && [ $i -lt 600 ]; do
		sleep 1
		i=$((i + 1))
	done
	kill $a $b 2>/dev/null
	wait' sh "$WL" "$F" $((MB * 1048576)) >/dev/null 2>&1
size_kb=$(($(stat -c %s "$F") / 1024))
samples=$("$PERF" report -i "$F" --stats 2>/dev/null | awk '$1 == "SAMPLE" && $2 == "events:" { print $3; exit }')
echo "flamegraph-big: $F: $((size_kb / 1024)) MB, ${samples:-?} samples with callchains"

# run NAME CMD...: one run, its figures logged; sets RSS (peak resident,
# from time(1)) and ANON (peak RssAnon, sampled every 0.1 s from /proc: the
# process's own memory, without the pages of files it maps, which the
# kernel can drop and read again)
run() {
	local name=$1 pid cpid a peak=0
	shift
	/usr/bin/time -o "$TMP/time" -f '%M %U %S %e %x' "$@" >/dev/null 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		cpid=${cpid:-$(pgrep -P "$pid" | head -1)}
		a=$(awk '/^RssAnon:/ { print $2 }' "/proc/${cpid:-$pid}/status" 2>/dev/null)
		[ "${a:-0}" -gt "$peak" ] && peak=$a
		sleep 0.1
	done
	wait "$pid"
	read -r RSS u s w rc < <(tail -1 "$TMP/time")
	ANON=$peak
	echo "flamegraph-big: $name: peak RSS $((RSS / 1024)) MB (RssAnon $((ANON / 1024)) MB)," \
		"$(echo "$u + $s" | bc) s cpu, $w s wall, exit $rc"
}

run "ember flamegraph -o /dev/null" "$EMBER" flamegraph -q -i "$F" -o /dev/null
svg_rss=$RSS svg_anon=$ANON
run "ember flamegraph --folded" "$EMBER" flamegraph -q -i "$F" --folded -o /dev/null
folded_rss=$RSS
run "perf script" "$PERF" script -i "$F"
perf_rss=$RSS perf_anon=$ANON
result "flamegraph-big-svg (RSS vs file size)" "$svg_rss" "$size_kb" KB "<=0.25"
result "flamegraph-big-anon (RssAnon vs file)" "$svg_anon" "$size_kb" KB "<=0.25"
result "flamegraph-big-folded (RSS vs file)" "$folded_rss" "$size_kb" KB "<=0.25"
result "flamegraph-big-vs-perf (RSS)" "$svg_rss" "$perf_rss" KB "<=1.0"
result "flamegraph-big-vs-perf (RssAnon)" "$svg_anon" "$perf_anon" KB "<=1.0"

if command -v stackcollapse-perf.pl >/dev/null && command -v flamegraph.pl >/dev/null; then
	/usr/bin/time -f '%M %U %S %e' -o "$TMP/t1" "$PERF" script -i "$F" 2>/dev/null |
		/usr/bin/time -f '%M %U %S %e' -o "$TMP/t2" stackcollapse-perf.pl 2>/dev/null |
		/usr/bin/time -f '%M %U %S %e' -o "$TMP/t3" flamegraph.pl >"$TMP/pl.svg" 2>/dev/null
	read -r pl_rss pl_cpu pl_wall < <(cat "$TMP/t1" "$TMP/t2" "$TMP/t3" |
		awk '{ if ($1 > m) m = $1; c += $2 + $3; if ($4 > w) w = $4 } END { printf "%d %.2f %s\n", m, c, w }')
	echo "flamegraph-big: perf script | stackcollapse-perf.pl | flamegraph.pl: peak RSS" \
		"$((pl_rss / 1024)) MB (biggest stage), $pl_cpu s cpu, $pl_wall s wall"
	result "flamegraph-big-vs-pl (RSS, biggest stage)" "$svg_rss" "$pl_rss" KB "<=1.0"
else
	echo "flamegraph-big: the FlameGraph scripts are not on PATH, no pipeline row"
fi
