#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Unwinding --call-graph dwarf files (see bench/run.sh for the output). One
# recording of tests/workloads/dwarfpaths.c built without frame pointers
# (-O2 -fomit-frame-pointer), about 20 000 samples with 8 KB stack copies:
#   dwarf-report      ember report --stdio against perf report --stdio (both
#                     unwind every sample): cpu time (user + system), median
#                     of 3, the tools interleaved; issue 17's goal <= 0.5
#   dwarf-flamegraph  ember flamegraph --folded against perf script | ember
#                     collapse (what a FlameGraph user runs): wall time,
#                     median of 3; issue 17's goal <= 0.2
# and the peak memory of each (the stack copies are read in place, never
# kept: ember's stays near its size on a file without them).
set -u
. "$(dirname "$0")/lib.bash"
bench_init dwarf
TMP=$(mktemp -d /tmp/ember-bench-dwarf.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
command -v cc >/dev/null || { echo "dwarf bench: no cc, skipped"; exit 0; }
EMBER=$PWD/$EMBER

cc -O2 -g -fomit-frame-pointer -o "$TMP/dwarfpaths" tests/workloads/dwarfpaths.c || exit 1
"$PERF" record -q --call-graph dwarf -F 4000 -o "$TMP/dwarf.data" -- "$TMP/dwarfpaths" 6000 \
	>/dev/null 2>&1
if [ ! -s "$TMP/dwarf.data" ]; then
	echo "dwarf bench: recording failed, skipped"
	exit 0
fi
n=$("$PERF" report -i "$TMP/dwarf.data" --stats 2>/dev/null |
	awk '$1 == "SAMPLE" && $2 == "events:" { print $3; exit }')
echo "dwarf: $n samples, $(($(stat -c %s "$TMP/dwarf.data") / 1048576)) MB"

er=() pr=() ef=() pf=() ekr=0 pkr=0 ekf=0 pkf=0
for i in 1 2 3; do
	bench_run - "$EMBER" report --stdio -i "$TMP/dwarf.data"
	er+=("$BR_CPU") ekr=$BR_RSS
	bench_run - "$PERF" report --stdio -i "$TMP/dwarf.data"
	pr+=("$BR_CPU") pkr=$BR_RSS
	bench_run - "$EMBER" flamegraph -q --folded -i "$TMP/dwarf.data"
	ef+=("$BR_WALL") ekf=$BR_RSS
	bench_run - sh -c "'$PERF' script -i '$TMP/dwarf.data' 2>/dev/null | '$EMBER' collapse"
	pf+=("$BR_WALL") pkf=$BR_RSS
done
me=$(median "${er[@]}") mp=$(median "${pr[@]}")
echo "dwarf: report cpu: ember $me s, perf $mp s"
result dwarf-report "$me" "$mp" s "<=0.5" "$ekr" "$pkr"
me=$(median "${ef[@]}") mp=$(median "${pf[@]}")
echo "dwarf: flamegraph wall: ember $me s, perf script | ember collapse $mp s"
result dwarf-flamegraph "$me" "$mp" s "<=0.2" "$ekf" "$pkf"
