# SPDX-License-Identifier: GPL-2.0-only
# Tracepoint recordings with ember record: exactly one sample per event
# (a workload making exactly N write calls), the TRACING_DATA section that
# lets perf script print the fields (the same fields as in perf's own
# recording of the same workload), --filter on the preceding -e, globs,
# and the errors perf gives for a filter it cannot apply.
. "$(dirname "$0")/../lib/e2e.sh"

if ! have_perf; then
	skip setup "perf not installed"
	exit 0
fi
if ! is_root || ! have_tracefs || [ ! -d /sys/kernel/tracing/events/syscalls/sys_enter_write ]; then
	skip setup "needs root and the syscalls tracepoints in tracefs"
	exit 0
fi
if [ ! -x "$EMBER" ] || [ ! -x "$WL/writes" ]; then
	skip setup "no $EMBER or $WL/writes; build first"
	exit 0
fi
cd "$TMP" || exit 1

out=$("$EMBER" record -e syscalls:sys_enter_write -o w.data -- "$WL/writes" 100 2>&1)
expect_eq "exit" "$?" 0
if printf '%s\n' "$out" | grep -q '(100 samples) \]$'; then pass "printed-count"; else fail "printed-count" "$out"; fi
"$PERF" script -i w.data >w.txt 2>w.err
expect_eq "exactly-100" "$(grep -c 'syscalls:sys_enter_write:' w.txt)" 100
if [ -s w.err ]; then fail "script-no-warning" "$(head -3 w.err)"; else pass "script-no-warning"; fi
expect_eq "fields" "$(grep -c 'fd: 0x[0-9a-f]*, buf: 0x[0-9a-f]*, count: 0x00000001$' w.txt)" 100
if "$PERF" report --header-only -i w.data 2>/dev/null | grep '^# missing features' | grep -q TRACING_DATA; then
	fail "tracing-data" "no TRACING_DATA section"
else
	pass "tracing-data"
fi

# The same fields, decoded the same way, as in perf's own recording (buffer addresses aside).
"$PERF" record -q -e syscalls:sys_enter_write -o pw.data -- "$WL/writes" 100 >/dev/null 2>&1
norm() { "$PERF" script -F event,trace -i "$1" 2>/dev/null | sed 's/buf: 0x[0-9a-f]*/buf: X/' | sort | uniq -c; }
expect_eq "fields-as-perf" "$(norm w.data)" "$(norm pw.data)"

# --filter applies to the preceding tracepoint: the shell's 6-byte echo is left out.
"$EMBER" record -q -e syscalls:sys_enter_write --filter 'count == 1' -o f.data -- \
	sh -c "$WL/writes 50; echo hello >/dev/null"
expect_eq "filter" "$("$PERF" script -i f.data 2>/dev/null | grep -c sys_enter_write)" 50

# A glob: every matching tracepoint, each sample told apart by its id.
"$EMBER" record -q -e 'syscalls:sys_enter_wr*' -o g.data -- "$WL/writes" 30
expect_eq "glob-events" "$("$PERF" report --header-only -i g.data 2>/dev/null | grep -c '^# event : name = syscalls:sys_enter_wr')" 2
expect_eq "glob-samples" "$("$PERF" script -i g.data 2>/dev/null | grep -c 'sys_enter_write:')" 30

# Tracepoint and clock together.
"$EMBER" record -q -e cpu-clock -e syscalls:sys_enter_write -o m.data -- "$WL/writes" 40
expect_eq "mixed" "$("$PERF" script -i m.data 2>/dev/null | grep -c 'sys_enter_write:')" 40

# Filters perf refuses.
err=$("$EMBER" record -q -e syscalls:sys_enter_write --filter 'nosuchfield == 1' -o b.data -- true 2>&1)
rc=$?
if [ "$rc" -ne 0 ] && printf '%s\n' "$err" | grep -q 'failed to set filter'; then
	pass "bad-filter"
else
	fail "bad-filter" "rc $rc: $err"
fi
"$EMBER" record -q --filter 'count == 1' -o b.data -- true 2>/dev/null
expect_eq "filter-without-event" "$?" 2
"$EMBER" record -q -e cpu-clock --filter 'count == 1' -o b.data -- true 2>/dev/null
expect_eq "filter-on-non-tracepoint" "$?" 2
