#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember script's errors and option handling: missing, empty, garbage and
# foreign files (one clear line, exit 1), bad -F lists (perf's message,
# exit 2), the old "-f FIELDS" form, and the field checks perf makes.
. "$(dirname "$0")/../lib/e2e.sh"

HOT="$WL/hotloop"
if [ ! -x "$EMBER" ] || [ ! -x "$HOT" ]; then
	skip all "no $EMBER or $HOT (build first)"
	exit 0
fi

# fails NAME WANT_STATUS PATTERN ARGS...: exits WANT_STATUS with one stderr line matching PATTERN
fails() {
	local name=$1 want=$2 pat=$3 st
	shift 3
	"$EMBER" script "$@" >"$TMP/out" 2>"$TMP/err"
	st=$?
	if [ "$st" != "$want" ]; then
		fail "$name" "exit $st, want $want: $(head -3 "$TMP/err")"
	elif [ "$(wc -l <"$TMP/err")" != 1 ] || ! grep -q -- "$pat" "$TMP/err"; then
		fail "$name" "stderr: $(head -3 "$TMP/err")"
	else
		pass "$name"
	fi
}

fails missing-file 1 "failed to open $TMP/none.data: No such file" -i "$TMP/none.data"
: >"$TMP/empty.data"
fails empty-file 1 "zero-sized data" -i "$TMP/empty.data"
head -c 4096 /dev/urandom >"$TMP/garbage.data"
fails garbage-file 1 "not a perf.data file" -i "$TMP/garbage.data"
fails garbage-pipe 1 "not a perf.data file" -i - <"$TMP/garbage.data"
fails script-name 2 "not supported" -i "$TMP/none.data" foo.py

if ! is_root; then
	skip recorded "needs root to record"
	exit 0
fi
"$EMBER" record -q -o "$TMP/e.data" "$HOT" 50 >/dev/null 2>&1
"$EMBER" record -q -e syscalls:sys_enter_write -o "$TMP/wr.data" "$WL/writes" 5 >/dev/null 2>&1

fails bad-field 2 "Invalid field requested" -i "$TMP/e.data" -F comm,foo
fails bad-type 2 "Invalid event type in field string" -i "$TMP/e.data" -F bogus:comm
fails empty-fields 2 "Cannot set fields to 'none'" -i "$TMP/e.data" -F ''
fails mixed-fields 2 "Cannot mix +-field with overridden fields" -i "$TMP/e.data" -F comm,+tid
fails typed-invalid 2 "'trace' not valid for software events" -i "$TMP/e.data" -F sw:trace
fails missing-cpu 1 "do not have CPU attribute set. Cannot print 'cpu' field" \
	-i "$TMP/e.data" -F +cpu
fails symoff-alone 1 "Display of offsets requested" -i "$TMP/e.data" -F ip,symoff
fails cpu-filter-no-cpu 1 "File does not contain CPU events" -i "$TMP/e.data" -C 0
fails bad-time 2 "Invalid time string" -i "$TMP/e.data" --time yesterday

# Not ours: refused as perf refuses it, read with -f.
cp "$TMP/e.data" "$TMP/other.data"
chown 65534 "$TMP/other.data"
fails not-owned 1 "File $TMP/other.data not owned by current user or root (use -f to override)" \
	-i "$TMP/other.data"
if "$EMBER" script -f -i "$TMP/other.data" 2>/dev/null | grep -q hot_; then
	pass force
else
	fail force "-f did not read the file"
fi

# "-f time,event,trace" (old notes) is taken as -F, with a note.
out=$("$EMBER" script -i "$TMP/wr.data" -f time,event,trace 2>"$TMP/err")
want=$("$EMBER" script -i "$TMP/wr.data" -F time,event,trace 2>/dev/null)
if [ "$out" = "$want" ] && [ -n "$out" ] && grep -q "as -F time,event,trace" "$TMP/err"; then
	pass old-f-fields
else
	fail old-f-fields "$(head -2 "$TMP/err")"
fi

# A truncated file: read up to its last whole record, with a warning, exit 0.
size=$(stat -c %s "$TMP/e.data")
head -c $((size * 2 / 3)) "$TMP/e.data" >"$TMP/cut.data"
if "$EMBER" script -i "$TMP/cut.data" >"$TMP/out" 2>"$TMP/err" && [ -s "$TMP/out" ] &&
	grep -q "last whole record" "$TMP/err"; then
	pass truncated
else
	fail truncated "$(head -3 "$TMP/err")"
fi

# --help answers with the usage
"$EMBER" script --help 2>&1 | grep -q "Usage: ember script" && pass help || fail help
