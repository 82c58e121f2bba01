#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember trace -e with probe events: uprobes made by ember probe on the probed
# workload (arguments by name, a return value, a string) are opened as perf
# tracepoint events beside the BPF tracer, as perf trace opens them, and
# printed as perf trace prints them: the same lines as perf trace's for the
# same probes and program (times, pids and probed addresses normalized),
# exact counts, mixed with syscalls, tracepoints and page faults in time
# order, and an unknown probe event refused in one line. The probes are in a
# group named after this suite's pid (other suites probe the same workload),
# removed at exit.
. "$(dirname "$0")/../lib/e2e.sh"
. "$(dirname "$0")/../lib/probe-lib.bash"

probe_suite_needs || exit 0
if [ ! -x "$EMBER" ] || [ ! -x "$WL/probed" ]; then
	skip setup "no $EMBER or $WL/probed; build first"
	exit 0
fi
G=tprobe$$
probe_groups $G || exit 0
N=5
if ! "$EMBER" probe -q -x "$WL/probed" -a "$G:add=probed_add a b" \
	-a "$G:ret=probed_add%return \$retval" -a "$G:name=probed_name s:string" 2>"$TMP/add.txt"; then
	fail add-probes "$(head -2 "$TMP/add.txt")"
	exit 0
fi
# the time, comm/pid, and the probed addresses (the program is PIE) out
norm() {
	sed -E -e 's/^ +[0-9]+\.[0-9]+ (\( *([0-9]+\.[0-9]+ ms)? *\): )?probed\/[0-9]+ /T /' \
		-e 's/(__probe_ip|__probe_func|__probe_ret_ip): [0-9]+/\1: A/g' -e 's/\) +=/) =/' "$1"
}

# 1. every probe of the group, each hit a line: exact counts, no syscalls (as perf)
"$EMBER" trace -e "$G:*" -- "$WL/probed" $N 2>"$TMP/all.txt" >/dev/null
expect_eq exit-status "$?" 0
expect_eq count-add "$(grep -c " $G:add(" "$TMP/all.txt")" $N
expect_eq count-ret "$(grep -c " $G:ret__return(" "$TMP/all.txt")" $N
expect_eq count-name "$(grep -c " $G:name(" "$TMP/all.txt")" $N
expect_eq no-other-lines "$(grep -vc " $G:" "$TMP/all.txt")" 0
norm "$TMP/all.txt" >"$TMP/all.n"
check args-by-name grep -qxF "T $G:add(__probe_ip: A, a: 2, b: 4)" "$TMP/all.n"
check return-value grep -qxF "T $G:ret__return(__probe_func: A, __probe_ret_ip: A, arg1: 6)" "$TMP/all.n"
check string-arg grep -qxF "T $G:name(__probe_ip: A, s_string: \"beta\")" "$TMP/all.n"

# 2. the same lines as perf trace's for the same probes and program
"$PERF" trace -e "$G:*" -- "$WL/probed" $N 2>"$TMP/perf.txt" >/dev/null
norm "$TMP/perf.txt" >"$TMP/perf.n"
if [ -s "$TMP/perf.n" ] && diff "$TMP/perf.n" "$TMP/all.n" >"$TMP/d1"; then
	pass same-lines-as-perf
else
	fail same-lines-as-perf "$(head -6 "$TMP/d1")"
fi

# 3. mixed with syscalls: perf's "(         ): " column, and the same lines as perf's
"$EMBER" trace -e "$G:add,openat,write" -- "$WL/probed" $N 2>"$TMP/mix.txt" >/dev/null
"$PERF" trace -e "$G:add,openat,write" -- "$WL/probed" $N 2>"$TMP/pmix.txt" >/dev/null
expect_eq mixed-count "$(grep -c " $G:add(" "$TMP/mix.txt")" $N
check mixed-layout grep -qE "^ +[0-9]+\.[0-9]{3} \(         \): probed/[0-9]+ $G:add\(__probe_ip: [0-9]+\)$" "$TMP/mix.txt"
# perf shows the file names as pointers; ember reads them: those lines are compared by name
names() { norm "$1" | sed -E 's/^T ([a-z_0-9:]+)\(.*/\1/'; }
if diff <(names "$TMP/pmix.txt") <(names "$TMP/mix.txt") >"$TMP/d2"; then
	pass mixed-order-as-perf
else
	fail mixed-order-as-perf "$(head -6 "$TMP/d2")"
fi
# every probe hit comes after the program's last openat (its libraries) and before its write
last_open=$(grep -n ' openat(' "$TMP/mix.txt" | tail -1 | cut -d: -f1)
first_hit=$(grep -n " $G:add(" "$TMP/mix.txt" | head -1 | cut -d: -f1)
write=$(grep -n ' write(' "$TMP/mix.txt" | head -1 | cut -d: -f1)
if [ -n "$last_open" ] && [ -n "$first_hit" ] && [ -n "$write" ] &&
	[ "$last_open" -lt "$first_hit" ] && [ "$first_hit" -lt "$write" ]; then
	pass mixed-in-time-order
else
	fail mixed-in-time-order "openat ${last_open:-none}, first hit ${first_hit:-none}, write ${write:-none}"
fi

# 4. with a tracepoint (through BPF) and page faults, --no-syscalls
"$EMBER" trace --no-syscalls -F min -e "sched:sched_process_exec,$G:name" -- "$WL/probed" $N \
	2>"$TMP/tp.txt" >/dev/null
expect_eq tracepoint-and-probe "$(grep -c 'sched:sched_process_exec(' "$TMP/tp.txt")|$(grep -c " $G:name(" "$TMP/tp.txt")" "1|$N"
check faults-too grep -q ' minfault \[' "$TMP/tp.txt"
exec_at=$(grep -n 'sched:sched_process_exec(' "$TMP/tp.txt" | cut -d: -f1)
hit_at=$(grep -n " $G:name(" "$TMP/tp.txt" | head -1 | cut -d: -f1)
if [ -n "$exec_at" ] && [ -n "$hit_at" ] && [ "$exec_at" -lt "$hit_at" ]; then
	pass exec-before-hits
else
	fail exec-before-hits "exec at ${exec_at:-none}, first hit at ${hit_at:-none}"
fi

# 5. -p on a running process: its hits from the attach on, --max-events of them
"$WL/probed" 2000000000 >/dev/null &
pid=$!
sleep 0.2
timeout -s INT 10 "$EMBER" trace -e "$G:add" -p $pid --max-events 50 2>"$TMP/p.txt"
kill $pid 2>/dev/null
wait $pid 2>/dev/null
expect_eq pid-hits "$(grep -cE "^ +[0-9]+\.[0-9]{3} $G:add\(__probe_ip: [0-9]+, a: [0-9]+, b: [0-9]+\)$" "$TMP/p.txt")|$(wc -l <"$TMP/p.txt")" "50|50"

# 6. a probe event that does not exist: one line, a usage error
"$EMBER" trace -e "probe_$G:nosuch" -- true 2>"$TMP/bad.txt"
expect_eq unknown-status "$?" 2
expect_eq unknown-message "$(cat "$TMP/bad.txt")" \
	"ember trace: no such probe event 'probe_$G:nosuch' (see 'ember probe -l')"
