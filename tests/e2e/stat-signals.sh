#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember stat and signals: ^C reaches the command, the counts are printed,
# the command's status is ember's; without a command ^C ends counting.
. "$(dirname "$0")/../lib/e2e.sh"

# sig_run MODE DELAY ARGS...: run ember stat ARGS in its own session, send
# SIGINT after DELAY s to ember alone (MODE=one) or its process group
# (MODE=group, as a terminal's ^C). Prints stderr, then "rc N" (negative: signal).
sig_run() {
	python3 - "$@" <<'PY'
import os, signal, subprocess, sys, time
mode, delay, argv = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
p = subprocess.Popen(argv, stderr=subprocess.PIPE, start_new_session=True,
                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
time.sleep(delay)
if mode == "group":
    os.killpg(p.pid, signal.SIGINT)
else:
    os.kill(p.pid, signal.SIGINT)
err = p.stderr.read().decode()
print(err)
print("rc", p.wait())
PY
}

for mode in group one; do
	start=$(date +%s%N)
	sig_run $mode 0.3 "$EMBER" stat -e task-clock -- sleep 5 >"$TMP/o.txt"
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	check "sigint-$mode-counts-printed" grep -q 'msec task-clock' "$TMP/o.txt"
	expect_eq "sigint-$mode-status" "$(tail -1 "$TMP/o.txt")" "rc 130"
	if [ "$ms" -lt 4500 ]; then pass "sigint-$mode-command-stopped"; else
		fail "sigint-$mode-command-stopped" "took ${ms} ms"; fi
done

# A command that handles SIGINT decides the status.
sig_run one 1 "$EMBER" stat -e task-clock -- sh -c 'trap "exit 7" INT; sleep 5 & wait' \
	>"$TMP/o.txt"
expect_eq sigint-handled-status "$(tail -1 "$TMP/o.txt")" "rc 7"

if is_root; then
	# (1 s: a sanitized build on a loaded machine takes more than 0.3 s to reach
	# its handler, and a ^C before it kills it without a word)
	sig_run one 1 "$EMBER" stat -a -e cpu-clock >"$TMP/o.txt"
	check sigint-system-wide-counts grep -q "msec cpu-clock" "$TMP/o.txt"
	check sigint-system-wide-header grep -q "'system wide'" "$TMP/o.txt"
	# As perf stat: counts printed, then ember dies of the ^C (a shell sees 130).
	expect_eq sigint-system-wide-status "$(tail -1 "$TMP/o.txt")" "rc -2"

	sig_run one 0.35 "$EMBER" stat -I 100 -a -e cpu-clock >"$TMP/o.txt"
	n=$(grep -cE '^ +[0-9]+\.[0-9]{9} ' "$TMP/o.txt")
	if [ "$n" -ge 3 ]; then pass sigint-interval; else fail sigint-interval "$n intervals"; fi
fi

# --timeout ends the command and reports the counts; the status is 0, as perf's.
start=$(date +%s%N)
"$EMBER" stat --timeout 200 -e task-clock -- sleep 5 2>"$TMP/o.txt"
code=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
expect_eq timeout-status "$code" 0
check timeout-counts grep -q 'msec task-clock' "$TMP/o.txt"
if [ "$ms" -lt 2000 ]; then pass timeout-stops; else fail timeout-stops "took ${ms} ms"; fi

# -p: counting ends when the process does.
sleep 0.4 &
pid=$!
start=$(date +%s%N)
"$EMBER" stat -e task-clock -p "$pid" 2>"$TMP/o.txt"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
check pid-header grep -q "process id '$pid'" "$TMP/o.txt"
if [ "$ms" -lt 1500 ]; then pass pid-exit-ends-counting; else
	fail pid-exit-ends-counting "took ${ms} ms"; fi
if grep -q 'seconds user' "$TMP/o.txt"; then fail pid-no-rusage; else pass pid-no-rusage; fi

# -p with a command: the command bounds the time.
sleep 3 &
pid=$!
# the line names the comm: wait until the child is sleep, not the shell before its exec
for i in $(seq 100); do [ "$(cat /proc/$pid/comm 2>/dev/null)" = sleep ] && break; sleep 0.02; done
"$EMBER" stat --per-thread -e task-clock -p "$pid" -- sleep 0.2 2>"$TMP/o.txt"
if grep -qE "^ +sleep-$pid +" "$TMP/o.txt"; then pass per-thread-line; else
	fail per-thread-line "$(head -c 600 "$TMP/o.txt")"; fi
kill "$pid" 2>/dev/null
wait 2>/dev/null
exit 0
