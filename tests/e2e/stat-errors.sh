#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember stat's failures: one clear line on stderr and the right exit code.
. "$(dirname "$0")/../lib/e2e.sh"

# fails NAME WANT_CODE PATTERN ARGS...: ember stat ARGS exits WANT_CODE ("nz": any
# non-zero) and prints exactly one line on stderr that matches PATTERN.
fails() {
	local name=$1 want=$2 pattern=$3 code
	shift 3
	"$EMBER" stat "$@" >"$TMP/out.txt" 2>"$TMP/err.txt"
	code=$?
	if [ "$want" = nz ] && [ "$code" -eq 0 ]; then
		fail "$name" "exit 0, want non-zero"
	elif [ "$want" != nz ] && [ "$code" != "$want" ]; then
		fail "$name" "exit $code, want $want: $(head -3 "$TMP/err.txt")"
	elif [ "$(wc -l <"$TMP/err.txt")" -ne 1 ]; then
		fail "$name" "want one line on stderr, got: $(head -5 "$TMP/err.txt")"
	elif ! grep -qE -- "$pattern" "$TMP/err.txt"; then
		fail "$name" "'$pattern' not in: $(cat "$TMP/err.txt")"
	else
		pass "$name"
	fi
}

fails unknown-event 2 "'bogus'" -e bogus true
fails unknown-event-in-list 2 "bogus" -e cpu-clock,bogus true
fails malformed-spec 2 "cpu-clock," -e 'cpu-clock,' true
fails unbalanced-group 2 "\\{cpu-clock" -e '{cpu-clock' true
if is_root && have_tracefs; then
	fails unknown-tracepoint 2 "syscalls:nope" -e syscalls:nope true
	fails unknown-tracepoint-glob 2 "nosys:\\*" -e 'nosys:*' true
fi
fails missing-command 127 "no_such_command_xyz" no_such_command_xyz
fails not-executable 126 "/etc/passwd" /etc/passwd

# A pid that does not exist: find one above every live pid.
dead=$(( $(cat /proc/sys/kernel/pid_max) - 1 ))
while [ -e "/proc/$dead" ]; do dead=$((dead - 1)); done
fails dead-pid nz "$dead" -p "$dead"
fails dead-tid nz "no such process" -t "$dead" -e task-clock sleep 0.1
fails bad-pid-list nz "abc" -p abc
fails bad-cpu-list 2 "cpu list" -a -C x true
fails offline-cpu 2 "not online" -C 4095 true

fails bad-option 2 "nonsense" --nonsense true
fails csv-and-json 2 "-x and -j" -x, -j true
fails big-num-csv 2 "-B" -B -x, true
fails per-cpu-needs-cpus 2 "-a or -C" -A true
fails per-thread-needs-task 2 "-p, -t or -a" --per-thread true
fails repeat-negative 2 "-r" -r -1 true
fails interval-repeat 2 "-I and -r" -I 100 -r 2 true
fails interval-count-alone 2 "--interval-count needs -I" --interval-count 2 true
fails cgroup 2 "cgroup" -G foo -a true

# More events than the soft fd limit allows: ember raises it to the hard one.
if is_root && have_tracefs; then
	(
		ulimit -Sn 64
		"$EMBER" stat -x, -e 'syscalls:sys_enter_*' true 2>"$TMP/e.csv"
	)
	expect_eq fd-limit-raised "$?" 0
	expect_eq fd-limit-raised-lines "$(grep -c ',syscalls:sys_enter_' "$TMP/e.csv")" \
		"$(ls -d /sys/kernel/tracing/events/syscalls/sys_enter_* | wc -l)"
	(
		ulimit -n 64
		"$EMBER" stat -x, -e 'syscalls:sys_enter_*' true 2>"$TMP/err.txt"
	)
	code=$?
	if [ "$code" -ne 0 ] && grep -q "too many open files" "$TMP/err.txt"; then
		pass fd-limit-hard
	else
		fail fd-limit-hard "exit $code: $(head -3 "$TMP/err.txt")"
	fi
fi
exit 0
