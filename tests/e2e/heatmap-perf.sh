# SPDX-License-Identifier: GPL-2.0-only
# ember heatmap on perf.data: block I/O latency (issue/complete matched by
# device and sector, as the awk script of perf's documentation does) and
# syscall latency (enter/exit by tid) give the same pairs as perf script +
# awk on the same file, every pair is in one cell, the sleeps land in their
# rows; a file without the events gets an error that names them.
. "$(dirname "$0")/../lib/e2e.sh"

if ! have_perf; then
	skip setup "perf not installed"
	exit 0
fi
if ! is_root || ! have_tracefs || [ ! -d /sys/kernel/tracing/events/raw_syscalls ]; then
	skip setup "needs root and the raw_syscalls tracepoints"
	exit 0
fi
if [ ! -x "$EMBER" ] || [ ! -x "$WL/sleeper" ]; then
	skip setup "no $EMBER or $WL/sleeper; build first"
	exit 0
fi
cd "$TMP" || exit 1

svg_total() {
	python3 - "$1" <<'PY'
import re, sys, xml.etree.ElementTree as ET
ns = '{http://www.w3.org/2000/svg}'
total = 0
for r in ET.parse(sys.argv[1]).getroot().iter(ns + 'rect'):
    t = r.find(ns + 'title')
    if t is not None:
        total += int(re.search(r'count: (\d+),', t.text).group(1))
print(total)
PY
}

# perf script --ns times as integer ns: "8130.196559935:" -> 8130196559935.
AWK_NS='function ns(s,    p) { sub(/:$/, "", s); split(s, p, "."); return p[1] * 1000000000 + p[2] }'

# ---- block I/O: the pair the perf documentation draws ----
if [ -d /sys/kernel/tracing/events/block/block_rq_issue ]; then
	"$EMBER" record -q -e block:block_rq_issue -e block:block_rq_complete -a -o blk.data -- \
		dd if=/dev/zero of="$TMP/f" bs=4k count=2000 oflag=direct >/dev/null 2>&1
	issues=$("$PERF" script -i blk.data 2>/dev/null | grep -c 'block_rq_issue:')
	if [ "$issues" -lt 100 ]; then
		skip block "only $issues block_rq_issue events fired for 2000 direct writes"
	else
		# The documentation's awk, with the sector found before "+" whatever the kernel's layout.
		"$PERF" script --ns -F time,event,trace -i blk.data 2>/dev/null | awk "$AWK_NS"'
			{ t = ns($1); for (i = 3; i <= NF; i++) if ($i == "+") sec = $(i - 1); k = $3 SUBSEP sec }
			$2 ~ /issue/ { ts[k] = t }
			$2 ~ /complete/ { if (k in ts) { printf "%.3f %d\n", t / 1000, t - ts[k]; delete ts[k] } }' >blk.awk
		"$EMBER" heatmap --pairs --unitslat=ns -i blk.data >blk.pairs 2>blk.err
		expect_eq "block-exit" "$?" 0
		npairs=$(wc -l <blk.awk)
		# How many writes the block layer merges depends on the machine's
		# state; that the pairs are exactly awk's is checked below.
		if [ "$npairs" -ge 1 ]; then pass "block-pairs-found"; else fail "block-pairs-found" "$npairs pairs"; fi
		if cmp -s blk.awk blk.pairs; then
			pass "block-pairs-as-awk"
		else
			fail "block-pairs-as-awk" "$(diff blk.awk blk.pairs | head -5)"
		fi
		"$EMBER" heatmap -i blk.data >blk.svg 2>blk.err
		expect_eq "block-svg-exit" "$?" 0
		expect_eq "block-cells-add-up" "$(svg_total blk.svg)" "$npairs"
		# (any column: on a loaded machine the first I/O can complete after 1 s)
		if grep -q '<title>time [0-9]*s, range [0-9]*-[0-9]*us, count' blk.svg; then
			pass "block-us-labels"
		else
			fail "block-us-labels" "$(grep -m1 -o '<title>[^<]*' blk.svg)"
		fi
		# Explicit --start/--end/--key of the same pair, and --maxlat: what remains is what awk keeps.
		"$EMBER" heatmap --start block:block_rq_issue --end block:block_rq_complete \
			--key dev,sector --maxlat=200 -i blk.data >blk200.svg
		expect_eq "block-maxlat" "$(svg_total blk200.svg)" "$(awk '$2 <= 200000' blk.awk | wc -l)"
	fi
else
	skip block "no block tracepoints in this kernel"
fi

# ---- syscalls: 20 sleeps of 10 ms, enter/exit by tid ----
"$EMBER" record -q -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit -o sc.data -- \
	"$WL/sleeper" 20 10 >/dev/null 2>&1
"$PERF" script --ns -F tid,time,event -i sc.data 2>/dev/null | awk "$AWK_NS"'
	{ t = ns($2) }
	$3 ~ /sys_enter/ { ts[$1] = t }
	$3 ~ /sys_exit/ { if ($1 in ts) { printf "%.3f %d\n", t / 1000, t - ts[$1]; delete ts[$1] } }' >sc.awk
