#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Targets that go wrong, for ember record (and stat where record-*.sh and
# stat-errors.sh leave a gap): a command that cannot be run or exits at
# once, a pid or tid that does not exist, a pid that exits while it is
# recorded (at random moments), cpu lists naming cpus that are not there,
# and more events than file descriptors allow. Each either works — a file
# ember and perf both read — or fails with one clear line.
. "$(dirname "$0")/../lib/e2e.sh"
. "$(dirname "$0")/faults-lib.bash"

if ! have_perf; then
	skip setup "perf not installed"
	exit 0
fi
if [ ! -x "$EMBER" ] || [ ! -x "$WL/hotloop" ] || [ ! -x "$WL/writes" ]; then
	skip setup "no $EMBER or workloads; build first"
	exit 0
fi
cd "$TMP" || exit 1
faults_seed

# one_line NAME WANT_STATUS PATTERN CMD...: CMD exits WANT_STATUS ("nz": not 0)
# with exactly one line on stderr, matching PATTERN (extended regex).
one_line() {
	local name=$1 want=$2 pat=$3 rc
	shift 3
	"$@" >/dev/null 2>"$name.err"
	rc=$?
	if [ "$want" = nz ] && [ $rc = 0 ]; then
		fail "$name" "status 0"
	elif [ "$want" != nz ] && [ $rc != "$want" ]; then
		fail "$name" "status $rc, want $want: $(head -c 300 "$name.err")"
	elif [ "$(wc -l <"$name.err")" != 1 ]; then
		fail "$name" "want one line on stderr, got: $(head -c 400 "$name.err")"
	elif ! grep -qE -- "$pat" "$name.err"; then
		fail "$name" "'$pat' not in: $(cat "$name.err")"
	else
		pass "$name"
	fi
}

# --- commands
# Found but not executable: 126, as a shell and as ember stat (127 is for
# "not found"; record-signals.sh checks that one).
one_line not-executable 126 "cannot run '/etc/passwd': Permission denied" \
	"$EMBER" record -q -o x.data -- /etc/passwd
one_line directory 126 "cannot run '/': Permission denied" \
	"$EMBER" record -q -o x.data -- /
# A command that exits at once: a finished file both tools read.
"$EMBER" record -q -g -o true.data -- true 2>true.err
expect_eq true-status "$?" 0
readers_ok true true.data
if is_root; then
	"$EMBER" record -q -a -g -o atrue.data -- true 2>atrue.err
	expect_eq a-true-status "$?" 0
	readers_ok a-true atrue.data
fi
"$EMBER" record -q -o fail.data -- sh -c 'exit 3'
expect_eq exits-3-at-once "$?" 3
readers_ok exits-3 fail.data

# --- pids and tids
# One that does not exist, below pid_max (so it is a valid number).
rm -f x.data
dead=$(($(cat /proc/sys/kernel/pid_max) - 1))
while [ -e "/proc/$dead" ]; do dead=$((dead - 1)); done
one_line dead-pid 1 "$dead" "$EMBER" record -q -o x.data -p "$dead"
one_line dead-pid-with-command 1 "$dead" "$EMBER" record -q -o x.data -p "$dead" -- sleep 0.1
one_line dead-tid 1 "$dead" "$EMBER" record -q -o x.data -t "$dead"
one_line dead-pid-in-list 1 "$dead" "$EMBER" record -q -o x.data -p "$$,$dead"
[ -e x.data ] && fail "dead-pid-no-file" "x.data was created" || pass "dead-pid-no-file"

# gone_first NAME STATUS ERRFILE: the target was gone before ember attached:
# status 1 and one line saying so.
gone_first() {
	if [ "$2" = 1 ] && [ "$(wc -l <"$3")" = 1 ] && grep -q 'no such process' "$3"; then
		pass "$1"
	else
		fail "$1" "status $2: $(head -c 300 "$3")"
	fi
}

# A pid that exits while it is recorded: recording ends by itself, at once,
# with a file both read. Random lifetimes, from a few ms to a second.
if is_root; then
	i=0
	for band in "5 60" "60 400" "400 1200"; do
		# shellcheck disable=SC2086
		ms=$(rand_ms $band)
		"$WL/hotloop" "$ms" &
		hp=$!
		timeout 20 "$EMBER" record -q -g -o "p$i.data" -p "$hp" 2>"p$i.err"
		rc=$?
		wait "$hp" 2>/dev/null
		if [ $rc = 0 ] || [ ! -s "p$i.err" ]; then
			expect_eq "pid-exits-$i-status (lives ${ms}ms)" "$rc" 0
			readers_ok "pid-exits-$i" "p$i.data"
		else
			# Gone before ember attached: the missing-pid error, one line.
			gone_first "pid-exits-$i-before-attach (lives ${ms}ms)" $rc "p$i.err"
		fi
		i=$((i + 1))
	done
	# A process whose children come and go while it is recorded.
	"$WL/forker" 2000 &
	fp=$!
	timeout 20 "$EMBER" record -q -o fork.data -p "$fp" 2>fork.err
	rc=$?
	wait "$fp"
	if [ $rc = 0 ]; then readers_ok forker fork.data; else
		gone_first forker-gone-before-attach $rc fork.err; fi
else
	skip pid-exits "recording another process needs root here (perf_event_paranoid)"
fi

# --- cpus
for c in 999 0-999 "0,4095"; do
	one_line "cpu-list-$c" 2 "cpu list '$c' names a cpu that is offline or absent" \
		"$EMBER" record -q -C "$c" -o x.data -- true
done
off=$(cat /sys/devices/system/cpu/offline 2>/dev/null)
if [ -n "$off" ]; then
	c=${off%%[-,]*}
	one_line cpu-offline 2 "offline" "$EMBER" record -q -C "$c" -o x.data -- true
else
	skip cpu-offline "every possible cpu is online here (taking one off would disturb the machine)"
fi

# --- file descriptors: one per event, cpu and thread
if is_root && have_tracefs; then
	n=$(ls -d /sys/kernel/tracing/events/syscalls/sys_enter_* | wc -l)
	# A soft limit below what is needed: raised to the hard one, as perf does.
	(
		ulimit -Sn 64
		"$EMBER" record -q -e 'syscalls:sys_enter_*' -o fd.data -- "$WL/writes" 25
	) 2>fd.err
	expect_eq fd-soft-status "$?" 0
	expect_eq fd-soft-all-events "$("$PERF" script -i fd.data 2>/dev/null |
		grep -c 'sys_enter_write:')" 25
	expect_eq fd-soft-attrs "$("$PERF" report --header-only -i fd.data 2>/dev/null |
		grep -c '^# event : name = syscalls:sys_enter_')" "$n"
	# A hard limit: one line that says what failed and what to do.
	one_line fd-hard 1 "too many open files.*ulimit -n" \
		sh -c "ulimit -n 64; exec '$EMBER' record -q -e 'syscalls:sys_enter_*' -o fd2.data -- true"
	one_line fd-hard-a 1 "too many open files.*ulimit -n" \
		sh -c "ulimit -n 200; exec '$EMBER' record -q -a -e 'syscalls:sys_enter_*' -o fd3.data -- true"
	one_line fd-hard-stat-a 1 "too many open files.*ulimit -n" \
		sh -c "ulimit -n 200; exec '$EMBER' stat -a -e 'syscalls:sys_enter_*' -- true"
	[ -s fd2.data ] && fail fd-hard-no-file "a file was left" || pass fd-hard-no-file
else
	skip fd-limits "tracepoints need root and tracefs"
fi
