#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember stat's other layouts against perf stat: CSV (-x), JSON (-j),
# intervals (-I), per-cpu (-A), output files (-o, --append, --log-fd),
# tracepoint globs.
. "$(dirname "$0")/../lib/e2e.sh"
. "$(dirname "$0")/stat-lib.bash"

if ! is_root; then
	skip all "needs root for system-wide counting and tracepoints"
	exit 0
fi

# --- CSV ---------------------------------------------------------------------
"$EMBER" stat -x, -- "$WL/sleeper" 2 1 2>"$TMP/e.csv"
check csv-parses python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert len(rows) == 8, rows
for r in rows:
    assert len(r) == 7, r
    assert r[0] in ("<not supported>", "<not counted>") or float(r[0]) >= 0, r
    assert float(r[4]) <= 100, r
assert rows[0][1:3] == ["msec", "task-clock"], rows[0]
assert rows[0][6] == "CPUs utilized", rows[0]
' "$TMP/e.csv"
stat_same_as_perf csv-matches-perf -x, -- "$WL/sleeper" 2 1
stat_same_as_perf csv-repeat-matches-perf -x, -r 2 -e task-clock,page-faults,cycles -- true
stat_same_as_perf csv-semicolon-matches-perf -x';' -e cpu-clock,cycles -- true

# --- JSON --------------------------------------------------------------------
"$EMBER" stat -j -- "$WL/sleeper" 2 1 2>"$TMP/e.json"
check json-parses python3 -c '
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 8, lines
for l in lines:
    o = json.loads(l)
    for k in ("counter-value", "unit", "event", "event-runtime", "pcnt-running",
              "metric-value", "metric-unit"):
        assert k in o, (k, o)
    assert o["metric-unit"] != "(null)", o
assert json.loads(lines[0])["event"] == "task-clock"
' "$TMP/e.json"
"$EMBER" stat -j -I 100 -A -a -e cpu-clock,cycles,syscalls:sys_enter_write -- sleep 0.25 \
	2>"$TMP/e.json"
check json-interval-percpu-parses python3 -c '
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) >= 2
for l in lines:
    o = json.loads(l)
    assert "interval" in o and "cpu" in o, o
' "$TMP/e.json"
# perf 6.1 prints "metric-unit" : "(null)" for a counter without a metric;
# ember prints "" there (documented), so compare the rest.
if have_perf; then
	"$EMBER" stat -j -e task-clock,page-faults,cycles -- true 2>"$TMP/e.json"
	"$PERF" stat -j -e task-clock,page-faults,cycles -- true 2>"$TMP/p.json"
	if diff <(stat_norm <"$TMP/e.json") <(sed 's/"(null)"/""/' "$TMP/p.json" | stat_norm) >"$TMP/d.txt"
	then pass json-matches-perf; else fail json-matches-perf "$(head "$TMP/d.txt")"; fi
fi
stat_same_as_perf json-repeat-matches-perf -j -r 2 -e task-clock,cycles -- true

# --- intervals ---------------------------------------------------------------
"$EMBER" stat -I 100 -e cpu-clock -- sleep 0.35 2>"$TMP/e.txt"
n=$(grep -cE '^ +[0-9]+\.[0-9]{9} ' "$TMP/e.txt")
if [ "$n" -ge 2 ]; then pass interval-lines; else fail interval-lines "got $n intervals"; fi
check interval-header grep -q '^#           time             counts unit events$' "$TMP/e.txt"
check interval-not-counted grep -q '<not counted> msec cpu-clock' "$TMP/e.txt"
stat_same_as_perf interval-matches-perf -I 100 -e cpu-clock,page-faults,cycles -- sleep 0.25
stat_same_as_perf interval-csv-matches-perf -I 100 -x, -e cpu-clock,cycles -- sleep 0.25
stat_same_as_perf interval-json-matches-perf -I 100 -j -e cpu-clock,cycles -- sleep 0.25
stat_same_as_perf interval-percpu-matches-perf -I 100 -A -a -e cpu-clock -- sleep 0.25
"$EMBER" stat -I 50 --interval-count 3 -e cpu-clock -- sleep 2 2>"$TMP/e.txt"
expect_eq interval-count "$(grep -cE '^ +[0-9]+\.[0-9]{9} ' "$TMP/e.txt")" 3

