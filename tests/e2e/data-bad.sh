#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Bad perf.data input for libember's reader: files perf recorded, truncated
# at many offsets, with bytes flipped, with size fields set to 0 and to
# huge values. Every run must end within 5 s with status 0 or 1 (a clear
# error), never a crash or a hang.
. "$(dirname "$0")/../lib/e2e.sh"

# Built from the sources with ASan and UBSan, so that a read out of bounds
# fails the test even when it does not crash; plain libember.a otherwise.
DT="$TMP/data-tool"
export ASAN_OPTIONS=abort_on_error=0:exitcode=99 UBSAN_OPTIONS=halt_on_error=1:exitcode=99
if cc -O1 -g -std=gnu11 -D_GNU_SOURCE -DEMBER_VERSION='"0"' -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined -I"$TOP/include" -I"$TOP/lib" -o "$DT" \
	"$TOP/tests/tools/data-tool.c" "$TOP"/lib/data/*.c "$TOP"/lib/core/*.c -lbpf 2>/dev/null; then
	pass build-data-tool-sanitized
elif cc -O1 -g -Wall -Werror -I"$TOP/include" -o "$DT" "$TOP/tests/tools/data-tool.c" \
	"$BUILD/libember.a" -lbpf 2>"$TMP/cc.err"; then
	skip build-data-tool-sanitized "no ASan here; plain build"
else
	fail build-data-tool "$(head -5 "$TMP/cc.err")"
	exit 0
fi
if ! have_perf; then
	skip bad-input "perf is not installed"
	exit 0
fi
cd "$TMP" || exit 1
"$PERF" record -e cpu-clock -F 999 -g -o file.data -- "$WL/hotloop" 100 >/dev/null 2>&1
"$PERF" record -e cpu-clock -F 999 -g -o - -- "$WL/hotloop" 100 2>/dev/null >pipe.data
"$PERF" record -z -e cpu-clock -F 999 -g -o zstd.data -- "$WL/hotloop" 100 >/dev/null 2>&1
for f in file pipe zstd; do
	[ -s $f.data ] || fail "record-$f" "perf record wrote nothing"
done

# run_all FILE: every command of the tool on FILE; prints the worst outcome.
run_all() {
	local worst=ok rc
	# check prints the header, then reads, decodes and dumps every record
	for cmd in check; do
		timeout 5 "$DT" $cmd "$1" >/dev/null 2>run.err
		rc=$?
		case $rc in
		0 | 1) ;;
		124) worst="hang in $cmd" ;;
		*) worst="status $rc in $cmd: $(head -2 run.err)" ;;
		esac
		# an error must say what it is about
		if [ $rc = 1 ] && ! grep -q . run.err; then
			worst="silent failure in $cmd"
		fi
	done
	echo "$worst"
}

# mutate SRC DST OFFSET HEXBYTES...: a copy of SRC with bytes overwritten at OFFSET
mutate() {
	local src=$1 dst=$2 off=$3
	shift 3
	cp "$src" "$dst"
	printf "$(printf '\\x%s' "$@")" | dd of="$dst" bs=1 seek="$off" conv=notrunc status=none
}

for f in file pipe zstd; do
	[ -s $f.data ] || continue
	size=$(stat -c %s $f.data)
	bad=""
	# truncated: every byte of the first 104 (the header), every 7th to 600,
	# then 30 cuts over the rest
	offsets=$(seq 0 103; seq 104 7 599; seq 600 $(((size - 600) / 30 + 1)) "$size")
	for off in $offsets; do
		head -c "$off" $f.data >cut.data
		res=$(run_all cut.data)
		[ "$res" = ok ] || { bad="cut at $off: $res"; break; }
	done
	[ -z "$bad" ] && pass "$f-truncated" || fail "$f-truncated" "$bad"

	# a whole-record cut is reported as truncated, with the samples before it
	head -c $((size * 2 / 3)) $f.data >cut.data
	out=$(timeout 5 "$DT" count cut.data 2>&1)
	if [ $f = pipe ] || [ $f = zstd ]; then
		pass "$f-truncated-flag"	# the cut may fall between records or inside a frame
	elif grep -q '^truncated 1$' <<<"$out"; then
		pass "$f-truncated-flag"
	else
		fail "$f-truncated-flag" "$out"
	fi

	# the commands on cuts over the whole file: a cut that keeps whole
	# samples is reported (status 0, the samples shown), one that keeps
	# none fails with one line naming the file (issue 5)
	if [ -x "$EMBER" ]; then
		bad=""
		: >kallsyms
		for off in $(seq 16 $(((size - 16) / 25 + 1)) "$size"); do
			head -c "$off" $f.data >cut.data
			n=$(timeout 5 "$DT" samples cut.data 2>/dev/null | sed -n 's/^samples //p')
			timeout 20 "$EMBER" report --stdio --kallsyms kallsyms -i cut.data >rep.out 2>rep.err
			rc=$?
			if [ "${n:-0}" != 0 ]; then
				{ [ $rc = 0 ] && grep -q '%' rep.out; } ||
					bad="$bad cut at $off ($n samples): status $rc, $(head -c 120 rep.err);"
			elif [ $rc != 1 ] || [ "$(wc -l <rep.err)" != 1 ] || ! grep -q 'cut.data' rep.err; then
				bad="$bad cut at $off (no sample): status $rc, $(head -c 120 rep.err);"
			fi
		done
		[ -z "$bad" ] && pass "$f-cuts-report" || fail "$f-cuts-report" "$bad"
	fi

	# flipped bytes at pseudo-random places (fixed seed: reproducible)
	bad=""
	RANDOM=42
	for i in $(seq 1 60); do
		off=$(((RANDOM * 32768 + RANDOM) % size))
		mutate $f.data flip.data "$off" "$(printf '%02x' $((RANDOM % 256)))"
		res=$(run_all flip.data)
		[ "$res" = ok ] || { bad="byte at $off: $res"; break; }
	done
	[ -z "$bad" ] && pass "$f-flipped-bytes" || fail "$f-flipped-bytes" "$bad"
done

# header fields of a file-mode file: sizes and offsets set to 0 and to huge values
if [ -s file.data ]; then
	bad=""
	for field in 8 16 24 32 40 48 56 64; do
		for val in "00 00 00 00 00 00 00 00" "ff ff ff ff ff ff ff 7f" "00 00 00 00 00 01 00 00"; do
			# shellcheck disable=SC2086
			mutate file.data hdr.data "$field" $val
			res=$(run_all hdr.data)
			[ "$res" = ok ] || bad="$bad field $field=$val: $res;"
		done
	done
	[ -z "$bad" ] && pass header-fields-zero-and-huge || fail header-fields-zero-and-huge "$bad"

	# the size of the first record set to 0, then to 4: an error, not a loop
	data_off=$(od -An -t u8 -j 40 -N 8 file.data | tr -d ' ')
	for val in "00 00" "04 00"; do
		# shellcheck disable=SC2086
		mutate file.data rec0.data $((data_off + 6)) $val
		timeout 5 "$DT" count rec0.data >rec0.out 2>&1
		rc=$?
		if [ $rc = 1 ] && grep -q 'error Invalid argument' rec0.out; then
			pass "record-size-${val// /}-is-an-error"
		else
			fail "record-size-${val// /}-is-an-error" "status $rc: $(tail -2 rec0.out)"
		fi
	done

	# the other endianness: refused with a clear message
	cp file.data swapped.data
	printf '2ELIFREP' | dd of=swapped.data bs=1 conv=notrunc status=none
	err=$(timeout 5 "$DT" count swapped.data 2>&1)
	rc=$?
	if [ $rc = 1 ] && grep -q 'endianness' <<<"$err"; then
		pass other-endianness-refused
	else
		fail other-endianness-refused "status $rc: $err"
	fi

	printf 'not a perf.data file at all\n' >garbage.data
	err=$(timeout 5 "$DT" count garbage.data 2>&1)
	rc=$?
	if [ $rc = 1 ] && grep -q 'Invalid argument' <<<"$err"; then
		pass garbage-refused
	else
		fail garbage-refused "status $rc: $err"
	fi
	: >empty.data
	err=$(timeout 5 "$DT" count empty.data 2>&1)
	[ $? = 1 ] && pass empty-file-refused || fail empty-file-refused "$err"
fi
