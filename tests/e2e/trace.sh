#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember trace on the syscalls workload (a known sequence of syscalls):
# exact counts, file names read as strings, flags, modes, signals, errno
# names and fd paths decoded; perf trace's layout (the same lines as perf
# trace 6.1 for the same run, values that change between runs
# normalized); interrupted and continued calls of two threads; -p on a
# running process; the filters; and bad input: unknown syscalls, dead
# pids, no permission, a target that exits, ^C.
. "$(dirname "$0")/../lib/e2e.sh"

if ! is_root || ! have_tracefs; then
	skip setup "needs root and tracefs"
	exit 0
fi
if [ ! -x "$EMBER" ] || [ ! -x "$WL/syscalls" ]; then
	skip setup "no $EMBER or $WL/syscalls; build first"
	exit 0
fi
if ! "$EMBER" trace -e exit_group -- true >/dev/null 2>"$TMP/bpf.txt"; then
	skip setup "ember trace cannot run here: $(head -1 "$TMP/bpf.txt")"
	exit 0
fi
IN=$TMP/in.txt
SCRATCH=$TMP/scratch
echo abcdefgh >"$IN"
run_wl() { "$WL/syscalls" "$1" "$IN" "$SCRATCH"; }

# What follows "comm/tid " on each line.
calls() { sed -E 's/^ *([0-9]+\.[0-9]+|\?) \( *([0-9]+\.[0-9]+ ms)? *\): [^ ]+ //' "$@"; }

# 1. exact counts: 1000 getppid, nothing else chosen but the fd bookkeeping never shown
"$EMBER" trace -e getppid -- "$WL/syscalls" 1000 "$IN" "$SCRATCH" 2>"$TMP/count.txt"
expect_eq count-exit-status "$?" 0
expect_eq count-getppid "$(grep -c ' getppid() ' "$TMP/count.txt")" 1000
expect_eq count-only-chosen "$(grep -vc ' getppid() ' "$TMP/count.txt")" 0

# 2. every call after the exec, each decoded
"$EMBER" trace -- "$WL/syscalls" 3 "$IN" "$SCRATCH" 2>"$TMP/all.txt"
calls "$TMP/all.txt" >"$TMP/all.calls"
expect_eq first-is-exec-exit "$(head -1 "$TMP/all.txt" | sed 's/^ *//; s/  */ /g')" \
	"? ( ): syscalls/$(sed -n 's/^.*syscalls\/\([0-9]*\) .*$/\1/p' "$TMP/all.txt" | head -1) ... [continued]: execve()) = 0"
has() { # NAME LINE: LINE (after comm/tid, spaces squeezed) is in the trace
	if sed 's/  */ /g' "$TMP/all.calls" | grep -qxF -- "$2"; then pass "$1"; else
		fail "$1" "no line '$2'"; fi
}
has string-and-flags "openat(dfd: CWD, filename: \"$IN\", flags: RDONLY|CLOEXEC) = 3"
has fd-path-read "read(fd: 3<$IN>, buf: $(grep -o 'read(fd: 3<[^,]*>, buf: 0x[0-9a-f]*' "$TMP/all.calls" | tail -1 | sed 's/.*buf: //'), count: 4) = 4"
has fd-path-close "close(fd: 3<$IN>) = 0"
has errno-name "openat(dfd: CWD, filename: \"/nonexistent/ember-trace\") = -1 ENOENT (No such file or directory)"
has mode-with-creat "openat(dfd: CWD, filename: \"$SCRATCH\", flags: CREAT|TRUNC|WRONLY, mode: IRUSR|IWUSR|IRGRP) = 3"
has path-string "unlink(pathname: \"$SCRATCH\") = 0"
pid=$(sed -n 's/^.* syscalls\/\([0-9]*\) .*$/\1/p' "$TMP/all.txt" | head -1)
has signal-and-pid "kill(pid: $pid (syscalls), sig: USR1) = 0"
has exit-group-at-entry "exit_group() = ?"
expect_eq getppid-count-3 "$(grep -c ' getppid() ' "$TMP/all.txt")" 3

