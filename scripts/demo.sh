#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember's main job on a bundled workload: record it with callchains, print
# the top of the report, and draw the flame graph, straight from perf.data.
#   DEMO_DIR  where perf.data, report.txt and flame.svg go (default $BUILD/demo)
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
dir=${DEMO_DIR:-$BUILD/demo}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
ember=$BUILD/ember
workload=$BUILD/workloads/hotloop

# hotloop spins in two functions, hot_a doing more work per call than hot_b:
# both the report and the flame graph should put hot_a first.
echo "# ember record -g -- $workload 1500" >&2
"$ember" record -g -o "$dir/perf.data" -- "$workload" 1500

echo >&2
echo "# ember report --stdio --no-children -g none (top lines)" >&2
"$ember" report --stdio --no-children -g none -i "$dir/perf.data" >"$dir/report.txt"
grep -v '^$' "$dir/report.txt" | head -n 20

echo >&2
"$ember" flamegraph -i "$dir/perf.data" -o "$dir/flame.svg" \
	--title "hotloop: ember flamegraph"
echo "flame graph: $dir/flame.svg (open it in a browser: click to zoom, Ctrl-F to search)"
