#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# --call-graph dwarf files, perf's and ember's: both unwind the user stack
# copies, so each sample's chain is its kernel part and the unwound user
# frames, the same in script as perf's, in report -g (with --max-stack 1
# the whole output must agree, in callee and caller order) and in the
# flame graph, which puts no sample on a bare comm frame.
# Each unwound ip is one line per inline level, named as perf names them
# (addr2line's answers, assembly aliases included): line for line.
. "$(dirname "$0")/../lib/e2e.sh"

if ! have_perf; then
	skip setup "perf is not installed"
	exit 0
fi
if ! command -v python3 >/dev/null; then
	skip setup "python3 is not installed (it compares the chains)"
	exit 0
fi
CMP="$TOP/tests/tools/dwarf-compare.py"
cd "$TMP" || exit 1

# A long enough run that no ld.so start-up symbol (inlined code, named
# apart by perf) reaches report's 0.5 % callchain threshold.
"$PERF" record -q --call-graph dwarf,4096 -o perf.data -- "$WL/hotloop" 600 >/dev/null 2>&1
"$EMBER" record -q --call-graph dwarf,4096 -o ember.data -- "$WL/hotloop" 600 >/dev/null 2>&1

# compared NAME KIND PERF-OUT EMBER-OUT
compared() {
	local out
	if out=$(python3 "$CMP" "$2" "$3" "$4"); then
		pass "$1"
	else
		fail "$1" "$out"
	fi
}

for who in perf ember; do
	f=$who.data
	if [ ! -s "$f" ]; then
		fail "$who-recorded" "no $f"
		continue
	fi

	# script: every sample has its user ip, after its kernel frames
	"$PERF" script -i "$f" >"$who.perf-script" 2>/dev/null
	"$EMBER" script -i "$f" >"$who.ember-script" 2>/dev/null
	compared "$who-script-like-perf" script "$who.perf-script" "$who.ember-script"
	n=$(awk '/^[^\t]/ { if (hdr && !frames) n++; hdr = 1; frames = 0; next }
		 /^\t/ { frames++ } END { if (hdr && !frames) n++; print n + 0 }' "$who.ember-script")
	expect_eq "$who-script-no-frameless-sample" "$n" 0
	"$PERF" script --max-stack 1 -i "$f" >"$who.perf-script1" 2>/dev/null
	"$EMBER" script --max-stack 1 -i "$f" >"$who.ember-script1" 2>/dev/null
	compared "$who-script-max-stack-1" script "$who.perf-script1" "$who.ember-script1"

	# report: perf's unwinder takes --max-stack frames of its own, after the kernel's
	for order in callee caller; do
		"$PERF" report --stdio --no-children -g "folded,0,$order" --max-stack 1 -i "$f" \
			>"$who.perf-report-$order" 2>/dev/null
		"$EMBER" report --stdio --no-children -g "folded,0,$order" --max-stack 1 -i "$f" \
			>"$who.ember-report-$order" 2>/dev/null
		compared "$who-report-$order-like-perf" report "$who.perf-report-$order" \
			"$who.ember-report-$order"
	done

	# flame graph: the same stacks as folding ember's script, none on the bare comm
	"$EMBER" flamegraph -q --folded -i "$f" | sort >"$who.folded"
	"$EMBER" collapse "$who.ember-script" | sort >"$who.collapsed"
	if [ -s "$who.folded" ] && cmp -s "$who.folded" "$who.collapsed"; then
		pass "$who-flamegraph-as-script"
	else
		fail "$who-flamegraph-as-script" "$(diff "$who.folded" "$who.collapsed" | head -5)"
	fi
	bare=$(awk '$1 !~ /;/ { n += $NF } END { print n + 0 }' "$who.folded")
	expect_eq "$who-flamegraph-no-bare-comm" "$bare" 0
	# the weight under each of the workload's functions, as folding perf's script
	# cut to the sampled ip (--max-stack 1: perf's unwinder stops there) gives it
	"$PERF" script --max-stack 1 -i "$f" 2>/dev/null | "$EMBER" collapse >"$who.perf-folded1"
	"$EMBER" flamegraph -q --folded --max-stack 1 -i "$f" >"$who.folded1"
	under() { awk -v p="hotloop;$2" '{ split($1, a, ";") }
		a[1] ";" a[2] == p { n += $NF } END { print n + 0 }' "$1"; }
	for fn in hot_a hot_b; do
		want=$(under "$who.perf-folded1" $fn)
		if [ "$want" -gt 0 ] && [ "$(under "$who.folded1" $fn)" = "$want" ]; then
			pass "$who-flamegraph-$fn-like-perf"
		else
			fail "$who-flamegraph-$fn-like-perf" "$(under "$who.folded1" $fn), perf's $want"
		fi
	done
done

# Samples taken in execve or in a fault on a fresh stack page carry a stack
# dump the kernel could fill with nothing (dyn_size 0): perf's unwinder
# skips them, kernel frames only, and so must ember. A loop of execs has
# many such samples, so this does not wait for one to happen.
"$PERF" record -q --call-graph dwarf,4096 -o exec.data -- \
	sh -c 'for i in $(seq 200); do /bin/true; done' >/dev/null 2>&1
"$PERF" script -i exec.data >exec.perf-script 2>/dev/null
"$EMBER" script -i exec.data >exec.ember-script 2>/dev/null
# Where perf's unwinder (libunwind, its choice when built with both) and
# ember's (libdw) honestly differ: in the processes of an exec loop perf
# goes astray after a frame or two in many samples (frames of functions
# that do not call each other, 0xffffffffffffffff as the last "caller"),
# while the same binaries' stacks in a single process unwind alike (the
# comparisons above). So here the kernel part and the sampled user frame
# must be perf's, and ember's walks have no frame at -1 (libunwind's end of
# a walk that ran out of the copy, which dwarf-compare.py lets perf have).
"$PERF" script --max-stack 1 -i exec.data >exec.perf-script1 2>/dev/null
"$EMBER" script --max-stack 1 -i exec.data >exec.ember-script1 2>/dev/null
compared exec-script-like-perf script exec.perf-script1 exec.ember-script1
expect_eq exec-ember-no-frame-at-minus-1 "$(grep -c '^\s*ffffffffffffffff ' exec.ember-script)" 0
n=$(awk '/^[^\t]/ { if (hdr && !user) n++; hdr = 1; user = 0; next }
	 /^\t/ && $1 !~ /^ffffffff/ { user = 1 } END { if (hdr && !user) n++; print n + 0 }' \
	exec.perf-script)
# and report -D says of that dump what perf says: the bytes filled in
"$PERF" report -D -i exec.data >exec.perf-dump 2>/dev/null
"$EMBER" report -D -i exec.data >exec.ember-dump 2>/dev/null
if grep -q 'ustack: size 0,' exec.perf-dump && cmp -s exec.perf-dump exec.ember-dump; then
	pass exec-dump-like-perf
else
	fail exec-dump-like-perf "$(diff exec.perf-dump exec.ember-dump | head -4)"
fi
if [ "$n" -gt 0 ]; then
	pass exec-kernel-only-samples
else
	fail exec-kernel-only-samples "no sample without user frames in perf's script"
fi

# ember's own dwarf file is one perf unwinds (the recorder's side of it)
if "$PERF" report --stdio --no-children --sort sym -g caller -i ember.data 2>/dev/null |
	grep -q -- '---.*main'; then
	pass "ember-file-perf-unwinds"
else
	fail "ember-file-perf-unwinds" "perf report shows no main in ember.data's chains"
fi
