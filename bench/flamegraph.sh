#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember flamegraph against the perf pipeline on the same perf.data file
# (see bench/run.sh for the output):
#   flamegraph-cpu     perf.data -> SVG with `ember flamegraph`, against
#                      `perf script | stackcollapse-perf.pl | flamegraph.pl`
#                      when the FlameGraph scripts are on PATH, else against
#                      `perf script` alone (the pipeline's first stage, so a
#                      floor for its time): cpu time (user + system, summed
#                      over the pipeline's processes), median of 3 (ember's:
#                      of 9, to the microsecond, see bench_run; time(1)'s
#                      hundredths are 6 % of its tenth of a second); cpu time
#                      rather than wall time so that a loaded machine does not
#                      blur the ratio (both are logged, with each stage's
#                      cpu). The goal, 50 times faster than the pipeline, is
#                      met a fortiori when met against perf script alone.
#   flamegraph-memory  peak resident memory of the same runs (the pipeline's
#                      biggest process).
#   flamegraph-folded-cpu `ember flamegraph --folded` (perf.data -> folded)
#                      against the pipeline's first two stages, `perf script
#                      | stackcollapse-perf.pl` (perf script alone without
#                      the scripts).
# The file: callchains (-g) of every cpu at a 50 us period while two cpu-bound
# workloads run, several hundred thousand samples. FLAMEGRAPH_BENCH_SECS sets
# how long it records (default 10). bench/flamegraph-big.sh measures memory on
# a 1 GB file (opt-in).
set -u
. "$(dirname "$0")/lib.bash"
bench_init flamegraph
TMP=$(mktemp -d /tmp/ember-bench-flamegraph.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
SECS=${FLAMEGRAPH_BENCH_SECS:-10}
WLD="$BUILD/workloads"

if [ ! -x /usr/bin/time ]; then
	echo "flamegraph bench: /usr/bin/time is missing (Debian package time), skipped"
	exit 0
fi
"$PERF" record -q -a -g -e cpu-clock -c 50000 -o "$TMP/big.data" -- \
	sh -c "$WLD/hotloop $((SECS * 1000)) & $WLD/hotloop $((SECS * 1000)); wait" >/dev/null 2>&1
samples=$("$PERF" report -i "$TMP/big.data" --stats 2>/dev/null | awk '$1 == "SAMPLE" && $2 == "events:" { print $3; exit }')
size=$(du -m "$TMP/big.data" | cut -f1)
echo "flamegraph: $TMP/big.data holds ${samples:-?} samples with callchains (${size} MB)"

# measure OUT CMD...: "cpu_seconds maxrss_kb wall_seconds" of one run, output to OUT
measure() {
	local out=$1
	shift
	/usr/bin/time -f '%U %S %M %e' -o "$TMP/time" "$@" >"$out" 2>/dev/null
	awk '{ printf "%.2f %d %s\n", $1 + $2, $3, $4 }' "$TMP/time"
}

have_scripts=
if command -v stackcollapse-perf.pl >/dev/null && command -v flamegraph.pl >/dev/null; then
	have_scripts=1
	base_name="perf script | stackcollapse-perf.pl | flamegraph.pl"
	# "cpu maxrss wall folded_cpu stage_cpus": cpu summed over the stages,
	# memory of the biggest, wall of the last to end, cpu of the first two
	baseline() {
		/usr/bin/time -f '%U %S %M %e' -o "$TMP/t1" "$PERF" script -i "$TMP/big.data" 2>/dev/null |
			/usr/bin/time -f '%U %S %M %e' -o "$TMP/t2" stackcollapse-perf.pl 2>/dev/null |
			/usr/bin/time -f '%U %S %M %e' -o "$TMP/t3" flamegraph.pl >"$TMP/base.svg" 2>/dev/null
		cat "$TMP/t1" "$TMP/t2" "$TMP/t3" | awk '{ c[NR] = $1 + $2; t += c[NR]; if ($3 > m) m = $3; if ($4 > w) w = $4 }
			END { printf "%.2f %d %s %.2f %.2f+%.2f+%.2f\n", t, m, w, c[1] + c[2], c[1], c[2], c[3] }'
	}
else
	base_name="perf script (FlameGraph scripts not installed)"
	baseline() {
		local t m w
		read -r t m w < <(measure "$TMP/base.txt" "$PERF" script -i "$TMP/big.data")
		echo "$t $m $w $t $t"
	}
fi

et=() em=() ew=() pt=() pm=() pw=() ft=() pf=() ps=()
for i in 1 2 3; do
	# ember three times around each pipeline run, as bench/collapse.sh does
	for j in 1 2 3; do
		bench_run "$TMP/e.svg" "$EMBER" flamegraph -q -i "$TMP/big.data" -o -
		et+=("$BR_CPU") em+=("$BR_RSS") ew+=("$BR_WALL")
		bench_run "$TMP/e.folded" "$EMBER" flamegraph -q -i "$TMP/big.data" --folded
		ft+=("$BR_CPU")
	done
	read -r t m w f st < <(baseline)
	pt+=("$t") pm+=("$m") pw+=("$w") pf+=("$f") ps+=("$st")
done
if [ -n "$have_scripts" ] && ! grep -q '<svg' "$TMP/base.svg"; then
	echo "flamegraph: the FlameGraph pipeline wrote no SVG, its figures are wrong"
fi
me=$(median "${et[@]}")
mp=$(median "${pt[@]}")
mf=$(median "${ft[@]}")
mpf=$(median "${pf[@]}")
re=$(median "${em[@]}")
rp=$(median "${pm[@]}")
echo "flamegraph: perf.data -> SVG in $me s of cpu with ember flamegraph, $mp s with $base_name" \
	"($(echo "scale=1; $mp / ($me + 0.001)" | bc)x); --folded in $mf s;" \
	"wall $(median "${ew[@]}") s vs $(median "${pw[@]}") s (load average $(cut -d' ' -f1 /proc/loadavg))"
[ -n "$have_scripts" ] && echo "flamegraph: the pipeline's stages took ${ps[*]} s of cpu" \
	"(perf script + stackcollapse-perf.pl + flamegraph.pl, runs 1 to 3);" \
	"--folded against the first two: $mf s vs $mpf s ($(echo "scale=1; $mpf / ($mf + 0.001)" | bc)x)"
echo "flamegraph: peak memory $((re / 1024)) MB for ember, $((rp / 1024)) MB for $base_name"
printf 'result\tflamegraph-cpu (perf.data->SVG)\t%s\t%s\ts\t<=0.02\n' "$me" "$mp"
printf 'result\tflamegraph-memory (peak RSS)\t%s\t%s\tMB\t<=1.0\n' \
	"$(echo "scale=1; $re / 1024" | bc)" "$(echo "scale=1; $rp / 1024" | bc)"
printf 'result\tflamegraph-folded-cpu (->folded)\t%s\t%s\ts\t<=0.02\n' "$mf" "$mpf"
[ -n "$have_scripts" ] || echo "flamegraph: the ratios are against perf script alone, a floor for the pipeline"
