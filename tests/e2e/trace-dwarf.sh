#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember trace --call-graph dwarf: each syscall's user stack unwound from
# the registers and stack copy taken at its exit. A workload built without
# frame pointers (tests/workloads/syscallchain.c, -O2 -fomit-frame-pointer
# here) writes through main -> outer -> inner -> write: dwarf finds that
# chain where frame pointers cannot; perf trace's frames for the same
# program, line for line; a command gone before its stacks are read; -p on
# a running process; SIZE (perf's bounds and messages); -s; trace record.
. "$(dirname "$0")/../lib/e2e.sh"

if ! is_root || ! have_tracefs; then
	skip setup "needs root and tracefs"
	exit 0
fi
if [ ! -x "$EMBER" ] || ! command -v cc >/dev/null; then
	skip setup "no $EMBER or no cc; build first"
	exit 0
fi
if ! "$EMBER" trace --call-graph dwarf -e exit_group -- true >/dev/null 2>"$TMP/bpf.txt"; then
	skip setup "ember trace cannot run here: $(head -1 "$TMP/bpf.txt")"
	exit 0
fi
cd "$TMP" || exit 1
if ! cc -O2 -g -fomit-frame-pointer -o syscallchain "$TOP/tests/workloads/syscallchain.c"; then
	fail build "cannot build the workload"
	exit 0
fi
WLP=$TMP/syscallchain

frames() { # FILE: the frame lines, "sym (dso)" without the indent
	sed -n 's/^ \{39\}\([^ ].*\)$/\1/p' "$1"
}
# The chain, in order and adjacent, in FILE's frames.
has_chain() {
	frames "$1" | grep -A2 -x "inner ($WLP)" | tr '\n' ';' |
		grep -q "^inner ($WLP);outer ($WLP);main ($WLP);"
}

# 1. the chain, under each of the three writes, from CFI alone; the command is gone by then
"$EMBER" trace --call-graph dwarf -e write -- "$WLP" 3 2>"$TMP/d.txt" >/dev/null
expect_eq dwarf-exit-status "$?" 0
expect_eq dwarf-three-writes "$(grep -c ' write(fd: 1' "$TMP/d.txt")" 3
check dwarf-finds-chain has_chain "$TMP/d.txt"
expect_eq dwarf-chain-each-write "$(frames "$TMP/d.txt" | grep -cx "inner ($WLP)")" 3
check dwarf-libc-frame grep -qE '^ {39}[^ ]*write \(/[^)]*libc\.so\.6\)$' "$TMP/d.txt"
# frame pointers cannot walk this binary: the test above means something
"$EMBER" trace --call-graph fp -e write -- "$WLP" 1 2>"$TMP/fp.txt" >/dev/null
if has_chain "$TMP/fp.txt"; then
	fail fp-misses-chain "frame pointers found the chain: the workload has them"
else
	pass fp-misses-chain
fi

