# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the ember probe suites after e2e.sh: their setup checks, perf
# probe with the suite's own build-id directory, and the suite's probe
# groups listed and removed (at exit too, whatever happened).

EVENTS=/sys/kernel/tracing/uprobe_events

# probe_suite_needs: perf, root and uprobe_events; 1 after a skip line when one is missing.
probe_suite_needs() {
	if ! have_perf; then
		skip setup "perf not installed"
		return 1
	fi
	if ! is_root || ! have_tracefs || [ ! -e "$EVENTS" ]; then
		skip setup "needs root and uprobe_events in tracefs (CONFIG_UPROBE_EVENTS)"
		return 1
	fi
}

# perf probe -x keeps a cache per binary in its build-id directory: the suite's own
perf_probe() { "$PERF" --buildid-dir "$TMP/debug" probe "$@"; }

# probe_groups GROUP...: the groups ours and cleanup handle, and the exit trap
# that removes them; 1 after a skip line when some of them cannot be removed.
probe_groups() {
	PROBE_GROUPS=("$@")
	trap 'cleanup; rm -rf "$TMP"' EXIT
	cleanup
	if [ -n "$(ours)" ]; then
		skip setup "probes of this suite's groups exist and cannot be removed"
		return 1
	fi
}

# The lines of uprobe_events in the suite's groups.
ours() { grep -E "^[pr]:($(IFS='|'; echo "${PROBE_GROUPS[*]}"))/" "$EVENTS"; }

cleanup() {
	local try g
	# an event a closing profiler still holds is busy a moment: try again
	for try in 1 2 3 4 5 6 7 8 9 10; do
		for g in "${PROBE_GROUPS[@]}"; do
			perf_probe -q -d "$g:*" >/dev/null 2>&1
		done
		[ -z "$(ours)" ] && return 0
		sleep 0.2
	done
}

# same_line NAME ARGS...: perf's and ember's lines for the same command, each
# tool removing its own probes after; their messages too (perf's with ember
# for perf).
same_line() {
	local name=$1 pl el pe ee
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
		fail "line-$name" "perf: '$pl' ember: '$el' ($(head -2 ember.err))"
	fi
	pe=$(sed 's/perf/ember/g' perf.err)
	ee=$(cat ember.err)
	expect_eq "messages-$name" "$ee" "$pe"
}
