# SPDX-License-Identifier: GPL-2.0-only
# The ways perf records, with ember record, read back by perf 6.1: a
# running process (-p) until it exits or ^C, a process for the duration of
# a command, a thread (-t), the whole system with kernel call chains
# (-a -g), some cpus (-C), and pipe mode to stdout, explicit (-o -) and
# implicit (stdout is a FIFO), straight into perf report.
. "$(dirname "$0")/../lib/e2e.sh"

if ! have_perf; then
	skip setup "perf not installed"
	exit 0
fi
if ! is_root; then
	skip setup "needs root to record other processes and the whole system"
	exit 0
fi
if [ ! -x "$EMBER" ] || [ ! -x "$WL/hotloop" ]; then
	skip setup "no $EMBER or $WL/hotloop; build first"
	exit 0
fi
cd "$TMP" || exit 1

top_sym() {
	"$PERF" report --stdio --no-children --sort sym -i "$1" 2>/dev/null |
		awk '/^ +[0-9.]+%/ { print $NF; exit }'
}
no_stderr() { # NAME FILE: perf report reads FILE without a word on stderr
	local err
	err=$("$PERF" report --stdio -i "$2" 2>&1 >/dev/null)
	if [ -z "$err" ]; then pass "$1"; else fail "$1" "$err"; fi
}

# -p PID for the duration of a command: only that process, ends with the command.
"$WL/hotloop" 60000 &  # killed below; long enough for a loaded machine
hp=$!
sleep 0.2
"$EMBER" record -q -o p.data -p "$hp" -- sleep 0.5
expect_eq "pid-with-command-exit" "$?" 0
no_stderr "pid-with-command-report" p.data
expect_eq "pid-with-command-top" "$(top_sym p.data)" "hot_a"
pids=$("$PERF" script -F pid -i p.data 2>/dev/null | sort -u | tr -d ' ' | tr '\n' ' ')
expect_eq "pid-only-target" "$pids" "$hp "

# -p PID until ^C: a complete file, 128+SIGINT as perf.
"$EMBER" record -q -g -o p2.data -p "$hp" &
rp=$!
sleep 0.6
kill -INT "$rp"
wait "$rp"
expect_eq "pid-sigint-exit" "$?" 130
no_stderr "pid-sigint-report" p2.data
expect_eq "pid-sigint-top" "$(top_sym p2.data)" "hot_a"

# -t TID: that thread, no inheritance (perf's -t).
"$EMBER" record -q -o t.data -t "$hp" -- sleep 0.3
expect_eq "tid-exit" "$?" 0
expect_eq "tid-top" "$(top_sym t.data)" "hot_a"
if "$PERF" report --header-only -i t.data 2>/dev/null | grep '^# event' | grep -q 'inherit = 1'; then
	fail "tid-no-inherit" "inherit set with -t"
else
	pass "tid-no-inherit"
fi
kill "$hp" 2>/dev/null
wait "$hp" 2>/dev/null

# -p PID without a command ends by itself when the process exits.
"$WL/hotloop" 700 &
hp=$!
sleep 0.1
timeout 10 "$EMBER" record -q -o p3.data -p "$hp"
expect_eq "pid-exits-ends-recording" "$?" 0
expect_eq "pid-exits-top" "$(top_sym p3.data)" "hot_a"
wait "$hp" 2>/dev/null

# A process that does not exist: one line, non-zero.
err=$("$EMBER" record -q -o x.data -p 999999999 2>&1)
rc=$?
if [ "$rc" -ne 0 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ]; then
	pass "pid-missing"
else
	fail "pid-missing" "rc $rc: $err"
fi

# -a -g: the whole system, kernel symbols with call chains.
"$EMBER" record -q -a -g -o a.data -- "$WL/hotloop" 300
expect_eq "system-wide-exit" "$?" 0
no_stderr "system-wide-report" a.data
if "$PERF" report --stdio --no-children --sort sym -i a.data 2>/dev/null | grep -q '\[k\]'; then
	pass "system-wide-kernel-symbols"
else
	fail "system-wide-kernel-symbols" "no [k] symbol"
fi
if "$PERF" script -i a.data 2>/dev/null | grep -q '(\[kernel.kallsyms\])'; then
	pass "system-wide-kernel-callchains"
else
	fail "system-wide-kernel-callchains" "no kernel frame in perf script"
fi
if "$PERF" script -F comm -i a.data 2>/dev/null | grep -q hotloop; then
	pass "system-wide-sees-command"
else
	fail "system-wide-sees-command" "no hotloop sample"
fi

# -C 0: samples of cpu 0 only.
"$EMBER" record -q -C 0 -o c.data -- "$WL/hotloop" 200
cpus=$("$PERF" script -F cpu -i c.data 2>/dev/null | sort -u | tr -d ' ' | tr '\n' ' ')
expect_eq "cpu-list" "$cpus" "[000] "

# Pipe mode: -o - into perf report, and a FIFO on stdout without -o (as perf).
top=$("$EMBER" record -q -g -o - -- "$WL/hotloop" 300 2>/dev/null |
	"$PERF" report -i - --stdio --no-children --sort sym 2>pipe.err |
	awk '/^ +[0-9.]+%/ { print $NF; exit }')
expect_eq "pipe-report" "$top" "hot_a"
if [ -s pipe.err ]; then fail "pipe-no-warning" "$(head -3 pipe.err)"; else pass "pipe-no-warning"; fi
n=$("$EMBER" record -q -e syscalls:sys_enter_write -- "$WL/writes" 25 2>/dev/null |
	"$PERF" script -i - 2>/dev/null | grep -c 'sys_enter_write')
expect_eq "implicit-pipe" "$n" 25
# The command's own stdout does not mix with the data: it goes to stderr.
out=$("$EMBER" record -q -o - -- echo hello 2>&1 >/dev/null)
expect_eq "pipe-command-stdout" "$out" "hello"