# 2. perf trace's frames for the same program, line for line; the lines normalized
norm() { # FILE PID
	sed -E -e 's/^ +([0-9]+\.[0-9]+|\?) \( *([0-9]+\.[0-9]+ ms)? *\): /T (D): /' \
		-e "s/\\b$2\\b/PID/g" -e 's/0x[0-9a-f]+/0xH/g' -e 's/\) +=/) =/' "$1"
}
pid_of() { sed -n 's/^.* syscallchain\/\([0-9]*\) .*$/\1/p' "$1" | head -1; }
# Up to three runs of CMD... until FILE has frames: perf (and ember record) on a
# loaded machine now and then see none of a short command's events, whole runs.
until_frames() { # FILE CMD...
	local file=$1 i
	shift
	for i in 1 2 3; do
		"$@"
		[ "$(frames "$file" | wc -l)" -gt 0 ] && return 0
	done
	return 1
}
if have_perf; then
	until_frames "$TMP/p.txt" eval '"$PERF" trace --call-graph dwarf -e write -- "$WLP" 3 2>"$TMP/p.txt" >/dev/null'
	norm "$TMP/p.txt" "$(pid_of "$TMP/p.txt")" >"$TMP/p.n"
	norm "$TMP/d.txt" "$(pid_of "$TMP/d.txt")" >"$TMP/d.n"
	if has_chain "$TMP/p.txt" && diff "$TMP/p.n" "$TMP/d.n" >"$TMP/pd.diff"; then
		pass same-frames-as-perf
	else
		fail same-frames-as-perf "$(head -8 "$TMP/pd.diff")"
	fi
	# and for ls, every call: the frames of each call perf printed
	until_frames "$TMP/pls.txt" eval '"$PERF" trace --call-graph dwarf -e openat,read,close -- ls / 2>"$TMP/pls.txt" >/dev/null'
	"$EMBER" trace --call-graph dwarf -e openat,read,close -- ls / 2>"$TMP/els.txt" >/dev/null
	if grep -q LOST "$TMP/pls.txt"; then
		skip same-frames-as-perf-ls "perf lost events"
	elif [ "$(frames "$TMP/pls.txt" | wc -l)" -gt 10 ] && diff <(frames "$TMP/pls.txt") <(frames "$TMP/els.txt") \
		>"$TMP/ls.diff"; then
		pass same-frames-as-perf-ls
	else
		fail same-frames-as-perf-ls "$(head -8 "$TMP/ls.diff")"
	fi
else
	skip same-frames-as-perf "perf is not installed"
fi

# 3. -p on a running process: its maps from /proc
"$WLP" 1 --loop >/dev/null &
loop=$!
"$EMBER" trace --call-graph dwarf -p "$loop" -e write --max-events 2 2>"$TMP/pid.txt"
expect_eq pid-status "$?" 0
kill "$loop"
wait "$loop" 2>/dev/null
expect_eq pid-chain-each-write "$(frames "$TMP/pid.txt" | grep -cx "inner ($WLP)")" 2
check pid-finds-chain has_chain "$TMP/pid.txt"

# 4. SIZE: a smaller copy still holds the few frames above; perf's bounds and message
"$EMBER" trace --call-graph dwarf,1024 -e write -- "$WLP" 1 2>"$TMP/small.txt" >/dev/null
check small-copy-chain has_chain "$TMP/small.txt"
for bad in 0 65529 abc; do
	"$EMBER" trace --call-graph "dwarf,$bad" -e write -- "$WLP" 1 2>"$TMP/bad.txt" >/dev/null
	expect_eq "bad-size-$bad-status" "$?" 2
	check "bad-size-$bad-message" grep -qxF \
		"ember trace: callchain: Incorrect stack dump size (max 65528): $bad" "$TMP/bad.txt"
done
"$EMBER" trace --call-graph lbr -e write -- "$WLP" 1 2>"$TMP/lbr.txt" >/dev/null
expect_eq lbr-refused "$?" 2

# 5. -s: the summary, as without stacks
"$EMBER" trace -s --call-graph dwarf -e write -- "$WLP" 5 2>"$TMP/s.txt" >/dev/null
check summary-counts grep -qE '^ +write +5 +0 ' "$TMP/s.txt"
expect_eq summary-no-frames "$(frames "$TMP/s.txt" | wc -l)" 0

# 6. trace record: samples with user registers and stack copies, unwound by script
# each frame "ADDR SYM" on its line: the symbols of the chains, one line
record() {
	"$EMBER" trace record --call-graph dwarf -o "$TMP/rec.data" -- "$WLP" 1 >/dev/null \
		2>"$TMP/rec.err" || return 1
	"$EMBER" script -i "$TMP/rec.data" -F ip,sym 2>/dev/null | awk 'NF == 2 { print $2 }' |
		tr '\n' ' ' >"$TMP/rec.txt"
	grep -q ' inner outer main ' "$TMP/rec.txt"
}
check record-unwound eval 'record || record || record'