# 3. the layout: "= " 70 columns after the call's name, one space at least after ")"
col=$(grep ' brk() ' "$TMP/all.txt" | head -1 | awk '{ print index($0, " brk()") + 1 + 70 }')
at=$(grep ' brk() ' "$TMP/all.txt" | head -1 | awk '{ print index($0, "= ") }')
expect_eq layout-ret-column "$at" "$col"
check layout-long-line grep -qE '\) = 3$' "$TMP/all.txt"
check layout-head grep -qE '^ +[0-9]+\.[0-9]{3} \( *[0-9]+\.[0-9]{3} ms\): syscalls/[0-9]+ ' "$TMP/all.txt"

# 4. the same lines as perf trace for the same program, run values normalized
norm() { # FILE: timestamps, durations, pids, pointers and fd paths out; strings vs pointers
	sed -E -e 's/^ +([0-9]+\.[0-9]+|\?) \( *([0-9]+\.[0-9]+ ms)? *\): /T (D): /' \
		-e "s/\\b$2\\b/PID/g" \
		-e 's/(filename|pathname): ("[^"]*"|0x[0-9a-f]+)/\1: S/g' \
		-e 's/<[^>]*>//g' -e 's/0x[0-9a-f]+/0xH/g' -e 's/\) +=/) =/' "$1"
}
if have_perf; then
	"$PERF" trace -- "$WL/syscalls" 3 "$IN" "$SCRATCH" 2>"$TMP/perf.txt" >/dev/null
	ppid=$(sed -n 's/^.* syscalls\/\([0-9]*\) .*$/\1/p' "$TMP/perf.txt" | head -1)
	norm "$TMP/perf.txt" "$ppid" >"$TMP/perf.n"
	norm "$TMP/all.txt" "$pid" >"$TMP/ember.n"
	if [ -s "$TMP/perf.n" ] && diff "$TMP/perf.n" "$TMP/ember.n" >"$TMP/perf.diff"; then
		pass same-lines-as-perf
	else
		fail same-lines-as-perf "$(head -10 "$TMP/perf.diff")"
	fi
else
	skip same-lines-as-perf "perf is not installed"
fi

# --call-graph fp on a short command: the frames perf names, though the process is gone
# by the time they are read (build-ids and file offsets from the BPF program)
if have_perf; then
	"$PERF" trace --call-graph fp -e openat,getppid -- "$WL/syscalls" 2 "$IN" "$SCRATCH" 2>"$TMP/pcg1.txt" >/dev/null
	"$EMBER" trace --call-graph fp -e openat,getppid -- "$WL/syscalls" 2 "$IN" "$SCRATCH" 2>"$TMP/cg1.txt"
	norm "$TMP/pcg1.txt" "$(sed -n 's/^.* syscalls\/\([0-9]*\) .*$/\1/p' "$TMP/pcg1.txt" | head -1)" >"$TMP/pcg1.n"
	norm "$TMP/cg1.txt" "$(sed -n 's/^.* syscalls\/\([0-9]*\) .*$/\1/p' "$TMP/cg1.txt" | head -1)" >"$TMP/cg1.n"
	if grep -q 'main (' "$TMP/cg1.n" && diff "$TMP/pcg1.n" "$TMP/cg1.n" >"$TMP/cg1.diff"; then
		pass call-graph-short-command-as-perf
	else
		fail call-graph-short-command-as-perf "$(head -6 "$TMP/cg1.diff")"
	fi
fi

