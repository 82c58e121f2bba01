#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember top against perf top, the same view (see bench/run.sh for the output):
#   top-cpu   the cpu time (user + system) of the top process itself while it
#             shows the whole system for SECS seconds at perf's defaults
#             (4000 Hz cpu-clock, -d 2, --stdio), a hotloop spinning on one
#             cpu meanwhile; median of 3 runs each, interleaved. Goal: ember
#             at most a quarter of perf's.
#   top-tui-cpu the same in the browser (no --stdio) on a pseudo-terminal
#             script(1) gives both, its output discarded (script's own copying
#             counted on both sides). Goal: the same quarter.
set -u
. "$(dirname "$0")/lib.bash"
bench_init top
SECS=${TOP_BENCH_SECS:-10}
WL="$BUILD/workloads/hotloop"
[ -x "$WL" ] || { echo "top bench: $WL is missing (make first)"; exit 1; }

# cpu_s MODE TOOL: cpu seconds of TOOL top over SECS seconds, its output
# discarded, its stdin a pipe that stays open (perf top reads keys from
# it): "--stdio" as it is, "tui" in the browser on script(1)'s terminal.
cpu_s() {
	local load cmd="timeout -s INT $SECS $2 top -d 2"
	"$WL" $(( (SECS + 2) * 1000 )) &
	load=$!
	if [ "$1" = tui ]; then
		bench_run - sh -c "sleep $((SECS + 1)) | TERM=xterm-256color script -qefc \
			'$cmd' /dev/null >/dev/null"
	else
		bench_run - sh -c "sleep $((SECS + 1)) | $cmd --stdio >/dev/null"
	fi
	wait $load
	echo "$BR_CPU $BR_RSS"
}

# compare MODE NAME: ember's and perf's, 3 runs each interleaved, the medians as NAME
compare() {
	local e=() p=() ek=0 pk=0 i c k
	for i in 1 2 3; do
		if [ $((i % 2)) = 1 ]; then
			read -r c k < <(cpu_s "$1" "$EMBER"); e+=("$c"); ek=$k
			read -r c k < <(cpu_s "$1" "$PERF"); p+=("$c"); pk=$k
		else
			read -r c k < <(cpu_s "$1" "$PERF"); p+=("$c"); pk=$k
			read -r c k < <(cpu_s "$1" "$EMBER"); e+=("$c"); ek=$k
		fi
		echo "top bench $1 run $i: ember ${e[-1]} s, perf ${p[-1]} s of cpu in $SECS s"
	done
	result "$2 (system-wide, ${SECS} s, 4 kHz)" "$(median "${e[@]}")" "$(median "${p[@]}")" \
		s "<=0.25" "$ek" "$pk"
}

compare --stdio top-cpu
if command -v script >/dev/null; then
	compare tui top-tui-cpu
else
	echo "top bench: script(1) is missing, no browser case"
fi
