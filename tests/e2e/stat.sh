#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember stat against real perf stat: exact counts on workloads with known
# behaviour, the default layout line by line, exit status pass-through.
. "$(dirname "$0")/../lib/e2e.sh"
. "$(dirname "$0")/stat-lib.bash"

if ! is_root; then
	skip all "needs root to open tracepoints and count other processes"
	exit 0
fi

# csv_count OUTPUT EVENT: the value column of EVENT's line in -x, output.
csv_count() {
	awk -F, -v ev="$2" '$3 == ev { print $1 }' "$1"
}

# --- default event set: perf 6.1's lines, columns and footer ---------------
"$EMBER" stat -- "$WL/sleeper" 3 1 2>"$TMP/default.txt"
expect_eq default-exit "$?" 0
cp "$TMP/default.txt" "$TMP/e.txt"
if have_perf; then
	"$PERF" stat -- "$WL/sleeper" 3 1 2>"$TMP/p.txt"
	stat_shape <"$TMP/e.txt" >"$TMP/e.shape"
	stat_shape <"$TMP/p.txt" >"$TMP/p.shape"
	if diff "$TMP/e.shape" "$TMP/p.shape" >"$TMP/d.txt"; then
		pass default-layout-matches-perf
	else
		fail default-layout-matches-perf "$(head -20 "$TMP/d.txt")"
	fi
	# The events and their order, <not supported> ones included.
	expect_eq default-events-match-perf "$(stat_events_of <"$TMP/e.txt" | tr '\n' ' ')" \
		"$(stat_events_of <"$TMP/p.txt" | tr '\n' ' ')"
	for d in -d -dd -ddd; do
		"$EMBER" stat $d -- true 2>"$TMP/e.txt"
		"$PERF" stat $d -- true 2>"$TMP/p.txt"
		if diff <(stat_shape <"$TMP/e.txt") <(stat_shape <"$TMP/p.txt") >"$TMP/d.txt"; then
			pass "detailed$d-layout-matches-perf"
		else
			fail "detailed$d-layout-matches-perf" "$(head -20 "$TMP/d.txt")"
		fi
	done
else
	skip default-layout-matches-perf "perf is not installed"
fi
check default-header grep -q "^ Performance counter stats for '$WL/sleeper 3 1':\$" \
	"$TMP/default.txt"
check default-elapsed grep -qE '^ +[0-9]+\.[0-9]{9} seconds time elapsed$' "$TMP/default.txt"
check default-user-sys grep -qE '^ +[0-9]+\.[0-9]{9} seconds sys$' "$TMP/default.txt"

# --- hardware events: <not supported> exactly where perf says so ------------
if have_perf; then
	evs=cycles,instructions,branches,branch-misses,cache-misses,cpu-clock
	"$EMBER" stat -x, -e $evs true 2>"$TMP/e.csv"
	"$PERF" stat -x, -e $evs true 2>"$TMP/p.csv"
	expect_eq hw-unsupported-set-matches-perf \
		"$(awk -F, '{ print ($1 ~ /^</ ? $1 : "N") "," $3 }' "$TMP/e.csv" | tr '\n' ' ')" \
		"$(awk -F, '{ print ($1 ~ /^</ ? $1 : "N") "," $3 }' "$TMP/p.csv" | tr '\n' ' ')"
fi

