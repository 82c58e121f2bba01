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

head -c 16M /dev/urandom >blob
# bounded: once here the 100 kHz sampling of a pinned run livelocked its cpu (bench/record.sh)
WORK="timeout 120 sha256sum blob blob"

# lost_lines FILE: the lines of a stderr that say what was lost ("Processed ...").
# perf report may add "N out of order events recorded" (a sample the kernel wrote a
# round late, on a slow run): that one perf record finds only by reading the file again.
lost_lines() { grep '^Processed ' "$1"; }

for tool in ember perf; do
	[ $tool = ember ] && bin=$EMBER || bin=$PERF
	if ! "$bin" record -g -F max -m 1 -o $tool.data -- sh -c "$WORK" >/dev/null \
		2>$tool.record.err; then
		fail "record-$tool" "$(tail -3 $tool.record.err)"
		continue
	fi
	# the same table as perf's, on either tool's file
	"$PERF" report --stats -i $tool.data >$tool.stats.perf 2>&1
	"$EMBER" report --stats -i $tool.data >$tool.stats.ember 2>&1
	if grep -q '^Aggregated stats:$' $tool.stats.perf &&
		cmp -s $tool.stats.perf $tool.stats.ember; then
		pass "stats-$tool-file"
	else
		fail "stats-$tool-file" "$(diff $tool.stats.perf $tool.stats.ember | head -8)"
	fi
	# report's warnings: what was lost, counted as perf counts it
	"$PERF" report --stdio -i $tool.data >/dev/null 2>$tool.report.perf
	"$EMBER" report --stdio -i $tool.data >/dev/null 2>$tool.report.ember
	expect_eq "report-warnings-$tool-file" "$(cat $tool.report.ember)" \
		"$(cat $tool.report.perf)"
done

if [ -s ember.data ]; then
	lost=$(grep -c 'LOST events' ember.stats.perf)
	# ember record's own warning is perf report's on the same file
	expect_eq record-warning "$(lost_lines ember.record.err)" \
		"$(lost_lines ember.report.perf)"
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
	"$PERF" report --stats -i z.data >z.stats.perf 2>&1
	"$EMBER" report --stats -i z.data >z.stats.ember 2>&1
	if grep -q 'COMPRESSED events' z.stats.perf && cmp -s z.stats.perf z.stats.ember; then
		pass stats-z
	else
		fail stats-z "$(diff z.stats.perf z.stats.ember | head -8)"
	fi
	"$PERF" report --stdio -i z.data >/dev/null 2>z.report.perf
	"$EMBER" report --stdio -i z.data >/dev/null 2>z.report.ember
	expect_eq report-warnings-z "$(cat z.report.ember)" "$(cat z.report.perf)"
	# as perf record -z: no warning at the end (perf's would count what it did not read)
	expect_eq record-z-no-warning "$(grep -c 'Warning' z.err)" 0
else
	fail record-z "$(tail -3 z.err)"
fi

# a pipe: --stats reads it from stdin as well
if "$EMBER" record -g -F 999 -o - -- sh -c "sha256sum blob" 2>/dev/null >p.data; then
	"$PERF" report --stats -i - <p.data >p.stats.perf 2>&1
	"$EMBER" report --stats -i - <p.data >p.stats.ember 2>&1
	if grep -q '^Aggregated stats:$' p.stats.perf && cmp -s p.stats.perf p.stats.ember; then
		pass stats-pipe
	else
		fail stats-pipe "$(diff p.stats.perf p.stats.ember | head -8)"
	fi
fi
