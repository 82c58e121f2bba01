#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember trace -F/--pf: page faults from the major-faults/minor-faults
# software events beside the BPF tracer. pagetouch N touches N fresh pages
# of one anonymous mapping from touch_pages(): exactly N minor faults there.
# Their lines against perf trace's for the same program (times, pids and
# addresses normalized), -F alone tracing no syscalls as perf, the faults
# in time order among the syscalls, -s's fault counts, -p and -a, and bad
# input.
. "$(dirname "$0")/../lib/e2e.sh"

if ! is_root || ! have_tracefs; then
	skip setup "needs root and tracefs"
	exit 0
fi
if [ ! -x "$EMBER" ] || [ ! -x "$WL/pagetouch" ]; then
	skip setup "no $EMBER or $WL/pagetouch; build first"
	exit 0
fi
if ! "$EMBER" trace -F min -- true >/dev/null 2>"$TMP/probe.txt"; then
	skip setup "ember trace -F cannot run here: $(head -1 "$TMP/probe.txt")"
	exit 0
fi
N=150
LAYOUT='^ +[0-9]+\.[0-9]{3} \( 0\.000 ms\): pagetouch/[0-9]+ (maj|min)fault \[[^]]+\] => [^ ]+ \((d|\?)(\.|k)\)$'
# "T comm/PID " for the head, 0xH for every address, the vdso's dso as [vdso]
norm() {
	sed -E -e 's/^ +[0-9]+\.[0-9]+ \( 0\.000 ms\): ([^/]+)\/[0-9]+ /T \1 /' -e 's/0x[0-9a-f]+/0xH/g' \
		-e 's#/tmp/perf-vdso\.so-[A-Za-z0-9]+#[vdso]#' "$1"
}

