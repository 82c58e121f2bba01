#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember stat's remaining perf 6.1 options against perf: --metric-only,
# --summary and --no-csv-summary, --table, --interval-clear, --filter,
# --control, -D -1, and the options without effect or refused here.
. "$(dirname "$0")/../lib/e2e.sh"
. "$(dirname "$0")/stat-lib.bash"

if ! is_root; then
	skip all "needs root for system-wide counting and tracepoints"
	exit 0
fi

# The std layout's shape; the elapsed line's digits with -r, --table's
# indent, bars and signs follow the noise.
shape() {
	sed -E 's/^ +[0-9.]+ \+- [0-9.]+ seconds time elapsed.*/ELAPSED +-/;
		s/^ +[0-9.]+ \([-+][0-9.]+\) #+$/RUN/; s/^ +# (Table|Final)/# \1/' | stat_shape
}

STAT_STD_SHAPE=shape

# --- --metric-only: perf 6.1 shows no software metric there, only its frame --------
EVS=cpu-clock,context-switches
stat_same_as_perf metric-only-matches-perf --metric-only -e $EVS -- sleep 0.05
stat_same_as_perf metric-only-csv-matches-perf --metric-only -x, -e $EVS -- sleep 0.05
stat_same_as_perf metric-only-json-matches-perf --metric-only -j -e $EVS -- sleep 0.05
for mode in per-socket per-die per-core per-node; do
	stat_same_as_perf "metric-only-$mode-matches-perf" --metric-only -a --$mode -e $EVS -- sleep 0.05
	stat_same_as_perf "metric-only-$mode-csv-matches-perf" --metric-only -a --$mode -x, -e $EVS \
		-- sleep 0.05
done
stat_same_as_perf metric-only-per-core-json-matches-perf --metric-only -a --per-core -j -e $EVS \
	-- sleep 0.05
stat_same_as_perf metric-only-per-cpu-matches-perf --metric-only -a -A -e $EVS -- sleep 0.05
stat_same_as_perf metric-only-per-cpu-csv-matches-perf --metric-only -a -A -x, -e $EVS -- sleep 0.05
stat_same_as_perf metric-only-interval-matches-perf --metric-only -a --per-socket -I 100 \
	--interval-count 2 -e $EVS -- sleep 1
stat_same_as_perf metric-only-interval-csv-matches-perf --metric-only -a --per-core -I 100 \
	--interval-count 2 -x, -e $EVS -- sleep 1
"$EMBER" stat --metric-only -r 2 -e cpu-clock -- true 2>/dev/null
expect_eq metric-only-repeat-refused "$?" 2

# --- --summary after the intervals ----------------------------------------------------
stat_same_as_perf summary-matches-perf -I 100 --interval-count 2 --summary \
	-e cpu-clock,page-faults -- sleep 1
stat_same_as_perf summary-csv-matches-perf -I 100 --interval-count 2 --summary -x, -e cpu-clock \
	-- sleep 1
stat_same_as_perf summary-no-csv-summary-matches-perf -I 100 --interval-count 2 --summary \
	--no-csv-summary -x, -e cpu-clock -- sleep 1
stat_same_as_perf summary-json-matches-perf -I 100 --interval-count 2 --summary -j -e cpu-clock \
	-- sleep 1
stat_same_as_perf summary-per-core-matches-perf -a --per-core -I 100 --interval-count 2 --summary \
	-e cpu-clock -- sleep 1
# The summary's total is the whole run's: the sum of the intervals' writes.
"$EMBER" stat -I 100 --summary -x, -e syscalls:sys_enter_write -- "$WL/writes" 777 \
	2>"$TMP/e.csv"
expect_eq summary-total "$(awk -F, '$1 ~ /summary/ { print $2 }' "$TMP/e.csv")" 777

# --- --table ---------------------------------------------------------------------------
stat_same_as_perf table-matches-perf -r 3 --table -e cpu-clock -- sleep 0.02
"$EMBER" stat -r 3 --table -e cpu-clock -- sleep 0.02 2>"$TMP/e.txt"
expect_eq table-rows "$(grep -cE '^ +[0-9.]+ \([-+][0-9.]+\) #+$' "$TMP/e.txt")" 3
"$EMBER" stat --table -e cpu-clock -- true 2>/dev/null
expect_eq table-needs-repeat "$?" 2