# 5. two threads: an entry the other thread interrupts, and its continuation
"$EMBER" trace -e read,getppid,write -- "$WL/syscalls" --threads 2>"$TMP/threads.txt"
check interrupted-entry grep -qE 'read\(fd: 3<pipe:\[[0-9]+\]>, buf: 0x[0-9a-f]+, count: 1\) +\.\.\.$' "$TMP/threads.txt"
check continued-exit grep -qE '\( *[0-9.]+ ms\): syscalls/[0-9]+  \.\.\. \[continued\]: read\(\)\) += 1$' "$TMP/threads.txt"
check written-fd-path grep -qE 'write\(fd: 4<pipe:\[[0-9]+\]>' "$TMP/threads.txt"

# 6. -p on a running process, ^C ends it cleanly with what was seen
"$WL/syscalls" --loop &
loop=$!
"$EMBER" trace -p "$loop" -e getppid 2>"$TMP/p.txt" &
tracer=$!
sleep 1
kill -INT "$tracer"
wait "$tracer"
expect_eq pid-ctrl-c-status "$?" 0
# one thread traced: no comm/tid on the lines, as perf trace -p of a single thread
n=$(grep -cE '^ +[0-9.]+ \( *[0-9.]+ ms\): getppid\(\) ' "$TMP/p.txt")
if [ "$n" -ge 10 ]; then pass pid-traced; else fail pid-traced "$n getppid lines"; fi
expect_eq pid-only-target "$(grep -vc 'getppid() ' "$TMP/p.txt")" 0

# --call-graph fp: the frames under each line, as perf names them
"$EMBER" trace --call-graph fp -p "$loop" -e getppid --max-events 3 2>"$TMP/cg.txt"
check call-graph-frame grep -qxE ' {39}syscall \(/[^)]*libc\.so\.6\)' "$TMP/cg.txt"
if have_perf; then
	"$PERF" trace --call-graph fp -p "$loop" -e getppid --max-events 3 2>"$TMP/pcg.txt"
	expect_eq call-graph-as-perf "$(grep -v getppid "$TMP/cg.txt" | sort -u)" \
		"$(grep -v getppid "$TMP/pcg.txt" | sort -u)"
fi
# dwarf is trace-dwarf.sh's; lbr is refused, as a bad dwarf size
"$EMBER" trace --call-graph lbr -- true 2>"$TMP/e.txt"
expect_eq call-graph-lbr-refused "$?" 2
"$EMBER" trace --call-graph dwarf,0 -- true 2>"$TMP/e.txt"
expect_eq call-graph-dwarf-size-refused "$?" 2

# 7. the target exits mid-trace: ember ends by itself
"$EMBER" trace -p "$loop" -e getppid 2>"$TMP/p2.txt" &
tracer=$!
sleep 0.5
kill "$loop"
wait "$loop" 2>/dev/null
for _ in $(seq 50); do kill -0 "$tracer" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$tracer" 2>/dev/null; then
	kill "$tracer"
	fail pid-gone-ends "still running 5 s after its target exited"
else
	wait "$tracer"
	expect_eq pid-gone-ends "$?" 0
fi

# 8. filters
"$EMBER" trace --failure -- "$WL/syscalls" 3 "$IN" "$SCRATCH" 2>"$TMP/fail.txt"
check failure-has-enoent grep -q '/nonexistent/ember-trace' "$TMP/fail.txt"
expect_eq failure-only-failed "$(grep -vc '= -1 E' "$TMP/fail.txt")" 0
"$EMBER" trace -e clock_nanosleep --duration 50 -- sleep 0.1 2>"$TMP/dur.txt"
expect_eq duration-shows-long "$(grep -c clock_nanosleep "$TMP/dur.txt")" 1
"$EMBER" trace -e clock_nanosleep --duration 500 -- sleep 0.1 2>"$TMP/dur2.txt"
expect_eq duration-hides-short "$(wc -l <"$TMP/dur2.txt")" 0
"$EMBER" trace -e '!getppid' -- "$WL/syscalls" 5 "$IN" "$SCRATCH" 2>"$TMP/not.txt"
expect_eq negated-list "$(grep -c getppid "$TMP/not.txt")" 0
check negated-list-rest grep -q 'unlink(' "$TMP/not.txt"
"$EMBER" trace -e 'getpp*,kill' -- "$WL/syscalls" 2 "$IN" "$SCRATCH" 2>"$TMP/glob.txt"
expect_eq glob-list "$(calls "$TMP/glob.txt" | sed 's/(.*//' | sort | uniq -c | tr -s ' ' | tr '\n' ';')" \
	" 2 getppid; 1 kill;"