# --- per cpu -----------------------------------------------------------------
ncpu=$(getconf _NPROCESSORS_ONLN)
"$EMBER" stat -A -a -e cpu-clock -- sleep 0.1 2>"$TMP/e.txt"
expect_eq per-cpu-lines "$(grep -cE '^CPU[0-9]+ +[0-9.]+ msec cpu-clock' "$TMP/e.txt")" "$ncpu"
stat_same_as_perf per-cpu-matches-perf -A -a -e cpu-clock,page-faults -- sleep 0.1
stat_same_as_perf per-cpu-csv-matches-perf -A -a -x, -e cpu-clock,cycles -- sleep 0.1
stat_same_as_perf cpu-list-matches-perf -C 0 -e cpu-clock -- sleep 0.1
stat_same_as_perf null-run-matches-perf -n -- true
stat_same_as_perf tool-events-match-perf -x, -e duration_time -- true

# --- output files ------------------------------------------------------------
"$EMBER" stat -o "$TMP/o.txt" -e task-clock -- true 2>"$TMP/stderr.txt"
check output-file-started grep -q '^# started on ' "$TMP/o.txt"
check output-file-counts grep -q 'msec task-clock' "$TMP/o.txt"
expect_eq output-file-not-stderr "$(wc -c <"$TMP/stderr.txt")" 0
"$EMBER" stat -o "$TMP/o.txt" --append -x, -e task-clock -- true
expect_eq output-append "$(grep -c '^# started on ' "$TMP/o.txt")" 2
"$EMBER" stat --log-fd 3 -x, -e task-clock -- true 3>"$TMP/fd.txt" 2>"$TMP/stderr.txt"
check log-fd grep -q ',msec,task-clock,' "$TMP/fd.txt"
expect_eq log-fd-not-stderr "$(wc -c <"$TMP/stderr.txt")" 0
"$EMBER" stat --no-big-num -e syscalls:sys_enter_write -- "$WL/writes" 12345 2>"$TMP/e.txt"
check no-big-num grep -qE '^ +12345 +syscalls:sys_enter_write' "$TMP/e.txt"

# --big-num (the default) groups digits as the locale says; C has no grouping.
mkdir -p "$TMP/loc"
if localedef -i en_US -f UTF-8 "$TMP/loc/en_US.UTF-8" >/dev/null 2>&1 ||
   [ -d "$TMP/loc/en_US.UTF-8" ]; then
	LOCPATH="$TMP/loc" LC_ALL=en_US.UTF-8 "$EMBER" stat -e syscalls:sys_enter_write \
		-- "$WL/writes" 12345 2>"$TMP/e.txt"
	check big-num-grouping grep -qE '^ +12,345 +syscalls:sys_enter_write' "$TMP/e.txt"
	if have_perf; then
		LOCPATH="$TMP/loc" LC_ALL=en_US.UTF-8 "$PERF" stat -e syscalls:sys_enter_write \
			-- "$WL/writes" 12345 2>"$TMP/p.txt"
		expect_eq big-num-matches-perf "$(grep sys_enter_write "$TMP/e.txt" | cut -c1-56)" \
			"$(grep sys_enter_write "$TMP/p.txt" | cut -c1-56)"
	fi
else
	skip big-num-grouping "cannot build the en_US.UTF-8 locale (localedef)"
fi

# --- tracepoint globs ----------------------------------------------------------
if have_tracefs; then
	want=$(ls -d /sys/kernel/tracing/events/syscalls/sys_enter_* | wc -l)
	"$EMBER" stat -x, -e 'syscalls:sys_enter_*' -- true 2>"$TMP/e.csv"
	expect_eq syscalls-glob-lines "$(grep -c ',syscalls:sys_enter_' "$TMP/e.csv")" "$want"
	if have_perf; then
		"$PERF" stat -x, -e 'syscalls:sys_enter_*' -- true 2>"$TMP/p.csv"
		expect_eq syscalls-glob-events-match-perf \
			"$(cut -d, -f3 "$TMP/e.csv" | md5sum)" \
			"$(cut -d, -f3 "$TMP/p.csv" | md5sum)"
	fi
else
	skip syscalls-glob-lines "tracefs is not available"
fi
exit 0
