#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The session layer (<ember/session.h>): perf.data read as perf script reads
# it — records in time order, the machine fed, every sample and callchain
# entry named — checked against real perf script on the same files (perf's
# and ember's, file, pipe and -z), plus its counts, ownership and errors.
. "$(dirname "$0")/../lib/e2e.sh"

LIBA="$BUILD/libember.a"
HOT="$WL/hotloop"
if [ ! -f "$LIBA" ] || [ ! -x "$HOT" ]; then
	skip all "no $LIBA or $HOT (build first)"
	exit 0
fi
EXTRA_LIBS=
nm "$LIBA" 2>/dev/null | grep -q ' U cplus_demangle' && EXTRA_LIBS=-liberty
TOOL="$TMP/session-tool"
if ! cc -O1 -g -I"$TOP/include" -o "$TOOL" "$TOP/tests/tools/session-tool.c" "$LIBA" \
	$(pkg-config --libs libelf libdw libtraceevent 2>/dev/null || echo -lelf -ldw -ltraceevent) \
	$EXTRA_LIBS -lm 2>"$TMP/cc.err"; then
	fail build-tool "$(head -5 "$TMP/cc.err")"
	exit 0
fi
pass build-tool

if ! is_root || ! have_perf; then
	skip perf-compare "needs root and perf"
	exit 0
fi

# perf script's -F comm,tid,time,ip,sym,symoff,dso --ns with spaces squeezed
# and the ip column dropped (perf prints some map-relative, the tool raw).
norm() { sed -E 's/^\s+//; s/ +/ /g; s/ $//; s/^[0-9a-f]+ (.*\()/\t\1/'; }
compare() { # NAME FILE
	local n
	"$PERF" script -i "$2" -F comm,tid,time,ip,sym,symoff,dso --ns 2>/dev/null | norm >"$TMP/$1.perf"
	if ! "$TOOL" samples "$2" 2>"$TMP/$1.err" | norm >"$TMP/$1.ember"; then
		fail "$1" "$(head -3 "$TMP/$1.err")"
		return
	fi
	n=$(grep -c ':$' "$TMP/$1.perf")
	if [ "$n" -lt 10 ]; then
		fail "$1" "perf script shows only $n samples"
	elif diff -q "$TMP/$1.perf" "$TMP/$1.ember" >/dev/null; then
		pass "$1"
	else
		fail "$1" "$(diff "$TMP/$1.perf" "$TMP/$1.ember" | head -10)"
	fi
}

"$PERF" record -q -g -o "$TMP/perf.data" "$HOT" 60 >/dev/null 2>&1
compare perf-file "$TMP/perf.data"
"$PERF" record -q -g -o - "$HOT" 60 2>/dev/null >"$TMP/pipe.data"
compare perf-pipe "$TMP/pipe.data"
"$PERF" record -q -z -g -o "$TMP/z.data" "$HOT" 60 >/dev/null 2>&1
compare perf-zstd "$TMP/z.data"
"$EMBER" record -q -g -o "$TMP/ember.data" "$HOT" 60 >/dev/null 2>&1
compare ember-file "$TMP/ember.data"
# System-wide with kernel stacks: many CPUs' buffers, rounds, idle, init text.
"$PERF" record -q -a -g -o "$TMP/sys.data" sleep 0.5 >/dev/null 2>&1
compare perf-system-wide "$TMP/sys.data"
"$EMBER" record -q -a -g -o "$TMP/esys.data" sleep 0.5 >/dev/null 2>&1
compare ember-system-wide "$TMP/esys.data"

# Time order: every delivered sample is no older than the one before.
"$TOOL" order "$TMP/sys.data" | awk '$1 == 9 { if ($2 < last) bad++; last = $2 }
	END { exit bad > 0 }' && pass ordered || fail ordered "samples out of time order"

# Counts: the session's samples equal perf's, per event.
want=$("$PERF" script -i "$TMP/perf.data" -F tid 2>/dev/null | wc -l)
got=$("$TOOL" stats "$TMP/perf.data" | awk '/^samples/ { print $2 }')
expect_eq sample-count "$got" "$want"

# A file of another user is refused (perf: "not owned by current user or root").
cp "$TMP/perf.data" "$TMP/other.data"
chown 65534 "$TMP/other.data"
out=$("$TOOL" stats "$TMP/other.data" 2>&1) && fail not-owned "read it" ||
	{ grep -q "Operation not permitted" <<<"$out" && pass not-owned || fail not-owned "$out"; }
: >"$TMP/empty.data"
out=$("$TOOL" stats "$TMP/empty.data" 2>&1) && fail empty-file "read it" || pass empty-file

# Cut short: read up to the last whole record, with a warning.
size=$(stat -c %s "$TMP/ember.data")
head -c $((size * 2 / 3)) "$TMP/ember.data" >"$TMP/cut.data"
out=$("$TOOL" stats "$TMP/cut.data" 2>&1)
if grep -q "^truncated 1" <<<"$out" && grep -q "last whole record" <<<"$out"; then
	pass truncated
else
	fail truncated "$out"
fi
