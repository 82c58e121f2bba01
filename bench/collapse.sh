#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember collapse on a large perf script text (see bench/run.sh for the output).
# stackcollapse-perf.pl is not installed here, so the comparison is with
# `perf script` alone, the stage every pipeline pays for anyway:
#   collapse-added     wall time of `perf script | ember collapse` against
#                      `perf script > /dev/null` on the same perf.data
#                      (median of 3): the added cost of folding
#   collapse-only      ember collapse alone on the saved text against perf
#                      script writing it (median of 3), with MB/s logged
set -u
. "$(dirname "$0")/lib.bash"
bench_init collapse
TMP=$(mktemp -d /tmp/ember-bench-collapse.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

sec() { echo "scale=6; $1 / 1000000000" | bc; }

# Hundreds of thousands of samples with deep kernel and user stacks:
# every cpu at the kernel's top rate while a shell loop forks and writes.
"$PERF" record -q -a -g -F 20000 -o "$TMP/perf.data" -- \
	sh -c 'end=$(($(date +%s) + 8)); while [ $(date +%s) -lt $end ]; do
		sha256sum /bin/sh >/dev/null; ls /usr/lib >/dev/null; done' >/dev/null 2>&1
"$PERF" script -i "$TMP/perf.data" >"$TMP/perf.txt" 2>/dev/null
samples=$(grep -c '^[^[:space:]]' "$TMP/perf.txt")
bytes=$(stat -c %s "$TMP/perf.txt")
echo "collapse: $samples samples, $((bytes / 1048576)) MB of perf script text"

pipe=() alone=() only=() text=()
for i in 1 2 3; do
	t0=$(now_ns)
	"$PERF" script -i "$TMP/perf.data" >/dev/null 2>&1
	t1=$(now_ns)
	"$PERF" script -i "$TMP/perf.data" 2>/dev/null | "$EMBER" collapse >"$TMP/out" 2>/dev/null
	t2=$(now_ns)
	"$EMBER" collapse "$TMP/perf.txt" >"$TMP/out2" 2>/dev/null
	t3=$(now_ns)
	"$PERF" script -i "$TMP/perf.data" >"$TMP/again.txt" 2>/dev/null
	t4=$(now_ns)
	alone+=($((t1 - t0)))
	pipe+=($((t2 - t1)))
	only+=($((t3 - t2)))
	text+=($((t4 - t3)))
done
ma=$(median "${alone[@]}")
mp=$(median "${pipe[@]}")
mo=$(median "${only[@]}")
mt=$(median "${text[@]}")
stacks=$(wc -l <"$TMP/out2")
echo "collapse: perf script alone $(sec "$ma") s, piped into ember collapse $(sec "$mp") s" \
	"(+$(echo "scale=1; 100 * ($mp - $ma) / $ma" | bc)%);" \
	"ember collapse alone $(sec "$mo") s = $(echo "scale=1; $bytes * 1000 / $mo" | bc) MB/s," \
	"$stacks distinct stacks"
printf 'result\tcollapse-added (perf script | collapse)\t%s\t%s\ts\t<=1.10\n' "$(sec "$mp")" "$(sec "$ma")"
printf 'result\tcollapse-only (vs perf script > file)\t%s\t%s\ts\t<=0.25\n' "$(sec "$mo")" "$(sec "$mt")"
