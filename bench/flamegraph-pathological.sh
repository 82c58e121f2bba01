#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember flamegraph on a pathological but honest profile (issue 21): folded
# stacks made by tests/tools/make-pathological-folded.py, 200,000 distinct
# stacks of 50 frames drawn at random from 3,000 names (90 MB of text, 10
# million nodes in the merged tree, nearly all narrower than minwidth), so
# the SVG draws a few thousand frames out of ten million. Rows (one run of
# each; see bench/run.sh for the output):
#   flamegraph-pathological-cpu     ember flamegraph (folded -> SVG) against
#                                   flamegraph.pl on the same text: cpu
#                                   seconds (goal 25 times faster: <=0.04)
#   flamegraph-pathological-memory  ember's peak RSS against the goal, 400 MB
#                                   (goal <=1.0; flamegraph.pl's is logged
#                                   and in the cpu row's memory columns)
#   flamegraph-pathological-collapse-cpu / -memory  the same on text of the
#                                   same shape as `ember collapse` writes
#                                   ("comm;" first, kernel frames "_[k]")
# flamegraph.pl: from PATH, else from FLAMEGRAPH_GIT, a git directory of
# brendangregg/FlameGraph (as the tool library's fetch brings it). It takes a
# minute and a half and 3.8 GB a run: the bench is skipped without
# EMBER_BENCH_PATHOLOGICAL=1, or with less than 5 GB of memory available.
# PATHOLOGICAL_STACKS sets the number of stacks (default 200000).
set -u
. "$(dirname "$0")/lib.bash"
bench_init flamegraph-pathological
if [ "${EMBER_BENCH_PATHOLOGICAL:-}" != 1 ]; then
	echo "flamegraph-pathological bench: opt-in (3 minutes, 4 GB), run with EMBER_BENCH_PATHOLOGICAL=1, skipped"
	exit 0
fi
avail_mb=$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo)
if [ "${avail_mb:-0}" -lt 5120 ]; then
	echo "flamegraph-pathological bench: 5 GB of memory available needed, ${avail_mb:-?} MB found, skipped"
	exit 0
fi
TMP=$(mktemp -d /tmp/ember-bench-flamegraph-pathological.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
PL=$(command -v flamegraph.pl)
if [ -z "$PL" ] && [ -n "${FLAMEGRAPH_GIT:-}" ] &&
	git --git-dir="$FLAMEGRAPH_GIT" show HEAD:flamegraph.pl >"$TMP/flamegraph.pl" 2>/dev/null; then
	PL="$TMP/flamegraph.pl"
fi
if [ -z "$PL" ]; then
	echo "flamegraph-pathological bench: flamegraph.pl is not on PATH and FLAMEGRAPH_GIT is unset, skipped"
	exit 0
fi
STACKS=${PATHOLOGICAL_STACKS:-200000}

for shape in plain collapse; do
	in="$TMP/$shape.folded"
	python3 tests/tools/make-pathological-folded.py --stacks "$STACKS" \
		$([ $shape = collapse ] && echo --collapse) >"$in"
	row=flamegraph-pathological
	[ $shape = collapse ] && row=flamegraph-pathological-collapse
	bench_run "$TMP/e.svg" "$EMBER" flamegraph -q "$in" -o -
	e_cpu=$BR_CPU e_rss=$BR_RSS e_wall=$BR_WALL
	bench_run "$TMP/p.svg" perl "$PL" "$in"
	p_cpu=$BR_CPU p_rss=$BR_RSS p_wall=$BR_WALL
	echo "$row: $((($(stat -c %s "$in") + 524288) / 1048576)) MB of folded text;" \
		"ember $e_cpu s cpu ($e_wall s wall), $((e_rss / 1024)) MB (goal 400 MB);" \
		"flamegraph.pl $p_cpu s cpu ($p_wall s wall), $((p_rss / 1024)) MB"
	# the same picture: as many rectangles (frames and the background)
	echo "$row: rectangles drawn: ember $(grep -c '<rect' "$TMP/e.svg"), flamegraph.pl $(grep -c '<rect' "$TMP/p.svg")"
	result "$row-cpu (folded->SVG)" "$e_cpu" "$p_cpu" s "<=0.04" "$e_rss" "$p_rss"
	result "$row-memory (RSS vs 400 MB)" "$e_rss" 409600 KB "<=1.0"
done
