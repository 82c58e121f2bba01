#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember watch's cost while it waits (see bench/run.sh for the output):
#   watch-idle-cpu  cpu time (user + system) of ember watch itself over SECS
#                   seconds at its defaults (every cpu, -F 99 callchains into
#                   backward buffers, /proc/stat every 100 ms), with a
#                   threshold no cpu reaches (nothing is written), against
#                   perf's flight recorder holding the same samples (perf
#                   record -a -g -F 99 --overwrite) over the same time, in
#                   percent of one cpu. Goals: under 1 % of one cpu, and no
#                   more than perf's (ratio <= 1).
set -u
. "$(dirname "$0")/lib.bash"
bench_init watch
SECS=${WATCH_BENCH_SECS:-20}
dir=$(mktemp -d /tmp/ember-bench-watch.XXXXXX)

# pct CMD...: the cpu time of CMD stopped by SIGINT after SECS seconds, in % of one cpu
pct() {
	bench_run - timeout -s INT "$SECS" "$@"
	echo "scale=4; 100 * $BR_CPU / $SECS" | bc
}

# a threshold no cpu reaches here: all of its time in iowait
e=$(pct "$EMBER" watch --iowait 100 -q -o "$dir")
p=$(pct "$PERF" record -q -a -g -F 99 --overwrite --no-buildid -o "$dir/perf.data")
echo "watch bench: ember watch ${e} % of one cpu waiting $SECS s, perf record --overwrite ${p} %"
awk -v e="$e" 'BEGIN { exit !(e < 1.0) }' && echo "watch bench: under 1 % of one cpu: yes" ||
	echo "watch bench: under 1 % of one cpu: NO"
result "watch-idle-cpu (% of one cpu, ${SECS} s)" "$e" "$p" "%" "<=1.0"
rm -rf "$dir"
