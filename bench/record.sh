#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember record against perf record on the same commands (see bench/run.sh for the output):
#   record-slowdown    a fixed amount of work (sha256sum of 256 MB from the page cache)
#                      timed from inside the recorded command, under `record -F 999 -g`:
#                      11 rounds of bare, ember, perf (the two tools' order alternating),
#                      medians, and the median of each round's ember/perf ratio (the
#                      kernel takes the same samples for both tools, so expect 1.0 give
#                      or take the VM's noise, which moves single runs by 20 %)
#   record-lost        % of samples lost under `record -g -F max -m 1` (a one-page ring
#                      buffer at the kernel's top rate: how fast the reader drains it
#                      and how soon it is woken), pairs in alternating order, with the
#                      spread, the recorder's cpu, and in how many pairs ember lost more
#                      (with no difference, about half); then pinned (reader on cpu 0,
#                      command on cpu 1); LOST_PAIRS (20) pairs of each; and every run
#                      of both added up: the samples each tool lost in all; then the
#                      same moment: both tools recording one running command at once,
#                      SAME_ROUNDS (20) rounds of 4 s, every round added up
#   record-cpu         cpu time of the recorder's main thread (perf stat --no-inherit)
#                      while recording the work with -F 999 -g, median of 3
#   record-bytes       file bytes per sample for `record -F 999 -g -p` of one running
#                      command, both tools at once, 5 recordings each added up
#   record-fixed-cost  `record -g true`: wall time of the whole tool, median of 5
#                      (perf's is mostly its build-id pass and BPF side-band thread
#                      after the command exits; ember writes the same BUILD_ID section
#                      from the maps it saw; the goal is 10x cheaper)
set -u
. "$(dirname "$0")/lib.bash"
bench_init record
TMP=$(mktemp -d /tmp/ember-bench-record.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$TMP"' EXIT

sec() { echo "scale=6; $1 / 1000000000" | bc; }

head -c 64M /dev/urandom >"$TMP/blob"
WORK="sha256sum $TMP/blob $TMP/blob $TMP/blob $TMP/blob >/dev/null"
sh -c "$WORK"	# warm the page cache

spread() { printf '%s\n' "$@" | sort -g | sed -n '1p;$p' | tr '\n' ' ' | sed 's/ $//; s/ /-/'; }
spread_s() { local a=() v; for v in "$@"; do a+=("$(sec "$v")"); done; spread "${a[@]}"; }

# work_ns TOOL ARGS...: the work's own elapsed ns, measured inside the recorded command.
work_ns() {
	local t=$TMP/work.ns
	"$@" -- sh -c "t0=\$(date +%s%N); $WORK; echo \$((\$(date +%s%N) - t0)) >$t" \
		>/dev/null 2>&1
	cat "$t"
}

# pair_order I CMD_E CMD_P: runs the two commands, ember's first in odd rounds.
pair_order() {
	if [ $(($1 % 2)) = 1 ]; then eval "$2"; eval "$3"; else eval "$3"; eval "$2"; fi
}
# ratio_median E_VALUES P_VALUES: the median of the rounds' ember/perf ratios.
ratio_median() {
	local -a e=($1) p=($2) r=()
	for i in "${!e[@]}"; do r+=("$(echo "scale=4; ${e[$i]} / ${p[$i]}" | bc)"); done
	median "${r[@]}"
}
# more_count E_VALUES P_VALUES: in how many pairs ember's value is the larger.
more_count() {
	local -a e=($1) p=($2)
	local n=0
	for i in "${!e[@]}"; do
		[ "$(echo "${e[$i]} > ${p[$i]}" | bc)" = 1 ] && n=$((n + 1))
	done
	echo "$n"
}

# (1) slowdown of the work while recorded
bare=() e=() p=()
for i in $(seq 11); do
	bare+=("$(work_ns env)")
	pair_order "$i" 'e+=("$(work_ns "$EMBER" record -q -F 999 -g -o "$TMP/e.data")")' \
		'p+=("$(work_ns "$PERF" record -q -F 999 -g -o "$TMP/p.data")")'
done
mb=$(median "${bare[@]}")
me=$(median "${e[@]}")
mp=$(median "${p[@]}")
echo "record: the work takes $(sec "$mb") s alone, $(sec "$me") s under ember record," \
	"$(sec "$mp") s under perf record (slowdown $(echo "scale=3; $me / $mb" | bc)x" \
	"vs $(echo "scale=3; $mp / $mb" | bc)x); median of the rounds' ember/perf ratios" \
	"$(ratio_median "${e[*]}" "${p[*]}"), ember slower in $(more_count "${e[*]}" "${p[*]}")" \
	"of 11 (spreads: alone $(spread_s "${bare[@]}"), ember $(spread_s "${e[@]}")," \
	"perf $(spread_s "${p[@]}") s)"
printf 'result\trecord-slowdown (-F 999 -g)\t%s\t%s\ts\t<=1.05\n' "$(sec "$me")" "$(sec "$mp")"

# (2) samples lost when the buffers are tiny and the rate high: how fast the reader drains
lost_counts() { # FILE: "SAMPLES LOST", from perf's own counts
	"$PERF" report --stats -i "$1" 2>/dev/null | awk '
		/^Aggregated stats:/ { next }
		/ stats:$/ { ev = 1; next }
		!ev && $1 == "SAMPLE" && $2 == "events:" { n = $3 }
		ev && $1 == "LOST_SAMPLES" && $2 == "events:" { lost += $3 }
		END { printf "%d %d\n", n, lost }'
}
pct() { # SAMPLES LOST: lost / (lost + samples) in %
	awk -v n="$1" -v l="$2" 'BEGIN { if (n + l > 0) printf "%.3f\n", 100 * l / (n + l); else print 0 }'
}
# Interleaved pairs: on a shared 2-core machine the other load moves each run a lot,
# so the medians, the spread (min-max) and the pairs are what to compare; the
# recorder's own cpu time (its main thread, where both tools read the buffers) is
# taken in the same runs. 64 MB: a few seconds of work at that rate, many wake-ups.
# Single runs go from 0.1 % to 20 % for either tool: what stops the reader here is
# mostly not the reader (the VM's steal time, kernel threads such as kdamond that hold
# the idle cpu for a millisecond or more, see doc/PERFORMANCE.md), so besides the
# medians the bench adds up every run of both kinds: the samples each tool lost in
# all, for the same work, which is what "no more lost samples" counts.
# LOST_PAIRS (20) pairs of each kind.
LOST_PAIRS=${LOST_PAIRS:-20}
head -c 64M "$TMP/blob" >"$TMP/blob64"
# A run normally takes a few seconds; once here a pinned one under perf ran for 17 minutes,
# its cpu in softirq all along (the 100 kHz sampling livelocked it): the work is stopped
# after 120 s, and said so.
ONE="timeout 120 sha256sum $TMP/blob64 >/dev/null || echo stopped >>$TMP/stopped"
stopped() { # TOOL: says so when the last run's work was stopped
	if [ -s "$TMP/stopped" ]; then
		echo "record: a run under $(basename "$1") did not end in 120 s; its work was stopped" >&2
		rm -f "$TMP/stopped"
	fi
}
# totals of every lost-samples run: samples and lost, per tool
tot_en=0 tot_el=0 tot_pn=0 tot_pl=0
add_total() { # TOOL N LOST
	if [ "$1" = e ]; then tot_en=$((tot_en + $2)) tot_el=$((tot_el + $3))
	else tot_pn=$((tot_pn + $2)) tot_pl=$((tot_pl + $3)); fi
}
lost_run() { # TOOL DATA: prints "SAMPLES LOST CPU_MS"
	local ms
	ms=$("$PERF" stat -x, -e task-clock --no-inherit -- "$1" record -q -g -F max -m 1 \
		-o "$2" -- sh -c "$ONE" 2>&1 >/dev/null | awk -F, '/task-clock/ { print $1 }')
	stopped "$1"
	echo "$(lost_counts "$2") $ms"
}
e=() p=() ec=() pc=()
for i in $(seq "$LOST_PAIRS"); do
	pair_order "$i" 'read -r n l c < <(lost_run "$EMBER" "$TMP/e.data"); e+=("$(pct "$n" "$l")") ec+=("$c"); add_total e "$n" "$l"' \
		'read -r n l c < <(lost_run "$PERF" "$TMP/p.data"); p+=("$(pct "$n" "$l")") pc+=("$c"); add_total p "$n" "$l"'
done
le=$(median "${e[@]}")
lp=$(median "${p[@]}")
echo "record: lost $le% of the samples under ember record (spread $(spread "${e[@]}")), $lp%" \
	"under perf record (spread $(spread "${p[@]}")); -g -F max -m 1, median of $LOST_PAIRS pairs;" \
	"ember lost more in $(more_count "${e[*]}" "${p[*]}") of $LOST_PAIRS: ember ${e[*]}; perf ${p[*]}"
echo "record: the recorder's cpu in those runs: ember $(median "${ec[@]}") ms" \
	"(spread $(spread "${ec[@]}")), perf $(median "${pc[@]}") ms (spread $(spread "${pc[@]}"))"
printf 'result\trecord-lost (-g -F max -m 1)\t%s\t%s\t%%\t<=1.0\n' "$le" "$lp"
# The same with the reader on cpu 0 and the command on cpu 1: where the scheduler puts
# the reader (next to the command, which then stops while it reads, or not) moves the
# unpinned figure more than the reader's own speed does.
pinned_run() { # TOOL DATA: prints "SAMPLES LOST"
	taskset -c 0 "$1" record -q -g -F max -m 1 -o "$2" -- taskset -c 1 sh -c "$ONE" \
		>/dev/null 2>&1
	stopped "$1"
	lost_counts "$2"
}
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then
	e=() p=()
	for i in $(seq "$LOST_PAIRS"); do
		pair_order "$i" 'read -r n l < <(pinned_run "$EMBER" "$TMP/e.data"); e+=("$(pct "$n" "$l")"); add_total e "$n" "$l"' \
			'read -r n l < <(pinned_run "$PERF" "$TMP/p.data"); p+=("$(pct "$n" "$l")"); add_total p "$n" "$l"'
	done
	le=$(median "${e[@]}")
	lp=$(median "${p[@]}")
	echo "record: pinned (reader cpu 0, command cpu 1), lost $le% under ember (spread" \
		"$(spread "${e[@]}")), $lp% under perf (spread $(spread "${p[@]}")), median of" \
		"$LOST_PAIRS pairs; ember lost more in $(more_count "${e[*]}" "${p[*]}") of $LOST_PAIRS:" \
		"ember ${e[*]}; perf ${p[*]}"
	printf 'result\trecord-lost pinned (-g -F max -m 1)\t%s\t%s\t%%\t<=1.0\n' "$le" "$lp"
fi
te=$(pct "$tot_en" "$tot_el")
tp=$(pct "$tot_pn" "$tot_pl")
echo "record: all those runs together: ember lost $tot_el samples and kept $tot_en ($te%)," \
	"perf lost $tot_pl and kept $tot_pn ($tp%)"
printf 'result\trecord-lost all runs (-g -F max -m 1)\t%s\t%s\t%%\t<=1.0\n' "$te" "$tp"

# The same moment: both tools record one running command at once (-p, SAME_ROUNDS
# rounds of 4 s, who starts first alternating). The machine's mood, which moves
# runs minutes apart from 0.1 % to 20 %, is then the same for both; each tool has
# its own event and buffer, and the two readers share the cpus as any two would.
# Only the time both were recording counts, less 0.2 s at each end: perf's start
# and finish (kallsyms, build-ids: a few hundred ms of cpu) would otherwise stall
# the other reader and be counted against it.
SAME_ROUNDS=${SAME_ROUNDS:-20}
times_and_lost() { # FILE: "TIME" per sample, "TIME LOST N" per lost record
	"$PERF" script -i "$1" -F time --show-lost-events 2>/dev/null |
		awk '{ sub(":", "", $1) } / PERF_RECORD_LOST / { print $1, "LOST", $4; next } { print $1 }'
}
window_counts() { # LIST FROM TO: "SAMPLES LOST" of a times_and_lost list inside [FROM, TO]
	awk -v a="$2" -v b="$3" '$1 >= a && $1 <= b { if ($2 == "LOST") l += $3; else n++ }
		END { printf "%d %d\n", n, l }' "$1"
}
same_rec() { # TOOL DATA: TOOL records the running command for 4 s
	"$1" record -q -g -F max -m 1 -o "$2" -p "$SAME_PID" -- sleep 4 >/dev/null 2>&1
}
same_round() { # I: one round; prints "E_SAMPLES E_LOST P_SAMPLES P_LOST"
	local se sp a b
	pair_order "$1" 'same_rec "$EMBER" "$TMP/se.data" & se=$!' \
		'same_rec "$PERF" "$TMP/sp.data" & sp=$!'
	wait "$se" "$sp"
	times_and_lost "$TMP/se.data" >"$TMP/se.t"
	times_and_lost "$TMP/sp.data" >"$TMP/sp.t"
	read -r a b < <(awk '!/LOST/ { if (!(FILENAME in f)) f[FILENAME] = $1; l[FILENAME] = $1 }
		END { a = 0; b = 1e18; for (k in f) { if (f[k] > a) a = f[k]; if (l[k] < b) b = l[k] }
		      printf "%.6f %.6f\n", a + 0.2, b - 0.2 }' "$TMP/se.t" "$TMP/sp.t")
	echo "$(window_counts "$TMP/se.t" "$a" "$b") $(window_counts "$TMP/sp.t" "$a" "$b")"
}
sha256sum /dev/zero >/dev/null &	# stopped below, or by the EXIT trap
SAME_PID=$!
sleep 0.3
e=() p=() sen=0 sel=0 spn=0 spl=0
for i in $(seq "$SAME_ROUNDS"); do
	read -r n1 l1 n2 l2 < <(same_round "$i")
	e+=("$(pct "$n1" "$l1")") p+=("$(pct "$n2" "$l2")")
	sen=$((sen + n1)) sel=$((sel + l1)) spn=$((spn + n2)) spl=$((spl + l2))
done
kill "$SAME_PID" 2>/dev/null
wait "$SAME_PID" 2>/dev/null
te=$(pct "$sen" "$sel")
tp=$(pct "$spn" "$spl")
echo "record: the same moment ($SAME_ROUNDS rounds, both tools on one running sha256sum):" \
	"ember lost $sel samples and kept $sen ($te%), perf lost $spl and kept $spn ($tp%);" \
	"ember lost more in $(more_count "${e[*]}" "${p[*]}") of $SAME_ROUNDS: ember ${e[*]}; perf ${p[*]}"
printf 'result\trecord-lost same moment (-g -F max -m 1)\t%s\t%s\t%%\t<=1.0\n' "$te" "$tp"

# (3) the recorder's own cpu time (its main thread: where both tools read the buffers)
tool_ms() { # TOOL...: task-clock of the tool's main thread, ms
	"$PERF" stat -x, -e task-clock --no-inherit -- "$@" -- sh -c "$WORK" 2>&1 >/dev/null |
		awk -F, '/task-clock/ { print $1 }'
}
e=() p=()
for i in 1 2 3; do
	e+=("$(tool_ms "$EMBER" record -q -F 999 -g -o "$TMP/e.data")")
	p+=("$(tool_ms "$PERF" record -q -F 999 -g -o "$TMP/p.data")")
done
ce=$(median "${e[@]}")
cp=$(median "${p[@]}")
echo "record: the recorder itself used $ce ms of cpu with ember, $cp ms with perf (-F 999 -g)"
printf 'result\trecord-cpu (recorder, -F 999 -g)\t%s\t%s\tms\t<=1.0\n' "$ce" "$cp"

# (4) bytes per sample: both tools record one running sha256sum at once (-p, -F 999 -g,
# 2 s, 5 rounds, who starts first alternating), so their files hold the same mix of
# samples (recordings of a command run one after the other differ by run, as kernel
# samples with longer callchains come and go: that moved this figure by 0.5 %). A
# file is a fixed part (header, attrs, features: about 5 KB) and a data section;
# the two tools' recordings also differ by a few ms, so each tool's file is compared
# at the same number of samples, the mean of both: (fixed + data per sample * n) / n
# with every round added up.
file_parts() { # FILE: "DATA_BYTES OTHER_BYTES SAMPLES"
	local size data
	size=$(stat -c %s "$1")
	data=$(od -A n -t u8 -j 48 -N 8 "$1" | tr -d ' ')
	echo "$data $((size - data)) $("$PERF" report -D -i "$1" 2>/dev/null | grep -c 'PERF_RECORD_SAMPLE')"
}
bytes_rec() { # TOOL DATA: TOOL records the running command for 2 s
	"$1" record -q -F 999 -g -o "$2" -p "$BYTES_PID" -- sleep 2 >/dev/null 2>&1
}
sha256sum /dev/zero >/dev/null &	# stopped below, or by the EXIT trap
BYTES_PID=$!
sleep 0.3
ed=0 ef=0 en=0 pd=0 pf=0 pn=0
for i in 1 2 3 4 5; do
	pair_order "$i" 'bytes_rec "$EMBER" "$TMP/e.data" & re=$!' \
		'bytes_rec "$PERF" "$TMP/p.data" & rp=$!'
	wait "$re" "$rp"
	read -r d f n < <(file_parts "$TMP/e.data")
	ed=$((ed + d)) ef=$((ef + f)) en=$((en + n))
	read -r d f n < <(file_parts "$TMP/p.data")
	pd=$((pd + d)) pf=$((pf + f)) pn=$((pn + n))
done
kill "$BYTES_PID" 2>/dev/null
wait "$BYTES_PID" 2>/dev/null
read -r be bp < <(awk -v ed="$ed" -v ef="$ef" -v en="$en" -v pd="$pd" -v pf="$pf" -v pn="$pn" \
	'BEGIN { n = (en + pn) / 2; printf "%.2f %.2f\n", (ef + ed / en * n) / n, (pf + pd / pn * n) / n }')
echo "record: $be bytes per sample in ember's files, $bp in perf's at the same number of samples" \
	"(-F 999 -g -p, 5 recordings each at the same moment: data $ed bytes for $en samples and" \
	"$ef other bytes; perf $pd for $pn and $pf)"
printf 'result\trecord-bytes/sample (-F 999 -g)\t%s\t%s\tB\t<=1.0\n' "$be" "$bp"

# (5) fixed cost: start and finish around a command that does nothing
wall_ns() {
	local t0
	t0=$(now_ns)
	"$@" >/dev/null 2>&1
	echo $(($(now_ns) - t0))
}
e=() p=()
for i in 1 2 3 4 5; do
	e+=("$(wall_ns "$EMBER" record -q -g -o "$TMP/e.data" -- true)")
	p+=("$(wall_ns "$PERF" record -q -g -o "$TMP/p.data" -- true)")
done
fe=$(median "${e[@]}")
fp=$(median "${p[@]}")
echo "record: 'record -g true' takes $(sec "$fe") s with ember, $(sec "$fp") s with perf" \
	"($(echo "scale=1; $fp / $fe" | bc)x cheaper)"
printf 'result\trecord-fixed-cost (-g true)\t%s\t%s\ts\t<=0.1\n' "$(sec "$fe")" "$(sec "$fp")"
