# SPDX-License-Identifier: GPL-2.0-only
# Helpers shared by tests/e2e/probe*.sh (sourced after tests/lib/e2e.sh,
# never run on its own: run.sh only runs *.sh). A suite sets PGROUPS, the
# groups it makes probes in (and no other suite does), then calls
# probe_suite_start.

EVENTS=/sys/kernel/tracing/uprobe_events

# probe_suite_needs WORKLOAD...: perf, root with uprobe_events, objcopy (the
# suites strip a copy), ember and the workloads built; returns 1 after a
# skip line when one is missing (the suite exits 0).
probe_suite_needs() {
	local wl
	if ! have_perf; then
		skip setup "perf not installed"
		return 1
	fi
	if ! is_root || ! have_tracefs || [ ! -e "$EVENTS" ]; then
		skip setup "needs root and uprobe_events in tracefs (CONFIG_UPROBE_EVENTS)"
		return 1
	fi
	if ! command -v objcopy >/dev/null; then
		skip setup "no objcopy (binutils) to strip a copy of a workload's debug information"
		return 1
	fi
	for wl in "$@"; do
		if [ ! -x "$EMBER" ] || [ ! -x "$WL/$wl" ]; then
			skip setup "no $EMBER or $WL/$wl; build first"
			return 1
		fi
	done
}

# perf probe -x keeps a cache per binary in its build-id directory: the suite's own
perf_probe() { "$PERF" --buildid-dir "$TMP/debug" probe "$@"; }

# The lines of uprobe_events in the suite's groups.
ours() {
	local re
	re=$(IFS='|'; echo "${PGROUPS[*]}")
	grep -E "^[pr]:($re)/" "$EVENTS"
}

# Remove the suite's probes; an event a closing profiler still holds is
# busy a moment: try again.
cleanup() {
	local try g
	for try in 1 2 3 4 5 6 7 8 9 10; do
		for g in "${PGROUPS[@]}"; do
			perf_probe -q -d "$g:*" >/dev/null 2>&1
		done
		[ -z "$(ours)" ] && return 0
		sleep 0.2
	done
}

# The suite's probes removed at exit whatever happened, and none before it
# starts; returns 1 after a skip line when some cannot be removed.
probe_suite_start() {
	trap 'cleanup; rm -rf "$TMP"' EXIT
	cleanup
	if [ -n "$(ours)" ]; then
		skip setup "probes of this suite's groups exist and cannot be removed"
		return 1
	fi
}

# same_line NAME ARGS...: perf's and ember's uprobe_events lines for the same
# command, each tool removing its probes after, and their messages (perf's
# with ember for perf).
same_line() {
	local name=$1 pl el
	shift
	perf_probe "$@" >/dev/null 2>perf.err
	pl=$(ours)
	cleanup
	"$EMBER" probe "$@" >/dev/null 2>ember.err
	el=$(ours)
	cleanup
	if [ -n "$pl" ] && [ "$pl" = "$el" ]; then
		pass "line-$name"
	else
		fail "line-$name" "perf: '$pl' ember: '$el' ($(head -3 ember.err))"
	fi
	expect_eq "messages-$name" "$(cat ember.err)" "$(sed 's/perf/ember/g' perf.err)"
}
