#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# `make demo` (scripts/demo.sh): it records the bundled workload with
# callchains, prints the top of the report with the workload's hottest
# function first, writes a well-formed flame graph holding that function,
# and real perf reads the recording without a warning.
. "$(dirname "$0")/../lib/e2e.sh"

dir=$TMP/demo
if ! DEMO_DIR=$dir BUILD=$BUILD "$TOP/scripts/demo.sh" >"$TMP/out" 2>"$TMP/err"; then
	fail runs "exit status $?: $(tail -3 "$TMP/err")"
	exit 0
fi
pass runs

first=$(grep -m1 '^ *[0-9.]*%' "$TMP/out" | awk '{print $NF}')
expect_eq report-top-is-hot_a "$first" hot_a

svg=$(sed -n 's/^flame graph: \([^ ]*\) .*/\1/p' "$TMP/out")
expect_eq prints-svg-path "$svg" "$dir/flame.svg"
check svg-well-formed python3 -c '
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
titles = [t.text for t in root.iter("{http://www.w3.org/2000/svg}title")]
assert any(t.startswith("hot_a ") for t in titles), "no hot_a frame"
' "$svg"

if have_perf; then
	"$PERF" report --stdio --no-children -i "$dir/perf.data" >"$TMP/perf.out" 2>"$TMP/perf.err"
	if [ -s "$TMP/perf.err" ]; then
		fail perf-reads-it "$(head -3 "$TMP/perf.err")"
	else
		first=$(grep -m1 '^ *[0-9.]*%' "$TMP/perf.out" | awk '{print $NF}')
		expect_eq perf-reads-it "$first" hot_a
	fi
else
	skip perf-reads-it "perf is not installed"
fi
