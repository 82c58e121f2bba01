#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Hostile sizes: copies of a real recording (file and pipe form) where one
# size or count the file claims became huge (tests/tools/make-hostile.py):
# every feature section's nr or string length, attr_size, an attr's ids,
# many attrs sharing one ids section, a sample's callchain nr, the nr of
# ID_INDEX, THREAD_MAP, CPU_MAP, STAT_CONFIG records, the bytes after an
# AUXTRACE or TRACING_DATA record. report, script and report --header-only
# (and report -D for the records) each read what is sound or refuse the file with one line, in bounded
# memory (peak RSS measured) and time, never killed by a signal.
. "$(dirname "$0")/../lib/e2e.sh"
cd "$TMP" || exit 1
HOSTILE="$TOP/tests/tools/make-hostile.py"
LIMIT_KB=$((200 * 1024))
LIMIT_S=10	# main took over 60 s on attr-ids-shared, 24 s on attr-many

# run FILE [stdin] COMMAND...: stdout, stderr to files; prints "peak-KB rc seconds"
run() {
	python3 -c 'import resource, subprocess, sys, time
t = time.time()
try:
	rc = subprocess.run(sys.argv[1:], stdout=open("out", "wb"), stderr=open("err", "wb"),
			    stdin=sys.stdin, timeout=60).returncode
except subprocess.TimeoutExpired:
	rc = "timeout"
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, rc, int(time.time() - t))' "$@"
}
run_stream() { local f=$1; shift; cat "$f" | run "$@"; }

"$EMBER" record -q -g -F 2000 -o g.data "$WL/hotloop" 300 >/dev/null 2>&1
"$EMBER" record -q -g -F 2000 -o - "$WL/hotloop" 200 >p.data 2>/dev/null
mkdir cases
python3 "$HOSTILE" g.data cases >names || fail made "make-hostile.py g.data"
python3 "$HOSTILE" --pipe p.data cases >>names || fail made "make-hostile.py --pipe p.data"
n=$(wc -l <names)
if [ "$n" -ge 30 ]; then pass "made-$n-cases"; else fail made "only $n cases"; fi

# measure CMD...: kb, rc and s of one run; bounded: whether they are
measure() { read -r kb rc s <<<"$("$@")"; }
bounded() { [ "$rc" != timeout ] && [ "$rc" -lt 128 ] && [ "$kb" -lt $LIMIT_KB ] && [ "$s" -lt $LIMIT_S ]; }

# sound NAME CMD...: bounded, not signalled, and a refusal is one line
sound() {
	local name=$1
	shift
	measure "$@"
	if ! bounded; then
		fail "$name" "rc $rc, peak ${kb} KB, ${s} s; $(head -3 err)"
	elif [ "$rc" != 0 ] && [ "$(wc -l <err)" != 1 ]; then
		fail "$name" "rc $rc with $(wc -l <err) lines: $(head -3 err)"
	else
		pass "$name"
	fi
}
while read -r c; do
	cmds="report script header"
	case $c in *rec-*) cmds="$cmds dump" ;; esac	# the records printed one by one
	for cmd in $cmds; do
		case $cmd in
		report) args=(report --stdio) ;;
		script) args=(script) ;;
		header) args=(report --header-only) ;;
		dump) args=(report -D) ;;
		esac
		case $c in
		pipe-*) sound "$c-$cmd" run "$EMBER" "${args[@]}" -i - <"cases/$c.data"
			# the real thing: a stream, not a regular file on stdin
			sound "$c-$cmd-stream" run_stream "cases/$c.data" "$EMBER" "${args[@]}" -i - ;;
		*) sound "$c-$cmd" run "$EMBER" "${args[@]}" -i "cases/$c.data" ;;
		esac
	done
done <names

# the ones that must be refused, with their reason
"$EMBER" report --stdio -i cases/attr-ids-shared.data >/dev/null 2>err
if grep -q "the attrs' ids claim more than the file holds" err; then
	pass attr-ids-shared-refused
else
	fail attr-ids-shared-refused "$(head -3 err)"
fi
"$EMBER" report --stdio -i cases/attr-size.data >/dev/null 2>err
if grep -q "bad attr_size" err; then pass attr-size-refused; else fail attr-size-refused "$(head -3 err)"; fi
# a section that is broken is left out, the rest of the header still printed
"$EMBER" report --header-only -i cases/feat-cmdline.data >out 2>err
if grep -q '^# hostname : ' out && ! grep -q '^# cmdline : ' out; then
	pass feat-cmdline-left-out
else
	fail feat-cmdline-left-out "$(grep -c . out) lines; $(head -3 err)"
fi

# a decompression bomb whose COMPRESSED feature claims a 4 GB ring buffer:
# it decompresses into the reader's cap (64 MB), not into what it claims
"$EMBER" record -q -z -m 8 -F 2000 -g -o z.data "$WL/hotloop" 300 >/dev/null 2>&1
python3 "$TOP/tests/tools/make-bomb.py" z.data zbomb.data
mkdir zcases
python3 "$HOSTILE" zbomb.data zcases >/dev/null
for cmd in report script; do
	args=(report --stdio)
	[ $cmd = script ] && args=(script)
	measure run "$EMBER" "${args[@]}" -i zcases/feat-compressed.data
	if bounded && grep -q 'dst_size 67108864 : Destination buffer is too small$' err; then
		pass "feat-compressed-bomb-$cmd"
	else
		fail "feat-compressed-bomb-$cmd" "rc $rc, peak ${kb} KB, ${s} s; $(head -3 err)"
	fi
done