# --- --interval-clear: perf clears the terminal on stdout, the header every interval ---
"$EMBER" stat -I 100 --interval-count 2 --interval-clear -e cpu-clock -- sleep 1 \
	>"$TMP/o.txt" 2>"$TMP/e.txt"
expect_eq interval-clear-stdout "$(od -An -c "$TMP/o.txt" | tr -d ' \n')" \
	'033[H033[2J\n033[H033[2J\n'
expect_eq interval-clear-headers "$(grep -c '^#  *time' "$TMP/e.txt")" 2

# --- --filter ----------------------------------------------------------------------------
if have_tracefs; then
	"$EMBER" stat -x, -e syscalls:sys_enter_write --filter 'count < 100' \
		-e syscalls:sys_enter_write -- "$WL/writes" 25 2>"$TMP/e.csv"
	expect_eq filter-applies-to-its-event "$(cut -d, -f1 "$TMP/e.csv" | tr '\n' ' ')" "25 25 "
	"$EMBER" stat -x, -e syscalls:sys_enter_write --filter 'count > 100000' \
		-- "$WL/writes" 25 2>"$TMP/e.csv"
	expect_eq filter-drops "$(cut -d, -f1 "$TMP/e.csv")" 0
	"$EMBER" stat -e syscalls:sys_enter_write --filter 'bad((' -- true 2>"$TMP/e.txt"
	expect_eq filter-refused-exit "$?" 1
	check filter-refused-says grep -q 'cannot set filter "bad(("' "$TMP/e.txt"
else
	skip filter "tracefs is not available"
fi
"$EMBER" stat --filter 'x' -e cpu-clock -- true 2>/dev/null
expect_eq filter-before-event "$?" 2
"$EMBER" stat -e cpu-clock --filter 'x' -- true 2>/dev/null
expect_eq filter-not-tracepoint "$?" 2

# --- --control and -D -1 -------------------------------------------------------------------
mkfifo "$TMP/ctl" "$TMP/ack"
cat "$TMP/ack" >"$TMP/ack.out" &
catpid=$!
"$EMBER" stat -D -1 --control "fifo:$TMP/ctl,$TMP/ack" -a -x, -e cpu-clock -- sleep 2 \
	2>"$TMP/e.txt" &
stpid=$!
exec 7>"$TMP/ctl"
echo enable >&7
echo bogus >&7
echo disable >&7
echo ping >&7
# Every command answered before ember's end (the acks are the sync point, no timing).
for _ in $(seq 100); do [ "$(tr -cd '\0' <"$TMP/ack.out" | wc -c)" -ge 3 ] && break; sleep 0.1; done
exec 7>&-
kill -INT $stpid 2>/dev/null
wait $stpid
kill $catpid 2>/dev/null
wait $catpid 2>/dev/null
expect_eq control-messages "$(grep -c '^Events \(enabled\|disabled\)$' "$TMP/e.txt")" 3
expect_eq control-acks "$(od -An -c "$TMP/ack.out" | tr -d ' \n')" 'ack\n\0ack\n\0ack\n\0'
check control-counted grep -qE '^[0-9.]+,msec,cpu-clock,' "$TMP/e.txt"
"$EMBER" stat --control nonsense -e cpu-clock -- true 2>/dev/null
expect_eq control-bad-spec "$?" 2
stat_same_as_perf delay-minus-one-matches-perf -D -1 -e cpu-clock -- sleep 0.05

# --- options with no effect on this machine, and the refused one -----------------------------
for o in --no-merge --hybrid-merge --metric-no-group --metric-no-merge --percore-show-thread \
	"--td-level 1"; do
	stat_same_as_perf "accepts-${o#--}" $o -e cpu-clock -- sleep 0.02
done
"$EMBER" stat --cputype core -e cpu-clock -- true 2>"$TMP/e.txt"
expect_eq cputype-refused "$?" 2
expect_eq cputype-refused-one-line "$(wc -l <"$TMP/e.txt")" 1
exit 0
