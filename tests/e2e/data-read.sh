#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# libember's perf.data reader on files real perf records here (file, pipe,
# -z, tracepoints): record counts, header text and -D dumps must match what
# perf itself prints for the same file; and it must be much faster than perf.
. "$(dirname "$0")/../lib/e2e.sh"

DT="$TMP/data-tool"
if ! cc -O2 -Wall -Werror -I"$TOP/include" -o "$DT" "$TOP/tests/tools/data-tool.c" \
	"$BUILD/libember.a" -lbpf 2>"$TMP/cc.err"; then
	fail build-data-tool "$(head -5 "$TMP/cc.err")"
	exit 0
fi
pass build-data-tool
if ! have_perf; then
	skip record "perf is not installed"
	exit 0
fi

cd "$TMP" || exit 1
files=()
rec() { # NAME PERF-RECORD-ARGS...: records NAME.data; stdout of perf is the file for "-o -"
	local name=$1
	shift
	if "$PERF" record "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"; then
		[ -s "$TMP/$name.out" ] && mv "$TMP/$name.out" "$TMP/$name.data"
		files+=("$name")
		pass "record-$name"
	else
		fail "record-$name" "$(tail -3 "$TMP/$name.err")"
	fi
}
rec file -e cpu-clock -F 999 -g -o file.data -- "$WL/hotloop" 200
rec pipe -e cpu-clock -F 999 -g -o - -- "$WL/hotloop" 200
rec zstd -z -e cpu-clock -F 999 -g -o zstd.data -- "$WL/hotloop" 200
# pipe mode with HEADER_BUILD_ID records, as perf inject -b adds them
if "$PERF" record -e cpu-clock -F 999 -g -o - -- "$WL/hotloop" 200 2>/dev/null |
	"$PERF" inject -b >inject.data 2>inject.err && [ -s inject.data ]; then
	files+=(inject)
	pass record-inject
else
	fail record-inject "$(tail -3 inject.err)"
fi
if is_root && have_tracefs; then
	rec tp -e sched:sched_switch -a -o tp.data -- sleep 0.2
	rec tppipe -e sched:sched_switch -a -o - -- sleep 0.2
else
	skip record-tp "tracepoints need root and tracefs"
fi

# The -D dump as a multiset of record blocks: perf sorts records by time and
# adds session lines (thread, dso) that are not the reader's business.
blocks() { # FILE [script]: with "script", the script's own lines for a sample are dropped
	python3 - "$@" <<'EOF'
import re, sys
script = len(sys.argv) > 2
out, cur = [], None
for l in open(sys.argv[1], errors='replace').read().split('\n'):
    if l.startswith('Aggregated stats:'):
        break
    # a record starts at its "OFFSET@FILE [SIZE]: event: TYPE" line
    if re.match(r'^(0x[0-9a-f]+|0)@\S* \[0x[0-9a-f]+\]: event: ', l):
        cur = [l]
        out.append(cur)
    elif cur is not None and l and not l.startswith((' ... thread:', ' ...... dso:')):
        if script and not re.match(r'^(\.|0x|[0-9]|-1|:| \.\.\.)', l):
            continue
        cur.append(l)
print('\n\n'.join(sorted('\n'.join(b) for b in out)))
EOF
}

for f in "${files[@]}"; do
	d=$f.data
	"$PERF" report -i "$d" -D >"$f.perf-D" 2>/dev/null
	"$DT" count "$d" >"$f.count" 2>"$f.count-err"
	for t in SAMPLE MMAP2 COMM MMAP FORK EXIT; do
		want=$(grep -c "PERF_RECORD_$t[ (:]" "$f.perf-D")
		got=$(awk -v t="$t" '$1 == t { print $2 }' "$f.count")
		expect_eq "$f-count-$t" "${got:-0}" "$want"
	done
	expect_eq "$f-not-truncated" "$(awk '$1 == "truncated" { print $2 }' "$f.count")" 0
	expect_eq "$f-no-unknown" "$(awk '$1 == "unknown" { print $2 }' "$f.count")" 0

	out=$("$DT" samples "$d" 2>&1)
	if grep -q '^bad 0$' <<<"$out" && grep -q '^noattr 0$' <<<"$out"; then
		pass "$f-samples-parse"
	else
		fail "$f-samples-parse" "$out"
	fi

	for full in "" -I; do
		"$PERF" report -i "$d" --header-only $full >"$f.perf-h" 2>&1
		"$DT" header "$d" $full >"$f.ember-h" 2>&1
		if diff -u "$f.perf-h" "$f.ember-h" >"$f.hdiff"; then
			pass "$f-header$full"
		else
			fail "$f-header$full" "$(head -8 "$f.hdiff")"
		fi
	done

	if command -v python3 >/dev/null; then
		"$DT" dump "$d" >"$f.ember-D" 2>&1
		blocks "$f.perf-D" >"$f.perf-B"
		blocks "$f.ember-D" >"$f.ember-B"
		if [ -s "$f.perf-B" ] && diff -u "$f.perf-B" "$f.ember-B" >"$f.ddiff"; then
			pass "$f-dump"
		else
			fail "$f-dump" "$(head -12 "$f.ddiff")"
		fi
		"$PERF" script -i "$d" -D >"$f.perf-sD" 2>/dev/null
		"$DT" dump "$d" --script >"$f.ember-sD" 2>&1
		blocks "$f.perf-sD" script >"$f.perf-sB"
		blocks "$f.ember-sD" script >"$f.ember-sB"
		if [ -s "$f.perf-sB" ] && diff -u "$f.perf-sB" "$f.ember-sB" >"$f.sdiff"; then
			pass "$f-dump-script"
		else
			fail "$f-dump-script" "$(head -12 "$f.sdiff")"
		fi
	else
		skip "$f-dump" "python3 is not installed"
	fi
done

# Standard input: a pipe-format stream, and a file-format file that cannot be mmap'ed.
if [ -f file.data ] && [ -f pipe.data ]; then
	a=$("$DT" count file.data | grep -v '^pipe')
	b=$(cat file.data | "$DT" count - | grep -v '^pipe')
	expect_eq stdin-file-format "$b" "$a"
	a=$("$DT" count pipe.data)
	b=$(cat pipe.data | "$DT" count -)
	expect_eq stdin-pipe-format "$b" "$a"
	n=$("$PERF" record -e cpu-clock -F 999 -o - -- "$WL/hotloop" 100 2>/dev/null |
		"$DT" count - | awk '$1 == "SAMPLE" { print $2 }')
	if [ "${n:-0}" -gt 0 ]; then pass live-pipe; else fail live-pipe "no samples read"; fi
fi

# Speed against perf report is measured by bench/, never asserted here.
