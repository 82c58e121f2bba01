#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs libFuzzer targets built by `make fuzzers` (see doc/FUZZING.md).
#   fuzz/run.sh NAME...           each target for FUZZ_TIME seconds (default 60)
#   fuzz/run.sh --merge NAME...   fold $FUZZ_BUILD/corpus/NAME into fuzz/corpus/NAME, minimized,
#                                 new inputs up to FUZZ_KEEP_MAX bytes (default 1024)
# Seeds are fuzz/corpus/NAME; new inputs go to $FUZZ_BUILD/corpus/NAME, crashes, leaks,
# timeouts and out-of-memory inputs to fuzz/crashes/NAME/ (the name says which). Prints
# one line per target with the executions run; exits 1 when any target found something.
set -u
cd "$(dirname "$0")/.."
FUZZ_BUILD=${FUZZ_BUILD:-build/libfuzzer}
FUZZ_TIME=${FUZZ_TIME:-60}
FUZZ_KEEP_MAX=${FUZZ_KEEP_MAX:-1024}	# --merge keeps new inputs up to this many bytes
merge=0
if [ "${1:-}" = --merge ]; then
	merge=1
	shift
fi
# A run's memory and time limits: one allocation of more than 256 MB is a finding (an
# input's claimed size trusted: bound it by the bytes there), so is 1 GB resident (ASan's
# quarantine and shadow included) or 10 s for one input.
opts=(-rss_limit_mb=1024 -malloc_limit_mb=256 -timeout=10 -max_len=65536 -print_final_stats=1)
status=0
for name in "$@"; do
	bin=$FUZZ_BUILD/fuzz-$name
	if [ ! -x "$bin" ]; then
		echo "fuzz: $bin is not built (make fuzzers)" >&2
		status=1
		continue
	fi
	mkdir -p "$FUZZ_BUILD/corpus/$name" "fuzz/corpus/$name" "fuzz/crashes/$name"
	dict=()
	[ -f "fuzz/$name.dict" ] && dict=(-dict="fuzz/$name.dict")
	log=$FUZZ_BUILD/fuzz-$name.log
	if [ $merge = 1 ]; then
		# minimize into a scratch dir, then keep only the small new inputs: the committed
		# corpora stay a few hundred KB, so that make check replays them in seconds
		tmp=$FUZZ_BUILD/merge/$name
		rm -rf "$tmp"
		mkdir -p "$tmp"
		cp "fuzz/corpus/$name"/* "$tmp"/ 2>/dev/null
		"$bin" "${opts[@]}" "${dict[@]}" -merge=1 "$tmp" "$FUZZ_BUILD/corpus/$name" >"$log" 2>&1
		find "$tmp" -type f -size -$((FUZZ_KEEP_MAX + 1))c -exec cp -n {} "fuzz/corpus/$name"/ \;
		echo "fuzz $name: merged, corpus now $(ls "fuzz/corpus/$name" | wc -l) files," \
			"$(du -sb "fuzz/corpus/$name" | cut -f1) bytes"
		continue
	fi
	start=$(date +%s)
	# the outer timeout only catches a fuzzer that stops answering
	timeout -k 10 $((FUZZ_TIME + 120)) "$bin" "${opts[@]}" "${dict[@]}" \
		-max_total_time="$FUZZ_TIME" -artifact_prefix="fuzz/crashes/$name/" \
		"$FUZZ_BUILD/corpus/$name" "fuzz/corpus/$name" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	secs=$(($(date +%s) - start))
	if [ $rc = 0 ]; then
		echo "fuzz $name: ${execs:-?} executions in ${secs} s, nothing found"
	else
		status=1
		echo "fuzz $name: FOUND something after ${execs:-?} executions (status $rc):"
		grep -m3 -E 'ERROR|SUMMARY|Test unit written' "$log" | sed 's/^/    /'
		echo "    full log: $log"
	fi
done
exit $status
