#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember annotate against perf annotate --stdio on the same perf.data, the
# whole file (every sampled symbol), output to /dev/null (see bench/run.sh):
#   annotate-cpu   a `perf record` file of mixwork (tests/workloads/mixwork.c,
#                  built -O2 -g here: integer, float, array and switch loops,
#                  with libc, ld.so and the vdso sampled too): cpu time (user +
#                  sys, the objdump processes perf runs per symbol included, as
#                  wait4() counts them), median of 5, interleaved. Goal: 3x faster.
#   annotate-rss   peak resident memory of the tool (of its biggest process)
set -u
. "$(dirname "$0")/lib.bash"
bench_init annotate
TMP=$(mktemp -d /tmp/ember-bench-annotate.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

if ! cc -O2 -g -o "$TMP/mixwork" tests/workloads/mixwork.c 2>"$TMP/cc.err"; then
	echo "annotate bench: cannot build mixwork: $(head -c 200 "$TMP/cc.err")"
	exit 1
fi
"$PERF" record -q -F 4999 -o "$TMP/a.data" -- "$TMP/mixwork" 3000 >/dev/null 2>&1

nsyms=$("$PERF" annotate --stdio -i "$TMP/a.data" 2>/dev/null | grep -c '^ Percent |')
if ! "$EMBER" annotate --stdio -i "$TMP/a.data" 2>/dev/null |
	cmp -s - <("$PERF" annotate --stdio -i "$TMP/a.data" 2>/dev/null); then
	echo "annotate: note: ember's text differs from perf's (see tests/e2e/annotate.sh)"
fi
ce=() cp=() me=() mp=()
for i in 1 2 3 4 5; do
	bench_run - "$EMBER" annotate --stdio -i "$TMP/a.data"
	ce+=("$BR_CPU") me+=("$BR_RSS")
	bench_run - "$PERF" annotate --stdio -i "$TMP/a.data"
	cp+=("$BR_CPU") mp+=("$BR_RSS")
done
mce=$(median "${ce[@]}")
mcp=$(median "${cp[@]}")
echo "annotate: $nsyms symbols; cpu ${mce}s ember vs ${mcp}s perf" \
	"($(echo "scale=2; $mcp / $mce" | bc)x); peak $(($(median "${me[@]}") / 1024)) MB vs" \
	"$(($(median "${mp[@]}") / 1024)) MB"
result annotate-cpu "$mce" "$mcp" s "<=0.333"
result annotate-rss "$(echo "scale=1; $(median "${me[@]}") / 1024" | bc)" \
	"$(echo "scale=1; $(median "${mp[@]}") / 1024" | bc)" MB "<=1.0"
