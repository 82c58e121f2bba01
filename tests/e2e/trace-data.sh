#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# lib/trace against perf 6.1, on files real perf records (file and pipe mode,
# and a wide mix of event systems): the TRACING_DATA they carry prints every
# sample as `perf script -F trace` does; the blob ember builds for the same
# tracepoints is byte for byte perf's and prints the same. The C side is
# unit/trace_perf_file. The wide case resolves kernel addresses (%ps, %pS)
# from /proc/kallsyms as perf does, through ember_trace__set_function_resolver().
. "$(dirname "$0")/../lib/e2e.sh"

UNIT="$BUILD/unit-tests"
CASES="file pipe wide"
CHECKS="unit print-from-perf-blob print-from-ember-blob ember-blob-equals-perf-blob"

skip_all() {
	for c in $CASES; do
		for k in $CHECKS; do skip "$c-$k" "$1"; done
	done
	exit 0
}

have_perf || skip_all "perf not installed"
is_root || skip_all "needs root to record tracepoints system-wide"
have_tracefs || skip_all "no tracefs"
[ -x "$UNIT" ] || skip_all "no $UNIT: make $UNIT"

# Lines "<time in ns> <fields>", sorted: samples with the same timestamp on
# different cpus may come in either order (that is the session's business).
perf_lines() {
	sed -E 's/^ *([0-9]+)\.([0-9]{9}): /\1\2 /; s/^0+([0-9])/\1/' | LC_ALL=C sort
}

# run_case NAME DATA [kallsyms]: compare ember's printing and blob with perf's for DATA
run_case() {
	local name=$1 data=$2 kallsyms=${3:-} dir="$TMP/$1" n f
	mkdir -p "$dir"
	# perf reads a pipe-mode file only as a stream
	if [ "$name" = pipe ]; then
		"$PERF" script --ns -F time,trace -i - <"$data" 2>/dev/null | perf_lines >"$dir/perf.txt"
	else
		"$PERF" script --ns -F time,trace -i "$data" 2>/dev/null | perf_lines >"$dir/perf.txt"
	fi
	n=$(wc -l <"$dir/perf.txt")
	if EMBER_TRACE_KALLSYMS=$kallsyms EMBER_TRACE_PERF_DATA="$data" EMBER_TRACE_OUT="$dir" \
		"$UNIT" trace_perf_file \
		>"$dir/unit.log" 2>&1 && grep -q '^ok   unit/trace_perf_file' "$dir/unit.log"; then
		pass "$name-unit"
	else
		fail "$name-unit" "$(head -5 "$dir/unit.log")"
	fi
	for f in from-file from-ember; do
		LC_ALL=C sort "$dir/$f.txt" >"$dir/$f.sorted" 2>/dev/null
	done
	if [ "$n" -gt 0 ] && cmp -s "$dir/perf.txt" "$dir/from-file.sorted"; then
		pass "$name-print-from-perf-blob"
	else
		fail "$name-print-from-perf-blob" "$n lines from perf script;" \
			"$(diff "$dir/perf.txt" "$dir/from-file.sorted" 2>&1 | head -4)"
	fi
	if [ "$n" -gt 0 ] && cmp -s "$dir/perf.txt" "$dir/from-ember.sorted"; then
		pass "$name-print-from-ember-blob"
	else
		fail "$name-print-from-ember-blob" \
			"$(diff "$dir/perf.txt" "$dir/from-ember.sorted" 2>&1 | head -4)"
	fi
	if cmp "$dir/perf-blob.bin" "$dir/ember-blob.bin" >"$dir/cmp.log" 2>&1; then
		pass "$name-ember-blob-equals-perf-blob"
	else
		fail "$name-ember-blob-equals-perf-blob" "$(cat "$dir/cmp.log")"
	fi
}

events="-e sched:sched_switch -e syscalls:sys_enter_write"
# shellcheck disable=SC2086
"$PERF" record -q -o "$TMP/perf.data" $events -a sleep 0.2 >/dev/null 2>&1
run_case file "$TMP/perf.data"
# shellcheck disable=SC2086
"$PERF" record -q -o - $events -a sleep 0.2 >"$TMP/pipe.data" 2>/dev/null
run_case pipe "$TMP/pipe.data"
# shellcheck disable=SC2086
"$PERF" record -q -o "$TMP/wide.data" -e 'sched:*' -e 'irq:*' -e 'timer:*' -e 'kmem:*' \
	-e 'block:*' -e 'workqueue:*' -e 'signal:*' -e 'task:*' -e 'maple_tree:*' -a -- \
	sh -c "sleep 0.1; dd if=/dev/zero of=$TMP/zero bs=64k count=16 oflag=direct; sync" \
	>/dev/null 2>&1
run_case wide "$TMP/wide.data" 1