"$EMBER" trace -o "$TMP/out.txt" -e getppid -- "$WL/syscalls" 4 "$IN" "$SCRATCH" 2>"$TMP/o-err.txt"
expect_eq output-file "$(grep -c getppid "$TMP/out.txt")" 4
expect_eq output-file-not-stderr "$(wc -l <"$TMP/o-err.txt")" 0
"$EMBER" trace --no-comm -e getppid -- "$WL/syscalls" 1 "$IN" "$SCRATCH" 2>"$TMP/nocomm.txt"
check no-comm grep -qE '\): [0-9]+ getppid\(\)' "$TMP/nocomm.txt"
"$EMBER" trace --max-events 2 -e getppid -- "$WL/syscalls" 50 "$IN" "$SCRATCH" 2>"$TMP/max.txt"
expect_eq max-events "$(grep -c getppid "$TMP/max.txt")" 2

# cpus and users narrow the target, in the kernel
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
	"$EMBER" trace -C 0 -e getppid -- taskset -c 0 "$WL/syscalls" 20 "$IN" "$SCRATCH" 2>"$TMP/c0.txt"
	expect_eq cpu-filter-on "$(grep -c getppid "$TMP/c0.txt")" 20
	"$EMBER" trace -C 1 -e getppid -- taskset -c 0 "$WL/syscalls" 20 "$IN" "$SCRATCH" 2>"$TMP/c1.txt"
	expect_eq cpu-filter-off "$(grep -c getppid "$TMP/c1.txt")" 0
else
	skip cpu-filter "needs taskset and 2 cpus"
fi
"$EMBER" trace -u root -e getppid -- "$WL/syscalls" 7 "$IN" "$SCRATCH" 2>"$TMP/u0.txt"
expect_eq user-filter-on "$(grep -c getppid "$TMP/u0.txt")" 7
"$EMBER" trace -u nobody -e getppid -- "$WL/syscalls" 7 "$IN" "$SCRATCH" 2>"$TMP/u1.txt"
expect_eq user-filter-off "$(grep -c getppid "$TMP/u1.txt")" 0
"$EMBER" trace -C 99999 -- true 2>"$TMP/e.txt"
expect_eq offline-cpu-status "$?" 2

# 9. tracepoints mixed in (-e sys:name), and alone (no syscalls then, as perf)
"$EMBER" trace -e sched:sched_process_exec,getppid -- "$WL/syscalls" 2 "$IN" "$SCRATCH" 2>"$TMP/tp.txt"
check tracepoint-line grep -qE "^ +0\.000 \( +\): syscalls/[0-9]+ sched:sched_process_exec\(filename: \"$WL/syscalls\", pid: [0-9]+ \(syscalls\), old_pid: [0-9]+ \(syscalls\)\)\$" "$TMP/tp.txt"
expect_eq tracepoint-with-syscalls "$(grep -c ' getppid() ' "$TMP/tp.txt")" 2
"$EMBER" trace -e sched:sched_process_exit -- sh -c "$WL/syscalls 1 $IN $SCRATCH" 2>"$TMP/tp2.txt"
expect_eq tracepoint-alone "$(grep -vc ' sched:sched_process_exit(' "$TMP/tp2.txt")" 0
check tracepoint-no-duration grep -qE '^ +[0-9.]+ syscalls/[0-9]+ sched:sched_process_exit\(comm: "syscalls", pid: [0-9]+ \(syscalls\), prio: [0-9]+, group_dead: 1\)$' "$TMP/tp2.txt"
if have_perf; then
	"$PERF" trace -e sched:sched_process_exit -- sh -c "$WL/syscalls 1 $IN $SCRATCH" 2>"$TMP/ptp2.txt"
	# the same lines; their order is not compared: perf trace prints the two
	# exits (on two cpus) in the order it reads its buffers, sh's first at times
	expect_eq tracepoint-as-perf "$(sed -E 's/^ *[0-9.]+ //; s/[0-9]+/N/g' "$TMP/tp2.txt" | sort)" \
		"$(sed -E 's/^ *[0-9.]+ //; s/[0-9]+/N/g' "$TMP/ptp2.txt" | sort)"
