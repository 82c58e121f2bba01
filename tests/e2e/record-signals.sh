# SPDX-License-Identifier: GPL-2.0-only
# How an ember record ends: SIGINT, SIGTERM and SIGHUP leave a complete
# file perf reads without a warning (the command is stopped with SIGTERM,
# as perf does, and its status passed on); SIGKILL leaves a file perf still
# reads up to the last header sync; the command's exit status is ember's;
# a command that cannot start, an unknown event, a call-graph mode without
# the hardware for it and a full disk each get one clear line.
. "$(dirname "$0")/../lib/e2e.sh"

if ! have_perf; then
	skip setup "perf not installed"
	exit 0
fi
if [ ! -x "$EMBER" ] || [ ! -x "$WL/hotloop" ] || [ ! -x "$WL/exitcode" ]; then
	skip setup "no $EMBER or workloads; build first"
	exit 0
fi
cd "$TMP" || exit 1

top_sym() {
	"$PERF" report --stdio --no-children --sort sym -i "$1" 2>/dev/null |
		awk '/^ +[0-9.]+%/ { print $NF; exit }'
}

# env: SIGHUP as at a terminal, even when this runs under nohup
for sig in INT TERM HUP; do
	env --default-signal=HUP "$EMBER" record -q -g -o "s$sig.data" -- "$WL/hotloop" 10000 &
	p=$!
	sleep 0.7
	kill -"$sig" "$p"
	wait "$p"
	# The command got SIGTERM from ember: 128 + 15.
	expect_eq "sig$sig-exit" "$?" 143
	err=$("$PERF" report --stdio -i "s$sig.data" 2>&1 >/dev/null)
	if [ -z "$err" ]; then pass "sig$sig-complete"; else fail "sig$sig-complete" "$err"; fi
	expect_eq "sig$sig-top" "$(top_sym "s$sig.data")" "hot_a"
done

# Under nohup (SIGHUP ignored) a hang-up neither ends the recording nor
# reaches the command, as with perf: the command's own status, 0.
env --ignore-signal=HUP "$EMBER" record -q -o nohup.data -- "$WL/hotloop" 1200 &
p=$!
sleep 0.5
kill -HUP "$p"
wait "$p"
expect_eq nohup-exit "$?" 0
err=$("$PERF" report --stdio -i nohup.data 2>&1 >/dev/null)
if [ -z "$err" ]; then pass nohup-complete; else fail nohup-complete "$err"; fi
env --ignore-signal=HUP "$EMBER" record -q -o nohup2.data -- sh -c 'kill -HUP $$; exit 3'
expect_eq nohup-command-keeps-it "$?" 3

# SIGKILL: no chance to finish; the header's data size was synced while recording.
"$EMBER" record -q -g -o kill.data -- "$WL/hotloop" 4000 &
p=$!
sleep 2.5
kill -KILL "$p"
wait "$p" 2>/dev/null
sleep 1.6	# the orphaned command ends
expect_eq "sigkill-readable" "$(top_sym kill.data)" "hot_a"

# Exit status pass-through, and death by signal as a shell reports it.
"$EMBER" record -q -o e.data -- "$WL/exitcode" 7
expect_eq "exit-status" "$?" 7
"$EMBER" record -q -o e.data -- sh -c 'kill -SEGV $$'
expect_eq "exit-signal" "$?" 139

# A command that cannot be started: one line, 127, as a shell.
err=$("$EMBER" record -q -o e.data -- /nonexistent/command 2>&1)
rc=$?
expect_eq "missing-command-exit" "$rc" 127
expect_eq "missing-command-message" "$err" \
	"ember record: cannot run '/nonexistent/command': No such file or directory"

# An unknown event: usage error 2 with perf's pointer at the bad spot.
err=$("$EMBER" record -e nosuchevent -o e.data -- true 2>&1)
rc=$?
expect_eq "unknown-event-exit" "$rc" 2
if printf '%s\n' "$err" | grep -q "event syntax error: 'nosuchevent'"; then
	pass "unknown-event-message"
else
	fail "unknown-event-message" "$err"
fi

# --call-graph dwarf records user stacks as perf does: perf unwinds them.
"$EMBER" record -q --call-graph dwarf -o dw.data -- "$WL/hotloop" 200
expect_eq "dwarf-exit" "$?" 0
if "$PERF" report --stdio --children --sort sym -i dw.data 2>/dev/null | grep -q '\[\.\] main$'; then
	pass "dwarf-unwinds"
else
	fail "dwarf-unwinds" "perf report found no main in the unwound stacks"
fi
# ember's readers unwind them too (x86_64): no note from the recorder, no
# warning from report or script, and main in the unwound stacks.
err=$("$EMBER" record --call-graph dwarf -o dw2.data -- true 2>&1 >/dev/null)
if printf '%s\n' "$err" | grep -q 'unwind'; then
	fail "dwarf-record-no-note" "$err"
else
	pass "dwarf-record-no-note"
fi
err=$("$EMBER" script -i dw.data 2>&1 >/dev/null)
expect_eq "dwarf-script-no-warning" "$err" ""
if "$EMBER" report --stdio --children --sort sym -i dw.data 2>/dev/null | grep -q '\[\.\] main$'; then
	pass "dwarf-ember-unwinds"
else
	fail "dwarf-ember-unwinds" "ember report found no main in the unwound stacks"
fi
# lbr needs a PMU with LBR.
if have_hw_pmu; then
	skip "lbr" "this machine has a hardware PMU; the no-LBR message is not reachable"
else
	err=$("$EMBER" record --call-graph lbr -o e.data -- true 2>&1)
	rc=$?
	if [ "$rc" -eq 1 ] && printf '%s\n' "$err" | grep -q "doesn't support branch stack sampling"; then
		pass "lbr"
	else
		fail "lbr" "rc $rc: $err"
	fi
fi
err=$("$EMBER" record --call-graph nope -o e.data -- true 2>&1)
expect_eq "call-graph-unknown" "$?" 2

# A full disk: a clear line, exit 1, and what was written stays readable.
if is_root && mkdir small && mount -t tmpfs -o size=256k tmpfs small 2>/dev/null; then
	err=$("$EMBER" record -q -g -o small/full.data -- "$WL/hotloop" 5000 2>&1)
	rc=$?
	expect_eq "enospc-exit" "$rc" 1
	if printf '%s\n' "$err" | grep -q 'No space left on device'; then
		pass "enospc-message"
	else
		fail "enospc-message" "$err"
	fi
	expect_eq "enospc-readable" "$(top_sym small/full.data)" "hot_a"
	umount small
else
	skip "enospc" "cannot mount a small tmpfs (needs root)"
fi
