#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember stat's aggregation against perf stat 6.1: --per-socket, --per-die,
# --per-core, --per-node and -A, in the std, CSV and JSON layouts, with -I
# and -r; counting per cgroup (-G, --for-each-cgroup) in a cgroup made here.
. "$(dirname "$0")/../lib/e2e.sh"
. "$(dirname "$0")/stat-lib.bash"

if ! is_root; then
	skip all "needs root for system-wide and cgroup counting"
	exit 0
fi

# numbers → N, so two runs compare equal; the rate prefix (K/sec, M/sec) follows the count.
# The std layout's shape; with -r the elapsed line's digits follow its noise.
shape() { sed -E 's/^ +[0-9.]+ \+- [0-9.]+ seconds time elapsed.*/ELAPSED +-/' | stat_shape; }

STAT_STD_SHAPE=shape

EVS=cpu-clock,context-switches,page-faults
for mode in per-socket per-die per-core per-node; do
	stat_same_as_perf "$mode-matches-perf" -a --$mode -e $EVS -- sleep 0.1
	stat_same_as_perf "$mode-csv-matches-perf" -a --$mode -x, -e $EVS -- sleep 0.1
	stat_same_as_perf "$mode-json-matches-perf" -a --$mode -j -e $EVS -- sleep 0.1
	stat_same_as_perf "$mode-interval-matches-perf" -a --$mode -I 100 --interval-count 2 \
		-e $EVS -- sleep 1
	stat_same_as_perf "$mode-repeat-csv-matches-perf" -a --$mode -r 2 -x, -e $EVS -- sleep 0.05
done
stat_same_as_perf per-core-interval-csv-matches-perf -a --per-core -I 100 --interval-count 2 -x, \
	-e cpu-clock -- sleep 1
stat_same_as_perf per-core-repeat-matches-perf -a --per-core -r 2 -e $EVS -- sleep 0.05
stat_same_as_perf per-socket-repeat-json-matches-perf -a --per-socket -r 2 -j -e $EVS -- sleep 0.05
stat_same_as_perf per-core-cpu-list-matches-perf -C 0 --per-core -e cpu-clock -- sleep 0.05
stat_same_as_perf per-cpu-repeat-csv-matches-perf -a -A -r 2 -x, -e cpu-clock -- sleep 0.05
stat_same_as_perf per-cpu-repeat-matches-perf -a -A -r 2 -e cpu-clock,page-faults -- sleep 0.05
stat_same_as_perf per-cpu-interval-csv-matches-perf -a -A -I 100 --interval-count 2 -x, \
	-e cpu-clock -- sleep 1

# One line per core, each over the cpus the kernel lists for that core.
ncores=$(cat /sys/devices/system/cpu/cpu[0-9]*/topology/core_id 2>/dev/null |
	paste - <(cat /sys/devices/system/cpu/cpu[0-9]*/topology/physical_package_id) |
	sort -u | wc -l)
"$EMBER" stat -a --per-core -x, -e cpu-clock -- sleep 0.05 2>"$TMP/e.csv"
expect_eq per-core-lines "$(grep -c ',cpu-clock,' "$TMP/e.csv")" "$ncores"
expect_eq per-core-cpus-add-up "$(awk -F, '{ n += $2 } END { print n }' "$TMP/e.csv")" \
	"$(getconf _NPROCESSORS_ONLN)"

# Aggregation counts cpus: without -a or -C it is a usage error.
"$EMBER" stat --per-core -e cpu-clock -- true 2>"$TMP/e.txt"
expect_eq per-core-needs-cpus "$?" 2
expect_eq per-core-needs-cpus-one-line "$(wc -l <"$TMP/e.txt")" 1

