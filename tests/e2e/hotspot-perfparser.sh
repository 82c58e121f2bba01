#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A real client: hotspot's perfparser (Debian's hotspot package) reads an
# ember file exactly as it reads perf's file of the same workload, plain
# and -z: no error of its own, the same warnings, the same kinds of
# events out, every sample decoded with frames, and the perf version it
# parses from the header (6.1.0-ember-V: it trusts FINISHED_ROUND from
# 3.17 on). Its output stream (a QDataStream) is summarised by
# tests/tools/perfparser-summary.py.
. "$(dirname "$0")/../lib/e2e.sh"

PP=${PERFPARSER:-}
if [ -z "$PP" ]; then
	for p in /usr/lib/*/libexec/hotspot-perfparser /usr/libexec/hotspot-perfparser; do
		[ -x "$p" ] && PP=$p && break
	done
	[ -z "$PP" ] && PP=$(command -v hotspot-perfparser || true)
fi
if [ -z "$PP" ] || [ ! -x "$PP" ]; then
	skip setup "hotspot-perfparser is not installed (Debian: apt-get install hotspot)"
	exit 0
fi
if ! have_perf; then
	skip setup "perf is not installed"
	exit 0
fi
if ! command -v python3 >/dev/null; then
	skip setup "python3 is not installed (it decodes perfparser's output)"
	exit 0
fi
SUMMARY="$TOP/tests/tools/perfparser-summary.py"
cd "$TMP" || exit 1

# parse NAME: perfparser on NAME.data, its stream summarised into NAME.sum, its
# warnings into NAME.warn; the exit status. What differs between two recordings
# is made neutral there: the perf version named, and in perfparser's print of
# the COMPRESSED feature ("type mmap_len ratio level version") the ratio and
# the mmap_len (perf's ring buffer size; ember's largest decompressed record).
parse() {
	local rc
	"$PP" --input "$1.data" --output "$1.pp" 2>"$1.err"
	rc=$?
	python3 "$SUMMARY" "$1.pp" >"$1.sum" 2>&1
	sed -E -e 's/^Linux version ".*" detected/Linux version "V" detected/' \
		-e 's/^([0-9]+) [0-9]+ [0-9]+ ([0-9]+ [0-9]+)$/\1 LEN RATIO \2/' "$1.err" |
		sort -u >"$1.warn"
	return $rc
}

# samples_of FILE: how many samples perf itself finds in FILE.
samples_of() { "$PERF" script -i "$1" -F tid 2>/dev/null | wc -l; }

# compare NAME: perf's NAME-perf and ember's NAME-ember, each read by perfparser.
compare() {
	local name=$1 p=$1-perf e=$1-ember rp re
	parse "$p"; rp=$?
	parse "$e"; re=$?
	if [ $rp = 0 ] && [ $re = 0 ] && grep -qx 'stream ok' "$p.sum" &&
	   grep -qx 'stream ok' "$e.sum"; then
		pass "$name-read"
	else
		fail "$name-read" "exit $rp/$re: $(head -1 "$p.sum") / $(head -1 "$e.sum")"
	fi
	if cmp -s "$p.warn" "$e.warn"; then
		pass "$name-same-warnings"
	else
		fail "$name-same-warnings" "$(diff "$p.warn" "$e.warn" | head -6)"
	fi
	# the kinds of events perfparser sends, not how many (the runs differ)
	if diff <(awk '$1 == "type" { print $2 }' "$p.sum") \
		<(awk '$1 == "type" { print $2 }' "$e.sum") >"$name.types.diff"; then
		pass "$name-same-event-kinds"
	else
		fail "$name-same-event-kinds" "$(head -6 "$name.types.diff")"
	fi
}

# fp: frame-pointer callchains, plain data.
"$PERF" record -q -g -o fp-perf.data -- "$WL/hotloop" 300 >/dev/null 2>&1
"$EMBER" record -q -g -o fp-ember.data -- "$WL/hotloop" 300 >/dev/null 2>&1
compare fp
for who in perf ember; do
	want=$(samples_of "fp-$who.data")
	got=$(awk '$1 == "samples" { print $2 }' "fp-$who.sum")
	if [ "$want" -gt 0 ] && [ "$got" = "$want" ] &&
	   grep -qx 'samples-without-frames 0' "fp-$who.sum"; then
		pass "fp-$who-samples-decoded"
	else
		fail "fp-$who-samples-decoded" "perfparser $got, perf script $want samples"
	fi
done
# the header's version, parsed: perfparser buffers by FINISHED_ROUND from 3.17 on
v=$(awk '$1 == "version" { print $2 }' fp-ember.sum)
if grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+-ember-[0-9]' <<<"$v" &&
   grep -q "^Linux version \"$v\" detected. Switching to automatic buffering" fp-ember.err; then
	pass "version-parsed"
else
	fail "version-parsed" "version '$v': $(grep -i 'version\|buffering' fp-ember.err | head -2)"
fi

# z: -z, COMPRESSED records (perfparser decodes them when built with zstd).
"$PERF" record -q -z -g -o z-perf.data -- "$WL/hotloop" 300 >/dev/null 2>&1
"$EMBER" record -q -z -g -o z-ember.data -- "$WL/hotloop" 300 >/dev/null 2>&1
compare z
if grep -q 'unsupported compression' z-ember.err; then
	fail "z-compression-accepted" "$(grep 'unsupported compression' z-ember.err)"
else
	pass "z-compression-accepted"
fi
if grep -q 'zstd decompression support not available' z-perf.err; then
	# it stops at the COMPRESSED feature, for perf's file as for ours (compared above)
	skip "z-samples-decoded" "this hotspot-perfparser has no zstd: it decodes perf's -z file no further"
else
	for who in perf ember; do
		want=$(samples_of "z-$who.data")
		got=$(awk '$1 == "samples" { print $2 }' "z-$who.sum")
		if [ "$want" -gt 0 ] && [ "$got" = "$want" ]; then
			pass "z-$who-samples-decoded"
		else
			fail "z-$who-samples-decoded" "perfparser $got, perf script $want samples"
		fi
	done
fi
# Without zstd a reader still sees what perf leaves uncompressed: its own
# records (tasks, mmaps; ember's as perf's), read the same, as compared above.