# 1. exact count: N faults in touch_pages, every line in the fault layout, no syscalls
"$EMBER" trace -F min -- "$WL/pagetouch" $N 2>"$TMP/min.txt"
expect_eq min-exit-status "$?" 0
expect_eq min-touch-count "$(grep -c ' minfault \[touch_pages+0x[0-9a-f]*\] => //anon@' "$TMP/min.txt")" $N
expect_eq min-layout "$(grep -vcE "$LAYOUT" "$TMP/min.txt")" 0
expect_eq min-no-majfault "$(grep -c ' majfault ' "$TMP/min.txt")" 0
# the N pages are N consecutive pages of one mapping
pages=$(sed -n 's/.*touch_pages.*=> \/\/anon@0x\([0-9a-f]*\) .*/\1/p' "$TMP/min.txt" |
	while read -r a; do echo $((16#$a)); done |
	awk 'NR > 1 && $1 != prev + 4096 { bad++ } { prev = $1 } END { print bad + 0 }')
expect_eq min-consecutive-pages "$pages" 0
"$EMBER" trace --pf=maj -- "$WL/pagetouch" $N 2>"$TMP/maj.txt"
expect_eq maj-only-majfaults "$(grep -c ' minfault ' "$TMP/maj.txt")" 0

# 2. the same lines as perf trace -F all: the touch_pages ones, the first user fault (ld.so's
#    entry) and the kernel's first ones (an address with no map: "(?k)")
if have_perf; then
	"$PERF" trace -F all -- "$WL/pagetouch" $N 2>"$TMP/perf.txt" >/dev/null
	"$EMBER" trace -F all -- "$WL/pagetouch" $N 2>"$TMP/all.txt"
	norm "$TMP/perf.txt" >"$TMP/perf.n"
	norm "$TMP/all.txt" >"$TMP/all.n"
	if [ "$(grep -c touch_pages "$TMP/perf.n")" = $N ] &&
		diff <(grep touch_pages "$TMP/perf.n") <(grep touch_pages "$TMP/all.n") >"$TMP/d1"; then
		pass same-touch-lines-as-perf
	else
		fail same-touch-lines-as-perf "$(head -5 "$TMP/d1")"
	fi
	first_user() { grep -m1 -F ' minfault [_start+0x0] => ' "$1"; }
	expect_eq same-entry-line-as-perf "$(first_user "$TMP/all.n")" "$(first_user "$TMP/perf.n")"
	expect_eq same-kernel-line-as-perf "$(head -1 "$TMP/all.n")" "$(head -1 "$TMP/perf.n")"
	# which functions fault where changes from run to run (ASLR, the stack's depth);
	# the places faulted, dsos and map kinds, do not
	places() { sed -nE 's/.* => (.*@)?0xH (\(..\))$/\1 \2/p' "$1" | sort -u; }
	if diff <(places "$TMP/perf.n") <(places "$TMP/all.n") >"$TMP/d2"; then
		pass same-places-as-perf
	else
		fail same-places-as-perf "$(head -5 "$TMP/d2")"
	fi
else
	skip same-lines-as-perf "no perf"
fi

# --call-graph fp: each fault's stack under its line, as perf prints a callchain; the
# touch_pages blocks and the first one (the kernel's, in execve) the same as perf's
block() { awk -v want="$2" '/^T / { keep = index($0, want) > 0 } keep' "$1"; }
first_block() { awk '/^T / { n++ } n == 1' "$1"; }
"$EMBER" trace -F min --call-graph fp -- "$WL/pagetouch" $N 2>"$TMP/cg.txt"
norm "$TMP/cg.txt" >"$TMP/cg.n"
expect_eq callchain-frames "$(grep -A1 'minfault \[touch_pages+' "$TMP/cg.n" | grep -c "^ \{39\}touch_pages ($WL/pagetouch)$")" $N
if have_perf; then
	"$PERF" trace -F min --call-graph fp -- "$WL/pagetouch" $N 2>"$TMP/pcg.txt" >/dev/null
	norm "$TMP/pcg.txt" >"$TMP/pcg.n"
	if [ "$(block "$TMP/pcg.n" touch_pages | wc -l)" -gt $N ] &&
		diff <(block "$TMP/pcg.n" touch_pages) <(block "$TMP/cg.n" touch_pages) >"$TMP/d3"; then
		pass callchains-as-perf
	else
		fail callchains-as-perf "$(head -6 "$TMP/d3")"
	fi
	if [ "$(first_block "$TMP/pcg.n" | wc -l)" -gt 2 ] &&
		diff <(first_block "$TMP/pcg.n") <(first_block "$TMP/cg.n") >"$TMP/d4"; then
		pass kernel-callchain-as-perf
	else
		fail kernel-callchain-as-perf "$(head -6 "$TMP/d4")"
	fi
fi

# 3. with syscalls: in time order, touch_pages' faults after the mmap and before the munmap
"$EMBER" trace -F min --syscalls -- "$WL/pagetouch" $N 2>"$TMP/sys.txt"
len=$((N * 4096))
at() { grep -n -m1 -E "$1" "$TMP/sys.txt" | cut -d: -f1; }
m=$(at " mmap\(len: $len,")
t1=$(at 'touch_pages')
u=$(at " munmap\(addr: 0x[0-9a-f]+, len: $len\)")
if [ -n "$m" ] && [ -n "$t1" ] && [ -n "$u" ] && [ "$m" -lt "$t1" ] &&
	[ "$(grep -n touch_pages "$TMP/sys.txt" | tail -1 | cut -d: -f1)" -lt "$u" ]; then
	pass faults-between-mmap-and-munmap
else
	fail faults-between-mmap-and-munmap "mmap at ${m:-none}, first fault at ${t1:-none}, munmap at ${u:-none}"
fi
expect_eq syscalls-and-faults "$(grep -c 'touch_pages' "$TMP/sys.txt")" $N
"$EMBER" trace -F min -e munmap -- "$WL/pagetouch" $N 2>"$TMP/e.txt"
expect_eq e-syscalls-with-faults "$(grep -cE " munmap\(addr: 0x[0-9a-f]+, len: $len\)" "$TMP/e.txt")|$(grep -c touch_pages "$TMP/e.txt")|$(grep -vc 'munmap(\|fault \[' "$TMP/e.txt")" "1|$N|0"
"$EMBER" trace -F min --no-syscalls -- "$WL/pagetouch" $N 2>"$TMP/nosys.txt"
expect_eq no-syscalls "$(grep -vcE "$LAYOUT" "$TMP/nosys.txt")" 0

# --duration and --failure filter the syscalls only: every fault is shown, as perf shows them
"$EMBER" trace -F min --syscalls --duration 1000 --failure -- "$WL/pagetouch" $N 2>"$TMP/dur.txt"
expect_eq filters-leave-faults "$(grep -c touch_pages "$TMP/dur.txt")|$(grep -vc 'fault \[' "$TMP/dur.txt")" "$N|0"

# 4. -s: the faults are the thread's events, counted as perf's "N minfaults"; no syscall rows
"$EMBER" trace -s -F min -- "$WL/pagetouch" $N 2>"$TMP/s.txt"
head=$(grep -E '^ pagetouch \([0-9]+\), ' "$TMP/s.txt")
ev=$(echo "$head" | sed -nE 's/.*, ([0-9]+) events, .*/\1/p')
mf=$(echo "$head" | sed -nE 's/.*, ([0-9]+) minfaults$/\1/p')
if [ -n "$ev" ] && [ "$ev" = "$mf" ] && [ "$mf" -ge $N ]; then
	pass summary-minfaults
else
	fail summary-minfaults "'$head'"
fi
expect_eq summary-no-lines "$(grep -c 'fault \[' "$TMP/s.txt")" 0
expect_eq summary-no-rows "$(awk 'NF == 8 && $2 ~ /^[0-9]+$/' "$TMP/s.txt" | wc -l)" 0
"$EMBER" trace -S -F min -e munmap -- "$WL/pagetouch" $N 2>"$TMP/S.txt"
munmap_row=$(awk '$1 == "munmap" && NF == 8 { print $2, $3 }' "$TMP/S.txt")
mf=$(sed -nE 's/^ pagetouch \([0-9]+\), ([0-9]+) events, .*, ([0-9]+) minfaults$/\1 \2/p' "$TMP/S.txt")
# the events: the faults, and each munmap's entry and exit
if [ "${munmap_row#* }" = 0 ] && [ -n "$mf" ] && [ "${mf% *}" = "$((${mf#* } + 2 * ${munmap_row% *}))" ]; then
	pass with-summary-both
else
	fail with-summary-both "munmap row '$munmap_row', events and faults '$mf'"
fi
if have_perf; then
	"$PERF" trace -s -F min -- "$WL/pagetouch" $N 2>"$TMP/ps.txt" >/dev/null
	shape_s() { sed -nE 's/^ pagetouch \([0-9]+\), [0-9]+ events, [0-9.]+%(, [0-9]+ minfaults)$/X\1/p' "$1" |
		sed -E 's/[0-9]+/N/'; }
	expect_eq summary-layout-as-perf "$(shape_s "$TMP/s.txt")" "$(shape_s "$TMP/ps.txt")"
fi

# -i: a file of fault samples with their addresses (perf record -e minor-faults -c 1 -d) is
# shown as perf trace -i shows it, stacks too (-g); ember record's as perf's
vdso() { sed -E 's#/tmp/perf-vdso\.so-[A-Za-z0-9]+#[vdso]#' "$1"; }
"$EMBER" record -q -e minor-faults -c 1 -d -g -o "$TMP/ef.data" -- "$WL/pagetouch" $N >/dev/null 2>&1
"$EMBER" trace -i "$TMP/ef.data" 2>"$TMP/ei.txt"
expect_eq replay-touch-count "$(grep -c 'minfault \[touch_pages+' "$TMP/ei.txt")" $N
expect_eq replay-frames "$(grep -A1 'minfault \[touch_pages+' "$TMP/ei.txt" | grep -c "^ \{39\}touch_pages ($WL/pagetouch)$")" $N
"$EMBER" trace -i "$TMP/ef.data" -s 2>"$TMP/eis.txt"
expect_eq replay-summary "$(sed -nE 's/^ pagetouch \([0-9]+\), ([0-9]+) events, 100\.0%, ([0-9]+) minfaults$/\1 \2/p' "$TMP/eis.txt")" \
	"$(grep -c ' minfault \[' "$TMP/ei.txt") $(grep -c ' minfault \[' "$TMP/ei.txt")"
if have_perf; then
	"$PERF" trace -i "$TMP/ef.data" 2>"$TMP/pei.txt"
	if [ -s "$TMP/pei.txt" ] && diff <(vdso "$TMP/pei.txt") "$TMP/ei.txt" >"$TMP/d5"; then
		pass replay-ember-file-as-perf
	else
		fail replay-ember-file-as-perf "$(head -6 "$TMP/d5")"
	fi
	"$PERF" record -q -e minor-faults -c 1 -d -o "$TMP/pf.data" -- "$WL/pagetouch" $N >/dev/null 2>&1
	"$PERF" trace -i "$TMP/pf.data" 2>"$TMP/ppi.txt"
	"$EMBER" trace -i "$TMP/pf.data" 2>"$TMP/epi.txt"
	if [ -s "$TMP/ppi.txt" ] && diff <(vdso "$TMP/ppi.txt") "$TMP/epi.txt" >"$TMP/d6"; then
		pass replay-perf-file-as-perf
	else
		fail replay-perf-file-as-perf "$(head -6 "$TMP/d6")"
	fi
	"$PERF" trace -i "$TMP/pf.data" -s 2>"$TMP/ppis.txt"
	"$EMBER" trace -i "$TMP/pf.data" -s 2>"$TMP/epis.txt"
	expect_eq replay-summary-as-perf "$(cat "$TMP/epis.txt")" "$(cat "$TMP/ppis.txt")"
fi

# 5. -p on a running process (one thread: no comm/tid, as perf), and -a
"$WL/pagetouch" $N 700 &
pid=$!
sleep 0.2
"$EMBER" trace -F min -p $pid 2>"$TMP/p.txt"
wait $pid
expect_eq pid-touch-count "$(grep -cE '^ +[0-9]+\.[0-9]{3} \( 0\.000 ms\): minfault \[touch_pages\+0x[0-9a-f]+\] => //anon@' "$TMP/p.txt")" $N
# (every process's maps are read first: the workload waits 2 s before its faults)
"$WL/pagetouch" $N 2000 &
pid=$!
sleep 0.3	# exec'd: its name and maps are pagetouch's when ember reads them
timeout -s INT 4 "$EMBER" trace -F min -a 2>"$TMP/a.txt"
wait $pid
n=$(grep -c " pagetouch/$pid minfault \[touch_pages+" "$TMP/a.txt")
if [ "$n" = $N ]; then
	pass all-cpus-touch-count
elif grep -q '^LOST [0-9]* events!$' "$TMP/a.txt"; then
	# the whole machine's faults overflowed the buffers: those counted may be any
	skip all-cpus-touch-count "the machine is too busy: $(grep '^LOST' "$TMP/a.txt")"
else
	fail all-cpus-touch-count "got $n, want $N"
fi

# 6. bad input: perf's choices only, and a value is needed
"$EMBER" trace --pf=bogus -- true 2>"$TMP/bad.txt"
expect_eq bad-pf-status "$?" 2
expect_eq bad-pf-message "$(cat "$TMP/bad.txt")" "ember trace: --pf takes all, maj or min, not 'bogus'"
"$EMBER" trace -F 2>/dev/null
expect_eq pf-needs-value "$?" 2