# --- -a --per-thread: every thread of the system, by count, zeros left out ---------
sh -c 'while :; do :; done' &
spin=$!
"$EMBER" stat -a --per-thread -e cpu-clock,page-faults -- sleep 0.2 2>"$TMP/e.txt"
kill $spin
wait $spin 2>/dev/null
check per-thread-all-spinner grep -qE "^ +sh-$spin +[0-9.]+ msec cpu-clock " "$TMP/e.txt"
check per-thread-all-sorted-nonzero python3 -c '
import re, sys
vals = {}
for line in open(sys.argv[1]):
    m = re.match(r"^(.+)-(\d+) +([0-9.]+) +(msec )?(\S+) ", line)
    if m:
        vals.setdefault(m.group(5), []).append(float(m.group(3)))
assert set(vals) == {"cpu-clock", "page-faults"}, vals
for ev, v in vals.items():
    assert v == sorted(v, reverse=True), (ev, v)
    # msec rounds a few ns down to 0.00; a count that is really 0 is left out
    assert all(x > 0 for x in v) if ev == "page-faults" else min(v) >= 0, (ev, v)
' "$TMP/e.txt"
have_perf && "$PERF" stat -a --per-thread -e cpu-clock,page-faults -- sleep 0.1 2>"$TMP/p.txt"
if have_perf && ! grep -q 'Performance counter stats' "$TMP/p.txt"; then
	# perf 6.1 reads every thread's cpu list from /proc and gives up when one
	# has gone in between ("failed to parse CPUs map: No such file or directory")
	skip per-thread-all-frame-matches-perf "perf stat failed: $(head -1 "$TMP/p.txt")"
	skip per-thread-all-line-matches-perf "perf stat failed: $(head -1 "$TMP/p.txt")"
elif have_perf; then
	# Which threads ran differs; the lines around them and each line's layout must not.
	# (perf also warns of threads that ended before it read their names)
	same_shape() { grep -vE -- "-[0-9]+ +[0-9.]+ |^Couldn't resolve comm" "$1" | stat_shape; }
	if diff <(same_shape "$TMP/e.txt") <(same_shape "$TMP/p.txt") >"$TMP/d.txt"; then
		pass per-thread-all-frame-matches-perf
	else
		fail per-thread-all-frame-matches-perf "$(head "$TMP/d.txt")"
	fi
	# A line whose comm fits perf's 16 columns and tid its 8 (longer ones push the rest):
	# those 25 columns are one field, whatever thread each tool's first line is.
	line_shape() { grep -E -- "^ +[^ ]{1,15}-[0-9]{1,7} +[0-9.]+ msec cpu-clock " "$1" |
		head -1 | sed -E 's/^.{25}/COMM-TID/' | stat_shape; }
	expect_eq per-thread-all-line-matches-perf "$(line_shape "$TMP/e.txt")" \
		"$(line_shape "$TMP/p.txt")"
fi
"$EMBER" stat --per-thread -e cpu-clock -- true 2>/dev/null
expect_eq per-thread-command-refused "$?" 2

# --- cgroups -------------------------------------------------------------------
# perf's hierarchy: v1 with the perf_event controller, else cgroup v2.
cgmnt=$(awk '$3 == "cgroup" && $4 ~ /(^|,)perf_event(,|$)/ { print $2; exit }' /proc/self/mounts)
[ -n "$cgmnt" ] || cgmnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
if [ -z "$cgmnt" ] || ! mkdir "$cgmnt/ember-test-$$" "$cgmnt/ember-test2-$$" 2>/dev/null; then
	skip cgroups "no writable perf_event or cgroup2 hierarchy"
	exit 0
fi
CG1=ember-test-$$ CG2=ember-test2-$$
spinners=()
# A shell spinning inside each test cgroup, so that both count all the time;
# CG1's pinned to the first cpu, so that which cpus run it is known.
ncpu=$(getconf _NPROCESSORS_ONLN)
pin=(taskset -c "$(cut -d, -f1 /sys/devices/system/cpu/online | cut -d- -f1)")
for cg in $CG1 $CG2; do
	"${pin[@]}" sh -c "echo \$\$ >'$cgmnt/$cg/cgroup.procs' &&
		exec sh -c 'while :; do :; done'" &
	spinners+=($!)
	pin=()
