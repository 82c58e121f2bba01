#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The cases a sweep of perf script's options over many recordings found
# different in ember script, each compared with real perf 6.1 on the same
# file: -F srcline (and --inline, --show-kernel-path), --per-event-dump's
# files and summary lines, -D's period of a fixed-period (-c) file, a
# pipe's --header-only and -C, lists naming an entry twice, -F tod without
# clock data (an error; "disabled" in a pipe), -D's THROTTLE, EXIT and
# round lines. (The broad comparisons: script.sh.)
. "$(dirname "$0")/../lib/e2e.sh"
. "$(dirname "$0")/../lib/script-lib.bash"

HOT="$WL/hotloop"
if [ ! -x "$EMBER" ] || [ ! -x "$HOT" ]; then
	skip all "no $EMBER or $HOT (build first)"
	exit 0
fi
if ! is_root || ! have_perf; then
	skip all "needs root and perf"
	exit 0
fi

# refused NAME FILE [OPTIONS...]: with FILE on standard input (OPTIONS
# name the input: -i FILE or -i -), both print nothing on stdout and the same
# message (ember's prefixed "ember script: "); ember exits 1 (perf's status
# for these varies: 255, or 0 for the list errors).
refused() {
	local name=$1 file=$2 ee pmsg emsg
	shift 2
	"$PERF" script "$@" >"$TMP/$name.perf" 2>"$TMP/$name.perf.err" <"$file"
	"$EMBER" script "$@" >"$TMP/$name.ember" 2>"$TMP/$name.ember.err" <"$file"
	ee=$?
	pmsg=$(grep -v '^$' "$TMP/$name.perf.err" | head -1)
	emsg=$(sed 's/^ember script: //' "$TMP/$name.ember.err")
	if [ "$ee" != 1 ] || [ -s "$TMP/$name.ember" ] || [ -s "$TMP/$name.perf" ]; then
		fail "$name" "ember exit $ee, stdout $(wc -c <"$TMP/$name.ember") bytes" \
			"(perf $(wc -c <"$TMP/$name.perf")): $emsg"
	elif [ -z "$pmsg" ] || [ "$pmsg" != "$emsg" ]; then
		fail "$name" "perf: '$pmsg', ember: '$emsg'"
	else
		pass "$name"
	fi
}

"$PERF" record -q -g -o "$TMP/pg.data" "$HOT" 100 >/dev/null 2>&1
"$EMBER" record -q -g -o "$TMP/eg.data" "$HOT" 100 >/dev/null 2>&1
"$PERF" record -q -c 10000 -o "$TMP/c.data" "$HOT" 20 >/dev/null 2>&1
"$PERF" record -q -e cpu-clock,task-clock -o "$TMP/two.data" "$HOT" 50 >/dev/null 2>&1
"$PERF" record -q -g -o - "$HOT" 20 2>/dev/null >"$TMP/pipe.data"
"$EMBER" record -q -g -o - "$HOT" 20 2>/dev/null >"$TMP/epipe.data"

# -F srcline: each frame's file:line, "[kernel.kallsyms][addr]" for the
# kernel. Only hot_a/hot_b samples: ld.so's start-up frames can sit in
# inlined code where addr2line's and libdw's file names differ.
same srcline-chain "$TMP/pg.data" -F ip,sym,dso,srcline -S hot_a,hot_b
same srcline-ember-file "$TMP/eg.data" -F ip,sym,dso,srcline -S hot_a,hot_b
same srcline-plus "$TMP/pg.data" -F +srcline -S hot_a,hot_b
same srcline-no-chain "$TMP/pg.data" -F +srcline -G -S hot_a,hot_b
# perf profiling itself: /usr/bin/perf has no line table, and perf stops
# asking addr2line about a dso after 123 failed lookups in a row from its
# first, printing "perf[addr]" even where it printed nothing before
(for i in $(seq 40); do ls / >/dev/null; sleep 0.02; done) &
"$PERF" record -q -a -g -o "$TMP/sys.data" sleep 1 >/dev/null 2>&1
wait
"$PERF" record -q -g -o "$TMP/self.data" "$PERF" script -i "$TMP/sys.data" >/dev/null 2>&1
same srcline-perf-self "$TMP/self.data" -F ip,sym,dso,srcline
# kernel samples, alone: perf dies of SIGPIPE at some memfd dsos' frames
same srcline-kernel "$TMP/sys.data" -F ip,sym,srcline -G --dsos '[kernel.kallsyms]'
same inline "$TMP/pg.data" --inline -S hot_a,hot_b
same show-kernel-path "$TMP/pg.data" --show-kernel-path