"$EMBER" heatmap --start raw_syscalls:sys_enter --end raw_syscalls:sys_exit --key tid \
	--pairs --unitslat=ns sc.data >sc.pairs
if [ -s sc.awk ] && cmp -s sc.awk sc.pairs; then
	pass "syscall-pairs-as-awk"
else
	fail "syscall-pairs-as-awk" "$(diff sc.awk sc.pairs | head -5)"
fi
# A sleep cannot be shorter than asked: exactly the 20 sleeps take 10 ms or more.
expect_eq "sleeps-at-least-10ms" "$(awk '$2 >= 10000000' sc.pairs | wc -l)" 20

# In 1 ms rows, the 20 sleeps are in rows from 10 ms up, nothing else is.
"$EMBER" heatmap --start raw_syscalls:sys_enter --end raw_syscalls:sys_exit \
	--unitslat=ms --steplat=1 --maxlat=1000 sc.data >sc.svg
expect_eq "syscall-cells-add-up" "$(svg_total sc.svg)" "$(wc -l <sc.pairs)"
slow=$(grep -o 'range [0-9]*-[0-9]*ms, count: [0-9]*' sc.svg | awk '{ split($2, r, "-") } r[1] >= 10 { n += $4 } END { print n + 0 }')
expect_eq "sleeps-in-their-rows" "$slow" 20

# perf.data in pipe mode on stdin.
"$EMBER" record -q -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit -o - -- "$WL/sleeper" 5 10 2>/dev/null |
	"$EMBER" heatmap --start raw_syscalls:sys_enter --end raw_syscalls:sys_exit --pairs --unitslat=ms >pipe.pairs
expect_eq "pipe-mode" "$(awk '$2 >= 10' pipe.pairs | wc -l)" 5

# A tracepoint field as the key, on perf's own recording of the same workload.
"$PERF" record -q -e syscalls:sys_enter_clock_nanosleep -e syscalls:sys_exit_clock_nanosleep \
	-o pn.data -- "$WL/sleeper" 15 10 >/dev/null 2>&1
"$EMBER" heatmap --start syscalls:sys_enter_clock_nanosleep --end syscalls:sys_exit_clock_nanosleep \
	--key common_pid --pairs --unitslat=ms pn.data >pn.pairs
expect_eq "perf-file-field-key" "$(awk '$2 >= 10' pn.pairs | wc -l)/$(wc -l <pn.pairs)" "15/15"

# ---- bad input ----
"$EMBER" record -q -e cpu-clock -o cpu.data -- "$WL/sleeper" 2 1 >/dev/null 2>&1
out=$("$EMBER" heatmap -i cpu.data 2>&1 >/dev/null)
expect_eq "missing-event-exit" "$?" 1
case "$out" in
"ember heatmap: cpu.data has no block:block_rq_issue event (it has: cpu-clock); record it with -e block:block_rq_issue")
	pass "missing-event-message" ;;
*) fail "missing-event-message" "$out" ;;
esac
out=$("$EMBER" heatmap --start raw_syscalls:sys_enter --end raw_syscalls:sys_exit --key nosuch sc.data 2>&1)
expect_eq "bad-key-exit" "$?" 1
case "$out" in
"ember heatmap: raw_syscalls:sys_enter has no field 'nosuch' (its fields: "*"; or tid, pid, cpu)") pass "bad-key-message" ;;
*) fail "bad-key-message" "$out" ;;
esac
out=$("$EMBER" heatmap --start raw_syscalls:sys_enter sc.data 2>&1)
expect_eq "start-without-end" "$?:$out" "2:ember heatmap: --start and --end go together"
out=$("$EMBER" heatmap --start nocolon --end raw_syscalls:sys_exit sc.data 2>&1)
expect_eq "not-a-tracepoint" "$?" 1
out=$("$EMBER" heatmap --start raw_syscalls:sys_enter --end raw_syscalls:sys_exit --key tid \
	--unitslat=weeks sc.data 2>&1)
expect_eq "bad-lat-units" "$?:$out" "2:ember heatmap: --unitslat for perf.data is ns, us, ms or s, not 'weeks'"

head -c 3000 sc.data >trunc.data
"$EMBER" heatmap --start raw_syscalls:sys_enter --end raw_syscalls:sys_exit trunc.data >/dev/null 2>trunc.err
rc=$?
if [ "$rc" -le 1 ] && [ -s trunc.err ]; then pass "truncated"; else fail "truncated" "exit $rc"; fi
{ printf 'PERFILE2'; head -c 5000 /dev/urandom; } >noise.data
out=$("$EMBER" heatmap noise.data 2>&1 >/dev/null)
rc=$?
if [ "$rc" = 1 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ]; then pass "noise"; else fail "noise" "exit $rc: $out"; fi