done
cleanup_cgroups() {
	kill "${spinners[@]}" 2>/dev/null
	wait "${spinners[@]}" 2>/dev/null
	rmdir "$cgmnt/$CG1" "$cgmnt/$CG2" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup_cgroups EXIT
# Wait until both spinners have moved into their cgroups. (Each test counts
# 0.3 s: time enough for a spinner to run on a loaded machine.)
for cg in $CG1 $CG2; do
	for _ in $(seq 50); do [ -s "$cgmnt/$cg/cgroup.procs" ] && break; sleep 0.1; done
done

stat_same_as_perf cgroup-matches-perf -a -e cpu-clock,context-switches -G $CG1 -- sleep 0.3
stat_same_as_perf cgroup-list-matches-perf -a -e cpu-clock,cpu-clock -G $CG1,$CG2 -- sleep 0.3
stat_same_as_perf cgroup-csv-matches-perf -a -x, -e cpu-clock,page-faults -G $CG1 -- sleep 0.3
stat_same_as_perf cgroup-json-matches-perf -a -j -e cpu-clock -G $CG2 -- sleep 0.3
stat_same_as_perf for-each-cgroup-matches-perf -a --for-each-cgroup $CG1,$CG2 \
	-e cpu-clock,context-switches -- sleep 0.3
stat_same_as_perf for-each-cgroup-csv-matches-perf -a -x, --for-each-cgroup $CG1,$CG2 \
	-e cpu-clock -- sleep 0.3
# Per core: counted on the pinned spinner's core only; per socket (with more
# than one cpu): <not counted>, since perf 6.1 wants every cpu of a slot to run.
stat_same_as_perf for-each-cgroup-per-core-matches-perf -a --per-core --for-each-cgroup $CG1 \
	-e cpu-clock -- sleep 0.3
stat_same_as_perf for-each-cgroup-per-socket-matches-perf -a --per-socket --for-each-cgroup $CG1 \
	-e cpu-clock -- sleep 0.3
if [ "$ncpu" -gt 1 ]; then
	"$EMBER" stat -a --per-socket -x, -e cpu-clock -G $CG1 -- sleep 0.1 2>"$TMP/e.csv"
	check per-socket-cgroup-not-counted grep -q '^S0,[0-9]*,<not counted>,' "$TMP/e.csv"
fi

# The spinner in CG1 is all that runs there: about one cpu's worth of cpu-clock.
"$EMBER" stat -a -x, -e cpu-clock -G $CG1 -- sleep 0.2 2>"$TMP/e.csv"
check cgroup-counts-its-tasks python3 -c '
import sys
f = open(sys.argv[1]).read().strip().split(",")
assert f[3] == sys.argv[2], f
assert 0 < float(f[0]) < 450, f   # ms over 0.2 s, on at most one cpu
' "$TMP/e.csv" $CG1

"$EMBER" stat -a -e cpu-clock -G ember-no-such-cgroup-$$ -- true 2>"$TMP/e.txt"
expect_eq cgroup-missing-exit "$?" 2
check cgroup-missing-says-path grep -q "no access to cgroup $cgmnt/ember-no-such-cgroup-$$" \
	"$TMP/e.txt"
"$EMBER" stat -e cpu-clock -G $CG1 -- true 2>/dev/null
expect_eq cgroup-needs-cpus "$?" 2
"$EMBER" stat -a -e cpu-clock -G $CG1 --for-each-cgroup $CG1 -- true 2>/dev/null
expect_eq cgroup-and-for-each-refused "$?" 2
"$EMBER" stat -a -G $CG1 -- true 2>/dev/null
expect_eq cgroup-needs-events "$?" 2
exit 0
