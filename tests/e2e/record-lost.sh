#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# What the kernel drops, said as perf says it: a one-page buffer at the top
# rate (-g -F max -m 1) loses records here. ember record warns about them
# as perf record does (from the counts it keeps, where perf reads the file
# again), with the same numbers perf report finds in the file; ember report
# warns as perf report does (also for -z, whose COMPRESSED records perf
# counts); ember report --stats prints perf's table.
. "$(dirname "$0")/../lib/e2e.sh"

if ! have_perf; then
	skip setup "perf is not installed"
	exit 0
fi
cd "$TMP" || exit 1

# 4 MB: enough to lose records at once; 16 MB took perf record past the
# 120 s bound once on a loaded VM (-F max and one page slow the command down)
head -c 4M /dev/urandom >blob
# bounded: once here the 100 kHz sampling of a pinned run livelocked its cpu (bench/record.sh)
WORK="timeout 120 sha256sum blob blob"

# lost_lines FILE: the lines of a stderr that say what was lost ("Processed ...").
# perf report may add "N out of order events recorded" (a sample the kernel wrote a
# round late, on a slow run): that one perf record finds only by reading the file again.
lost_lines() { grep '^Processed ' "$1"; }

# same_stats NAME PATTERN FILE [stdin]: report --stats of FILE (read from stdin
# with "stdin") prints perf's table, which holds a line matching PATTERN
same_stats() {
	local name=$1 pattern=$2 file=$3
	if [ "${4:-}" = stdin ]; then
		"$PERF" report --stats -i - <"$file" >"$name.perf" 2>&1
		"$EMBER" report --stats -i - <"$file" >"$name.ember" 2>&1
	else
		"$PERF" report --stats -i "$file" >"$name.perf" 2>&1
		"$EMBER" report --stats -i "$file" >"$name.ember" 2>&1
	fi
	if grep -q "$pattern" "$name.perf" && cmp -s "$name.perf" "$name.ember"; then
		pass "$name"
	else
		fail "$name" "$(diff "$name.perf" "$name.ember" | head -8)"
	fi
}
# same_warnings NAME FILE: report --stdio of FILE says on stderr what perf's says
same_warnings() {
	"$PERF" report --stdio -i "$2" >/dev/null 2>"$1.perf"
	"$EMBER" report --stdio -i "$2" >/dev/null 2>"$1.ember"
	expect_eq "$1" "$(cat "$1.ember")" "$(cat "$1.perf")"
}

for tool in ember perf; do
	[ $tool = ember ] && bin=$EMBER || bin=$PERF
	if ! "$bin" record -g -F max -m 1 -o $tool.data -- sh -c "$WORK" >/dev/null \
		2>$tool.record.err; then
		fail "record-$tool" "$(tail -3 $tool.record.err)"
		continue
	fi
	# the same table as perf's, on either tool's file
	same_stats "stats-$tool-file" '^Aggregated stats:$' $tool.data
	# report's warnings: what was lost, counted as perf counts it
	same_warnings "report-warnings-$tool-file" $tool.data
done

if [ -s ember.data ]; then
	lost=$(grep -c 'LOST events' stats-ember-file.perf)
	# ember record's own warning is perf report's on the same file
	expect_eq record-warning "$(lost_lines ember.record.err)" \
		"$(lost_lines report-warnings-ember-file.perf)"
	if [ "$lost" = 0 ]; then
		skip record-warning-shown "the kernel lost nothing this time: nothing to warn of"
	elif grep -q '^Processed [0-9]* events and lost [0-9]* chunks!$' ember.record.err; then
		pass record-warning-shown
	else
		fail record-warning-shown "$(cat ember.record.err)"
	fi
	# -q: not a word of it
	"$EMBER" record -q -g -F max -m 1 -o q.data -- sh -c "$WORK" >/dev/null 2>q.err
	expect_eq record-quiet "$(grep -c 'Warning' q.err)" 0
fi

# -z: perf counts each COMPRESSED record as well as the records inside it
if "$EMBER" record -z -g -F max -m 1 -o z.data -- sh -c "$WORK" >/dev/null 2>z.err; then
	same_stats stats-z 'COMPRESSED events' z.data
	same_warnings report-warnings-z z.data
	# as perf record -z: no warning at the end (perf's would count what it did not read)
	expect_eq record-z-no-warning "$(grep -c 'Warning' z.err)" 0
else
	fail record-z "$(tail -3 z.err)"
fi

# a pipe: --stats reads it from stdin as well
if "$EMBER" record -g -F 999 -o - -- sh -c "sha256sum blob" 2>/dev/null >p.data; then
	same_stats stats-pipe '^Aggregated stats:$' p.data stdin
fi

# Small buffers for the rate (record/warmup.h): the reader asks for a short time
# slice and polls without sleeping at the start; -v says so. The command keeps
# its own scheduling: its slice is the kernel's default, and ember's changes only
# when the buffers are small.
slice_of() { # FILE: the se.slice lines a command wrote, "ember" then "command"
	sed -n 's/^se\.slice *: *//p' "$1" | tr '\n' ' '
}
SLICES='grep se.slice /proc/$PPID/sched; grep se.slice /proc/self/sched'
"$EMBER" record -v -g -F max -m 1 -o w.data -- sh -c "$SLICES" >w.out 2>w.err
if [ "$(nproc)" -ge 2 ]; then
	want='the reader asks for a 100 us time slice and polls without sleeping for its first 20 ms'
else
	want='the reader asks for a 100 us time slice$'
fi
if grep -q "^a ring buffer holds about [0-9.]* ms of samples: $want" w.err; then
	pass warmup-verbose
else
	fail warmup-verbose "$(cat w.err)"
fi
"$EMBER" record -v -o d.data -- sh -c "$SLICES" >d.out 2>d.err
expect_eq warmup-not-for-big-buffers "$(grep -c 'time slice' d.err)" 0
read -r ember_small command_small < <(slice_of w.out)
read -r ember_default command_default < <(slice_of d.out)
if [ -z "$ember_small" ]; then
	skip warmup-slice "this kernel shows no se.slice in /proc/PID/sched"
elif [ "$ember_small" = 100000 ] && [ "$ember_default" != 100000 ] &&
	[ "$command_small" = "$command_default" ] && [ "$command_small" != 100000 ]; then
	pass warmup-slice
else
	fail warmup-slice "small buffers: ember $ember_small, command $command_small;" \
		"default: ember $ember_default, command $command_default"
fi