fi
"$EMBER" trace --no-syscalls -e sched:sched_process_exec -- true 2>"$TMP/tp3.txt"
expect_eq no-syscalls "$(grep -c 'sched_process_exec(' "$TMP/tp3.txt"):$(wc -l <"$TMP/tp3.txt")" "1:1"
"$EMBER" trace -e sched:no_such_event -- true 2>"$TMP/e.txt"
expect_eq unknown-tracepoint-status "$?" 2
expect_eq unknown-tracepoint-one-line "$(wc -l <"$TMP/e.txt")" 1

# a buffer too small for the burst: the loss is said, not hidden
"$EMBER" trace -m 1 -o "$TMP/lost.txt" -- "$WL/syscalls" 20000 "$IN" "$SCRATCH" 2>/dev/null
check lost-said grep -qE '^LOST [0-9]+ events!$' "$TMP/lost.txt"

# 10. the command's exit status passes through
"$EMBER" trace -e exit_group -- sh -c 'exit 7' 2>/dev/null
expect_eq exit-status "$?" 7
"$EMBER" trace -- "$TMP/nonexistent" 2>"$TMP/noexec.txt"
expect_eq exec-fails-127 "$?" 127

# 11. bad input: one line each, the right exit code
"$EMBER" trace -e opnat -- true 2>"$TMP/e.txt"
expect_eq unknown-syscall-status "$?" 2
expect_eq unknown-syscall-line "$(cat "$TMP/e.txt")" \
	"ember trace: unknown syscall 'opnat'; did you mean openat, openat2?"
"$EMBER" trace -p 2147483 2>"$TMP/e.txt"
expect_eq dead-pid-status "$?" 1
expect_eq dead-pid-line "$(cat "$TMP/e.txt")" \
	"ember trace: no such process: 2147483 (it has exited, or never existed)"
"$EMBER" trace -p 12,x 2>"$TMP/e.txt"
expect_eq bad-pid-list-status "$?" 2
# no target: the whole system, as perf trace (here: this shell's getppid calls)
(sleep 1.5; for i in 1 2 3; do python3 -c 'import os; os.getppid()'; done) &
"$EMBER" trace -e getppid >"$TMP/sys.txt" 2>&1 &
tr=$!
sleep 3
kill -INT $tr
wait $tr
expect_eq no-target-status "$?" 0
if grep -q 'python3/[0-9]* getppid()' "$TMP/sys.txt"; then pass no-target-whole-system; else
	fail no-target-whole-system "$(head -3 "$TMP/sys.txt")"; fi

# 12. without privileges: what is needed, in one line
user=nobody
if su "$user" -s /bin/sh -c "test -x '$EMBER'" 2>/dev/null; then
	su "$user" -s /bin/sh -c "'$EMBER' trace -- true" >/dev/null 2>"$TMP/unpriv.txt"
	code=$?
	if [ "$code" -ne 0 ]; then pass unpriv-fails; else fail unpriv-fails "exit 0"; fi
	expect_eq unpriv-one-line "$(wc -l <"$TMP/unpriv.txt")" 1
	check unpriv-says-what grep -qE 'root|CAP_BPF' "$TMP/unpriv.txt"
else
	skip unpriv "$user cannot execute $EMBER"
fi
exit 0
