#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs the unit tests and every tests/e2e/*.sh; ends with one line
# "N passed, N failed[, N skipped]" (after the slowest suites and their
# seconds) and exits non-zero when any failed.
#   tests/run.sh [PATTERN]   only the e2e suites whose name contains PATTERN
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
export BUILD
results=$(mktemp /tmp/ember-results.XXXXXX)
times=$(mktemp /tmp/ember-times.XXXXXX)
export EMBER_RESULTS=$results
pattern=${1:-}

if [ -z "$pattern" ]; then
	[ -x "$BUILD/unit-tests" ] || echo "FAIL unit/(no $BUILD/unit-tests binary)" >>"$results"
	"$BUILD/unit-tests" 2>&1 | while IFS= read -r line; do
		case "$line" in
		"ok   "*|"FAIL "*|"skip "*) echo "$line"; echo "$line" >>"$results" ;;
		*) echo "$line" ;;
		esac
	done
fi

for t in tests/e2e/*.sh; do
	[ -e "$t" ] || continue
	case "$t" in *"$pattern"*) ;; *) continue ;; esac
	echo "== $t"
	start=$SECONDS
	if ! bash "$t"; then
		line="FAIL $(basename "$t" .sh)/(script exited non-zero)"
		echo "$line"
		echo "$line" >>"$results"
	fi
	# How long each suite took, to find the slow ones (not a check).
	echo "$((SECONDS - start)) $t" >>"$times"
done

passed=$(grep -c '^ok ' "$results")
failed=$(grep -c '^FAIL ' "$results")
skipped=$(grep -c '^skip ' "$results")
rm -f "$results"
echo
if [ -s "$times" ]; then
	# a whole run: every suite's seconds, slowest first, for whoever trims it
	[ -z "$pattern" ] && sort -rn "$times" >"$BUILD/e2e-times.txt" 2>/dev/null
	echo "slowest suites (s): $(sort -rn "$times" | head -6 | awk '{ sub(".*/", "", $2); printf "%s%s %d", (NR > 1 ? ", " : ""), $2, $1 }')"
fi
rm -f "$times"
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
