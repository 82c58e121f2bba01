#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# --call-graph dwarf stacks through JIT code: tests/workloads/jitloop.c
# writes two functions into anonymous memory and names them in
# /tmp/perf-PID.map. A sample in generated code is that one frame (no CFI
# there, the walk cannot start); a sample in the C helper the generated
# code calls unwinds to the generated frame and stops there. Both named
# from the map, as perf names them: perf's recording and ember's, script
# line for line, and the flame graph's stacks.
. "$(dirname "$0")/../lib/e2e.sh"

dwarf_suite_needs python3 cc || exit 0
CMP="$TOP/tests/tools/dwarf-compare.py"
cd "$TMP" || exit 1
if ! cc -O2 -g -fomit-frame-pointer -o jitloop "$TOP/tests/workloads/jitloop.c" 2>cc.err; then
	fail build "$(head -1 cc.err)"
	exit 0
fi
maps=()

# by: RECORDER NAME: records jitloop with RECORDER, checks NAME's script and folded stacks
by() {
	local rec=$1 name=$2 map rc
	"$rec" record -q --call-graph dwarf -F 999 -o "$name.data" ./jitloop 400 >"$name.out" 2>&1
	rc=$?
	map=$(tail -1 "$name.out")
	[ -n "$map" ] && maps+=("$map")
	if [ $rc -eq 2 ]; then
		skip "$name" "jitloop cannot run here: $(head -1 "$name.out")"
		return
	fi
	"$PERF" script -i "$name.data" >"$name.perf" 2>/dev/null
	"$EMBER" script -i "$name.data" >"$name.ember" 2>"$name.err"
	if out=$(python3 "$CMP" script "$name.perf" "$name.ember"); then
		pass "$name-script-like-perf"
	else
		fail "$name-script-like-perf" "$out"
	fi
	# both kinds of sample are there, named from the map
	spin=$(grep -c "jit_spin+0x[0-9a-f]* (/tmp/perf-[0-9]*\.map)" "$name.ember")
	under=$(awk '/ helper\+0x/ { h = 1; next } h && /jit_call_helper\+0x/ { n++ } { h = 0 }
		     END { print n + 0 }' "$name.ember")
	if [ "$spin" -gt 0 ] && [ "$under" -gt 0 ]; then
		pass "$name-jit-frames-named"
	else
		fail "$name-jit-frames-named" "$spin samples in jit_spin, $under in helper under jit_call_helper"
	fi
	# the walk stops at generated code: no caller above it in the folded
	# stacks either (each such stack starts comm;jit_...)
	"$EMBER" flamegraph -q --folded -i "$name.data" >"$name.folded" 2>/dev/null
	if grep -q '^jitloop;jit_call_helper;helper ' "$name.folded" &&
		grep -q '^jitloop;jit_spin ' "$name.folded" &&
		! grep -v '^jitloop;jit_' "$name.folded" | grep -q ';jit_'; then
		pass "$name-folded-stops-at-jit"
	else
		fail "$name-folded-stops-at-jit" "$(head -3 "$name.folded")"
	fi
}
by "$PERF" perf
by "$EMBER" ember
rm -f "${maps[@]}"
