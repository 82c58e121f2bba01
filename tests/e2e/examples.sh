#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# examples/ as a user meets them: built against the installed library with
# pkg-config (`make examples`, which `make check` runs), then run on work
# whose answer is known: the counts and samples they print are checked,
# the BPF ones against perf's own counts of the same events.
. "$(dirname "$0")/../lib/e2e.sh"
EX="$BUILD/examples"
cd "$TMP" || exit 1

for name in count sample-top read-perf-data pagefaults stacks; do
	[ -x "$EX/$name" ] && pass "built-$name" || fail "built-$name" "no $EX/$name: run make examples"
done
# a user's build line, as the examples' comments give it, against the same install
pc="PKG_CONFIG_PATH=$BUILD/sdk/lib/pkgconfig"
if env "$pc" pkg-config --exists libember; then
	if cc "$TOP/examples/count.c" $(env "$pc" pkg-config --cflags --libs libember) \
		-Wl,-rpath,"$BUILD/sdk/lib" -o count 2>cc.err && ./count task-clock >/dev/null; then
		pass pkg-config-build
	else
		fail pkg-config-build "$(head -3 cc.err)"
	fi
	expect_eq pkg-config-version "$(env "$pc" pkg-config --modversion libember)" \
		"$("$EMBER" version | sed -n 's/^ember version //p')"
else
	fail pkg-config-build "libember.pc is not in $BUILD/sdk"
fi

# count: 1000 fresh pages touched between enable and disable, each one fault
"$EX/count" "task-clock,page-faults" 1000 >count.out 2>&1
faults=$(awk '$2 == "page-faults" { print $1 }' count.out)
clock=$(awk '$2 == "task-clock" { print $1 }' count.out)
# (a sanitized build, make check SANITIZE=1, faults in its shadow memory too)
most=1100
ember_sanitized && most=2000
if [ "${faults:-0}" -ge 1000 ] && [ "${faults:-0}" -lt $most ] && [ "${clock:-0}" -gt 0 ]; then
	pass count-around-function
else
	fail count-around-function "$(cat count.out)"
fi
"$EX/count" "cpu-clok" >bad.out 2>&1
if grep -q "unknown event 'cpu-clok'" bad.out; then pass count-bad-event; else fail count-bad-event "$(cat bad.out)"; fi

# sample-top: hot() does three times warm()'s work, and comes first
"$EX/sample-top" 600 >top.out 2>&1
if [ "$(sed -n '2s/.*  //p;3s/.*  //p' top.out | tr '\n' ' ')" = "hot warm " ]; then
	pass sample-top-order
else
	fail sample-top-order "$(head -5 top.out)"
fi

# read-perf-data: a perf.data's samples per symbol, ranked as perf report ranks them
"$EMBER" record -q -o hl.data "$WL/hotloop" 300 >/dev/null 2>&1
"$EX/read-perf-data" hl.data >rpd.out 2>&1
if have_perf; then
	"$PERF" report -i hl.data --stdio --sort sym -q 2>/dev/null |
		sed -n '1,2s/^ *\([0-9.]*%\) *\[.\] \(.*\)$/\1 \2/p' | sed 's/ *$//' >rpd.perf
	expect_eq read-perf-data-vs-perf "$(head -2 rpd.out | awk '{ print $1, $2 }')" "$(cat rpd.perf)"
fi

if ! is_root; then
	skip bpf "the BPF examples need root"
	exit 0
fi
# pagefaults: a command's faults counted in the kernel, as perf stat counts them
# (the BPF count also has the child's few faults before its exec: 2 % allowed)
# (of a plain workload: a sanitized one's faults differ from run to run)
"$EX/pagefaults" -- "$WL/pagetouch" 2000 >pf.out 2>pf.err
child=$(sed -n 's/^# pid \([0-9]*\):.*/\1/p' pf.out)
bpf=$(awk -v p="$child" '$1 == p { print $3 }' pf.out)
if [ -z "$bpf" ]; then
	fail pagefaults-per-process "$(cat pf.out pf.err | head -5)"
elif have_perf; then
	perf_n=$("$PERF" stat -x, -e page-faults "$WL/pagetouch" 2000 2>&1 >/dev/null | cut -d, -f1)
	if [ "$bpf" -ge "$perf_n" ] && [ "$bpf" -le $((perf_n + perf_n / 50)) ]; then
		pass pagefaults-vs-perf-stat
	else
		fail pagefaults-vs-perf-stat "bpf $bpf, perf stat $perf_n"
	fi
else
	[ "$bpf" -ge 2000 ] && pass pagefaults-per-process || fail pagefaults-per-process "$bpf"
fi

# stacks: hotloop's stacks, counted in the kernel, have hot_a (twice hot_b's work) on
# top. 99 Hz for a second: up to 99 samples of one busy thread; a loaded machine gives
# hotloop a few, too few to rank, so up to three longer runs gather 20.
for seconds in 1 2 4; do
	"$WL/hotloop" $((seconds * 1000 + 2000)) &
	hl=$!
	sleep 0.2
	"$EX/stacks" $seconds $hl >stacks.out 2>stacks.err
	kill $hl 2>/dev/null
	wait $hl 2>/dev/null
	a=$(awk '/^hotloop;.*;hot_a / { n += $NF } END { print n + 0 }' stacks.out)
	b=$(awk '/^hotloop;.*;hot_b / { n += $NF } END { print n + 0 }' stacks.out)
	[ $((a + b)) -ge 20 ] && break
done
others=$(grep -vc '^hotloop;' stacks.out)
if [ "$a" -gt "$b" ] && [ $((a + b)) -ge 20 ] && [ "$others" = 0 ]; then
	pass stacks-folded
else
	fail stacks-folded "hot_a $a, hot_b $b, other lines $others: $(head -3 stacks.out stacks.err)"
fi
# the output is a flame graph's input
if "$EMBER" flamegraph -i stacks.out -o stacks.svg 2>fg.err && grep -q 'hot_a' stacks.svg; then
	pass stacks-flamegraph
else
	fail stacks-flamegraph "$(head -3 fg.err)"
fi