# --- exact counts by construction ------------------------------------------
if have_tracefs; then
	"$EMBER" stat -x, -e syscalls:sys_enter_write -- "$WL/writes" 1000 2>"$TMP/e.csv"
	expect_eq writes-exact "$(csv_count "$TMP/e.csv" syscalls:sys_enter_write)" 1000
	if have_perf; then
		"$PERF" stat -x, -e syscalls:sys_enter_write -- "$WL/writes" 1000 2>"$TMP/p.csv"
		expect_eq writes-exact-perf \
			"$(csv_count "$TMP/p.csv" syscalls:sys_enter_write)" 1000
	fi

	ev=sched:sched_process_exec,sched:sched_process_exit,sched:sched_process_fork
	"$EMBER" stat -x, -e $ev -- "$WL/forker" 5 2>"$TMP/e.csv"
	expect_eq forker-exec "$(csv_count "$TMP/e.csv" sched:sched_process_exec)" 1
	expect_eq forker-fork "$(csv_count "$TMP/e.csv" sched:sched_process_fork)" 5
	expect_eq forker-exit "$(csv_count "$TMP/e.csv" sched:sched_process_exit)" 6
	if have_perf; then
		"$PERF" stat -x, -e $ev -- "$WL/forker" 5 2>"$TMP/p.csv"
		for e in exec fork exit; do
			expect_eq "forker-$e-matches-perf" \
				"$(csv_count "$TMP/e.csv" sched:sched_process_$e)" \
				"$(csv_count "$TMP/p.csv" sched:sched_process_$e)"
		done
	fi
	# Children are counted (inherit), unless -i.
	"$EMBER" stat -i -x, -e sched:sched_process_fork -- "$WL/forker" 5 2>"$TMP/e.csv"
	expect_eq no-inherit "$(csv_count "$TMP/e.csv" sched:sched_process_fork)" 5
	"$EMBER" stat -i -x, -e sched:sched_process_exit -- "$WL/forker" 5 2>"$TMP/e.csv"
	expect_eq no-inherit-children-not-counted \
		"$(csv_count "$TMP/e.csv" sched:sched_process_exit)" 1
else
	skip writes-exact "tracefs is not available"
fi

"$EMBER" stat -x, -e context-switches -- "$WL/sleeper" 20 1 2>"$TMP/e.csv"
n=$(csv_count "$TMP/e.csv" context-switches)
if [ "${n:-0}" -ge 20 ]; then pass sleeper-context-switches; else
	fail sleeper-context-switches "got '$n', want >= 20"; fi
if have_perf; then
	"$PERF" stat -x, -e context-switches -- "$WL/sleeper" 20 1 2>"$TMP/p.csv"
	n=$(csv_count "$TMP/p.csv" context-switches)
	if [ "${n:-0}" -ge 20 ]; then pass sleeper-context-switches-perf; else
		fail sleeper-context-switches-perf "got '$n', want >= 20"; fi
fi

# --- exit status --------------------------------------------------------------
"$EMBER" stat -e task-clock -- "$WL/exitcode" 3 2>/dev/null
expect_eq exit-status-passthrough "$?" 3
"$EMBER" stat -e task-clock "$WL/exitcode" 0 2>/dev/null
expect_eq exit-status-zero "$?" 0
"$EMBER" stat -e task-clock -- /nonexistent/command 2>"$TMP/err.txt"
expect_eq missing-command-127 "$?" 127
expect_eq missing-command-message "$(wc -l <"$TMP/err.txt")" 1
check missing-command-names-it grep -q "/nonexistent/command" "$TMP/err.txt"

# --- -r: the noise column, the runs header, the +- footer ---------------------
"$EMBER" stat -r 3 -e task-clock,page-faults -- "$WL/sleeper" 2 1 2>"$TMP/e.txt"
check repeat-header grep -q "(3 runs):" "$TMP/e.txt"
check repeat-noise grep -q '( +-' "$TMP/e.txt"
check repeat-footer grep -qE '^ +[0-9.]+ \+- [0-9.]+ seconds time elapsed' "$TMP/e.txt"

# --- -a with a command: the command bounds the time ---------------------------
"$EMBER" stat -a -e cpu-clock -- sleep 0.2 2>"$TMP/e.txt"
check system-wide-header grep -q "Performance counter stats for 'system wide':" "$TMP/e.txt"
if grep -q 'seconds user' "$TMP/e.txt"; then fail system-wide-no-rusage; else
	pass system-wide-no-rusage; fi
exit 0
