#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember script on samples lacking fields, against perf script: a recording
# rewritten (tests/broken/mixed-sample-type.py) so that one event's
# samples carry no TID and no CPU. perf shows those samples as thread -1
# (":-1", pid and tid -1) on cpu -1; the other event's as recorded.
# Symbols are left out: perf resolves no kernel address of this rewritten
# file, which is not the question here.
. "$(dirname "$0")/../lib/e2e.sh"

if ! have_perf; then
	skip setup "perf is not installed"
	exit 0
fi
if ! command -v python3 >/dev/null; then
	skip setup "python3 is needed to rewrite the recording"
	exit 0
fi
cd "$TMP" || exit 1

if ! "$PERF" record -q -e cpu-clock -e page-faults --sample-cpu -o mix.data \
	-- "$WL/hotloop" 20 >/dev/null 2>rec.err; then
	fail record "$(tail -3 rec.err)"
	exit 0
fi
if ! python3 "$TOP/tests/broken/mixed-sample-type.py" mix.data absent.data 2>py.err; then
	skip rewrite "cannot rewrite the recording: $(head -c 200 py.err)"
	exit 0
fi

n=0
for f in comm,pid,tid,cpu,time,period,event,ip comm,tid,cpu comm,pid,ip tid; do
	n=$((n + 1))
	"$PERF" script -i absent.data -F "$f" >"perf.$n" 2>/dev/null
	"$EMBER" script -i absent.data -F "$f" >"ember.$n" 2>"err.$n"
	if ! grep -q -- '-1' "perf.$n"; then
		fail "fields-$f" "perf shows no sample without a TID"
	elif cmp -s "perf.$n" "ember.$n"; then
		pass "fields-$f"
	else
		fail "fields-$f" "$(diff "perf.$n" "ember.$n" | head -8; head -3 "err.$n")"
	fi
done
# the default layout, up to the symbols
"$PERF" script -i absent.data 2>/dev/null | awk '{ print $1, $2, $3, $4, $5, $6 }' >perf.d
"$EMBER" script -i absent.data 2>err.d | awk '{ print $1, $2, $3, $4, $5, $6 }' >ember.d
if [ -s perf.d ] && cmp -s perf.d ember.d; then
	pass default
else
	fail default "$(diff perf.d ember.d | head -8; head -3 err.d)"
fi
