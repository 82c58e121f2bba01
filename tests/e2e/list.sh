#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember list against perf list on the same machine: each category, globs,
# the tracepoint pipelines people run on it, --raw-dump and --json.
. "$(dirname "$0")/../lib/e2e.sh"

# same NAME ARGS...: `ember list ARGS` prints exactly what `perf list ARGS` prints.
same() {
	local name=$1
	shift
	"$PERF" list "$@" >"$TMP/perf.out" 2>&1
	"$EMBER" list "$@" >"$TMP/ember.out" 2>&1
	if cmp -s "$TMP/perf.out" "$TMP/ember.out"; then
		pass "$name"
	else
		fail "$name" "ember list $* differs from perf list:"
		diff "$TMP/perf.out" "$TMP/ember.out" | head -10 | sed 's/^/     /'
	fi
}

if [ ! -x "$EMBER" ]; then
	fail build "no $EMBER"
	exit 0
fi

# Usage and option errors, whatever the machine.
out=$("$EMBER" list -h 2>&1)
expect_eq help_exit "$?" 0
case "$out" in *"Usage: ember list"*"--json"*) pass help_text ;; *) fail help_text "$out" ;; esac
"$EMBER" list --no-such-option >/dev/null 2>&1
expect_eq bad_option_exit "$?" 2

if ! have_perf; then
	skip vs_perf "perf is not installed"
	exit 0
fi

same sw sw
same software software
same hw hw
same cache cache
same pmu pmu
same unknown_word no-such-event-anywhere
same glob_symbols 'faults'
same glob_case_insensitive_pmu 'MSR'
same several_categories sw hw cache
# SDT events come from perf's build-id cache (~/.debug), whatever it holds now.
same sdt sdt
same raw_dump_sdt --raw-dump sdt

if ! is_root || ! have_tracefs; then
	skip tracepoints "needs root and tracefs"
	exit 0
fi

same tracepoint tracepoint
same sched_glob 'sched:*'
same tp_glob_both_parts '*:sched_sw*'
same tp_glob_empty_event 'sched:'
same bare_word_any_name sched
same raw_dump_sw --raw-dump sw
same raw_dump_tracepoint --raw-dump tracepoint
same raw_dump_glob --raw-dump 'sched:sched_w*'

# Everything, up to perf's "Metric Groups:" section: ember has no metrics
# (perf's come from its built-in JSON tables for this CPU model).
# Tracepoints, SDT events and all must match line for line.
"$PERF" list 2>&1 | sed '/^$/,$d' >"$TMP/perf.all"
"$EMBER" list >"$TMP/ember.all" 2>&1
if cmp -s "$TMP/perf.all" "$TMP/ember.all"; then
	pass everything
else
	fail everything "ember list differs from perf list (metrics aside):"
	diff "$TMP/perf.all" "$TMP/ember.all" | head -10 | sed 's/^/     /'
fi

# The pipeline people run on perf list's output.
summary='/Tracepoint event/ { lib[$1]++ } END { for (l in lib) { printf "  %-16.16s %d\n", l, lib[l] } }'
want=$("$PERF" list | awk -F: "$summary" | sort | column)
got=$("$EMBER" list | awk -F: "$summary" | sort | column)
if [ -n "$want" ] && [ "$want" = "$got" ]; then
	pass awk_summary
else
	fail awk_summary "tracepoint-per-system summaries differ"
fi

# As an unprivileged user: software events still listed, tracepoints not, as
# perf; where perf is silent about it, ember says why once on stderr.
if command -v setpriv >/dev/null 2>&1; then
	as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	for what in sw tracepoint; do
		want=$(as_nobody "$PERF" list "$what" 2>/dev/null)
		got=$(as_nobody "$EMBER" list "$what" 2>"$TMP/unpriv.err")
		expect_eq "unprivileged_$what" "$got" "$want"
	done
	if as_nobody test -r /sys/kernel/tracing/events; then
		skip unprivileged_tracepoint_why "tracefs is readable by nobody here"
	else
		expect_eq unprivileged_tracepoint_why_once "$(grep -c . "$TMP/unpriv.err")" 1
		check unprivileged_tracepoint_why grep -q \
			'tracepoints not listed: .*root.*mount -o remount,mode=755' "$TMP/unpriv.err"
	fi
else
	skip unprivileged "setpriv is not installed"
fi

# tracefs not mounted: ember mounts it, as perf does. In a private mount
# namespace, so nothing else on the machine sees it go.
if command -v unshare >/dev/null 2>&1 && unshare -m --propagation private true 2>/dev/null; then
	want=$("$EMBER" list tracepoint | wc -l)
	got=$(unshare -m --propagation private sh -c '
		umount /sys/kernel/tracing 2>/dev/null
		grep -q " /sys/kernel/tracing tracefs" /proc/mounts && exit 1
		"$0" list tracepoint | wc -l
		grep -q " /sys/kernel/tracing tracefs" /proc/mounts || echo "(not mounted)"' "$EMBER")
	expect_eq mounts_tracefs "$got" "$want"
else
	skip mounts_tracefs "no unshare, or mount namespaces not allowed"
fi

# JSON: valid, one object per event, the same events as the text output.
if command -v python3 >/dev/null 2>&1; then
	for what in sw 'sched:*' pmu no-such-event; do
		if n=$("$EMBER" list -j "$what" | python3 -c '
import json, sys
print(len(json.load(sys.stdin)))' 2>&1); then
			expect_eq "json_$what" "$n" "$("$EMBER" list "$what" | wc -l)"
		else
			fail "json_$what" "$n"
		fi
	done
	check json_everything sh -c "'$EMBER' list --json | python3 -m json.tool >/dev/null"
else
	skip json "python3 is not installed"
fi
