#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Callchains holding context markers perf 6.1 does not know (guest ones, or
# a frame-pointer walk's garbage that reads as one): perf discards the whole
# chain; ember script, report and flamegraph do the same, so their output
# equals perf's on the same file (tests/broken/callchain-markers.py makes it
# from a real perf record -g file).
. "$(dirname "$0")/../lib/e2e.sh"

if ! have_perf; then
	skip all "perf is not installed"
	exit 0
fi
"$PERF" record -q -g -o "$TMP/in.data" -- "$WL/hotloop" 300 >/dev/null 2>&1
if ! python3 "$TOP/tests/broken/callchain-markers.py" "$TMP/in.data" "$TMP/m.data" >"$TMP/py.out" 2>&1; then
	skip all "could not rewrite the recording: $(cat "$TMP/py.out")"
	exit 0
fi

"$PERF" script -i "$TMP/m.data" >"$TMP/perf.script" 2>/dev/null
"$EMBER" script -i "$TMP/m.data" >"$TMP/ember.script" 2>"$TMP/err"
check script-equals-perf cmp "$TMP/perf.script" "$TMP/ember.script"
expect_eq script-quiet "$(cat "$TMP/err")" ""

for mode in --children --no-children; do
	"$PERF" report --stdio $mode -i "$TMP/m.data" 2>/dev/null | grep -v '^#' >"$TMP/perf.report"
	"$EMBER" report --stdio $mode -i "$TMP/m.data" 2>/dev/null | grep -v '^#' >"$TMP/ember.report"
	check "report$mode-equals-perf" cmp "$TMP/perf.report" "$TMP/ember.report"
done

"$EMBER" collapse "$TMP/perf.script" | sort >"$TMP/perf.folded"
"$EMBER" flamegraph --folded -i "$TMP/m.data" 2>/dev/null | sort >"$TMP/ember.folded"
check flamegraph-folded-equals-collapse cmp "$TMP/perf.folded" "$TMP/ember.folded"
