#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Decompression bombs: a real `record -z` file (and its pipe form) whose
# COMPRESSED records became zstd frames of RLE blocks, 60 KB that claim
# 1.9 GB each (tests/tools/make-bomb.py). Every reader decompresses into
# the ring buffer's size the header gives, as perf does: the record is
# refused with perf's words, in bounded memory (peak RSS measured), and
# the rest of the file is still read.
. "$(dirname "$0")/../lib/e2e.sh"
cd "$TMP" || exit 1
BOMB="$TOP/tests/tools/make-bomb.py"
LIMIT_KB=$((200 * 1024))	# the old reader reached 1.9 GB here

# peak KB COMMAND...: runs it (stdout and stderr to files), prints its peak RSS
peak() {
	python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=open("out", "wb"), stderr=open("err", "wb"), stdin=sys.stdin)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
}

"$EMBER" record -q -z -m 8 -F 2000 -g -o z.data "$WL/hotloop" 800 >/dev/null 2>&1
"$EMBER" record -q -z -m 8 -F 2000 -g -o - "$WL/hotloop" 400 >zpipe.data 2>/dev/null
python3 "$BOMB" z.data bomb.data
python3 "$BOMB" z.data bomb-first.data 15000 first
python3 "$BOMB" zpipe.data bomb-pipe.data
# each COMPRESSED record became 60 KB claiming 1.9 GB: the file stays small
nrz=$("$EMBER" report -i z.data --stats 2>/dev/null | awk '/COMPRESSED events:/ { print $3; exit }')
if [ "${nrz:-0}" -gt 0 ] && [ "$(stat -c %s bomb.data)" -lt $(((nrz + 2) * 65536)) ]; then
	pass bomb-made
else
	fail bomb-made "$nrz COMPRESSED records; $(ls -l bomb.data)"
fi

# bombed CMD NAME FILE [stdin]: bounded, and perf's line about the record
bombed() {
	local name=$1 file=$2 kb
	shift 2
	if [ "${1:-}" = stdin ]; then
		shift
		kb=$(peak "$@" <"$file")
	else
		kb=$(peak "$@")
	fi
	if [ "$kb" -lt $LIMIT_KB ] && grep -q '^failed to decompress (B): [0-9]* -> 0, dst_size [0-9]* : Destination buffer is too small$' err; then
		pass "$name"
	else
		fail "$name" "peak ${kb} KB; $(head -3 err)"
	fi
}
bombed report bomb.data "$EMBER" report -i bomb.data --stdio
bombed script bomb.data "$EMBER" script -i bomb.data
bombed flamegraph bomb.data "$EMBER" flamegraph -i bomb.data -o bomb.svg
bombed report-dump bomb.data "$EMBER" report -D -i bomb.data
bombed report-pipe bomb-pipe.data stdin "$EMBER" report -i - --stdio
bombed script-pipe bomb-pipe.data stdin "$EMBER" script -i -

# one bombed record: the others' samples are still there, as perf counts them
n=$("$EMBER" report -i bomb-first.data --stats 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }')
all=$("$EMBER" report -i z.data --stats 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }')
if [ "${n:-0}" -gt 0 ] && [ "$n" -lt "$all" ]; then
	pass rest-of-file-read
else
	fail rest-of-file-read "$n of $all samples"
fi
# (perf 6.1 processes the bombed record's first 512 KB of zeros as records,
# stops at "failed to process type: 0" and reads nothing after it)
# the file as recorded decodes whole: the bound is the ring buffer's, not smaller
if "$EMBER" report -i z.data --stdio >/dev/null 2>err && ! grep -q 'decompress' err; then
	pass honest-file-whole
else
	fail honest-file-whole "$(head -3 err)"
fi