# --per-event-dump: stdout has the summary lines, the files the samples
mkdir -p "$TMP/pd" "$TMP/ed"
cp "$TMP/two.data" "$TMP/pd/two.data"
cp "$TMP/two.data" "$TMP/ed/two.data"
(cd "$TMP/pd" && "$PERF" script -i two.data --per-event-dump >stdout 2>/dev/null)
(cd "$TMP/ed" && "$EMBER" script -i two.data --per-event-dump >stdout 2>/dev/null)
diffs=""
for f in stdout two.data.cpu-clock.dump two.data.task-clock.dump; do
	[ -s "$TMP/pd/$f" ] && cmp -s "$TMP/pd/$f" "$TMP/ed/$f" || diffs="$diffs $f"
done
if [ -z "$diffs" ]; then pass per-event-dump; else fail per-event-dump "differ:$diffs"; fi

# -D without PERIOD in the samples: the attr's period, as perf
same dump-fixed-period "$TMP/c.data" -D

# -D with side-band lines: an EXIT's line comes before the record's
# "(pid:tid):(ppid:ptid)"; unsorted, rounds are "unhandled!", and with
# --show-round-events their line follows the record's on the same line
same dump-task-events "$TMP/pg.data" -D --show-task-events
same dump-unsorted "$TMP/pg.data" --dump-unsorted-raw-trace
same dump-round-events "$TMP/pg.data" -D --show-round-events

# THROTTLE records end without a newline in perf script -D (its handler
# prints nothing): one appended to a pipe file, whose records are a plain
# stream (time, id, stream id; then the sample_id of TID, TIME and ID).
python3 - "$TMP/pipe.data" "$TMP/throttle.data" <<'PY'
import struct, sys
t = 0x7fffffffffff0000
rec = struct.pack('<IHHQQQIIQQ', 5, 0, 56, t, 1, 1, 1, 1, t, 1)
open(sys.argv[2], 'wb').write(open(sys.argv[1], 'rb').read() + rec)
PY
"$PERF" script -i - -D <"$TMP/throttle.data" >"$TMP/throttle.perf" 2>/dev/null
"$EMBER" script -i - -D <"$TMP/throttle.data" >"$TMP/throttle.ember" 2>/dev/null
if grep -q PERF_RECORD_THROTTLE "$TMP/throttle.perf" &&
	cmp -s "$TMP/throttle.perf" "$TMP/throttle.ember"; then
	pass dump-throttle
else
	fail dump-throttle "$(diff "$TMP/throttle.perf" "$TMP/throttle.ember" | tail -4)"
fi

# pipes: --header-only is the banner alone; -C is refused (no cpu count yet)
for f in pipe epipe; do
	"$PERF" script -i - --header-only <"$TMP/$f.data" >"$TMP/$f.hdr.perf" 2>/dev/null
	"$EMBER" script -i - --header-only <"$TMP/$f.data" >"$TMP/$f.hdr.ember" 2>/dev/null
	if [ -s "$TMP/$f.hdr.perf" ] && cmp -s "$TMP/$f.hdr.perf" "$TMP/$f.hdr.ember"; then
		pass "$f-header-only"
	else
		fail "$f-header-only" "$(diff "$TMP/$f.hdr.perf" "$TMP/$f.hdr.ember" | head -4)"
	fi
	refused "$f-cpu-filter" "$TMP/$f.data" -i - -C 0
done

# a list naming an entry twice: perf's strlist refuses it, and prints nothing
refused dup-comm "$TMP/pg.data" -i "$TMP/pg.data" -c hotloop,hotloop
refused dup-pid "$TMP/pg.data" -i "$TMP/pg.data" --pid 1,1
refused dup-tid "$TMP/pg.data" -i "$TMP/pg.data" --tid 1,2,1
refused dup-dso "$TMP/pg.data" -i "$TMP/pg.data" --dsos libc.so.6,libc.so.6
refused dup-sym "$TMP/pg.data" -i "$TMP/pg.data" -S hot_a,hot_a
refused dup-stop-bt "$TMP/pg.data" -i "$TMP/pg.data" --stop-bt main,main

refused tod-no-clock "$TMP/pg.data" -i "$TMP/pg.data" -F +tod
# a pipe's clock data would come too late for the check: "disabled"
same_pipe() {
	local name=$1 file=$2
	shift 2
	"$PERF" script -i - "$@" <"$file" >"$TMP/$name.perf" 2>/dev/null
	"$EMBER" script -i - "$@" <"$file" >"$TMP/$name.ember" 2>"$TMP/$name.ember.err"
	if [ -s "$TMP/$name.perf" ] && cmp -s "$TMP/$name.perf" "$TMP/$name.ember"; then
		pass "$name"
	else
		fail "$name" "$(diff "$TMP/$name.perf" "$TMP/$name.ember" | head -6)"
	fi
}
same_pipe tod-pipe "$TMP/pipe.data" -F +tod
same_pipe tod-pipe-misc "$TMP/epipe.data" -F comm,tid,misc,tod,time -G
