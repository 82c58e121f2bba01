#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember stat as an unprivileged user with kernel.perf_event_paranoid=2:
# user-space counting falls back to ":u" as perf's does; what is refused
# is explained in one line that names perf_event_paranoid.
. "$(dirname "$0")/../lib/e2e.sh"

if ! is_root; then
	skip all "needs root to create the user and set perf_event_paranoid"
	exit 0
fi
user=ember-unpriv
if ! id "$user" >/dev/null 2>&1; then
	if ! useradd -M -r -s /bin/sh "$user" 2>/dev/null; then
		user=nobody
	fi
fi
paranoid=/proc/sys/kernel/perf_event_paranoid
old=$(cat "$paranoid")
trap 'echo "$old" >"$paranoid"; rm -rf "$TMP"' EXIT
echo 2 >"$paranoid"

# The user needs to reach the binaries.
if ! su "$user" -s /bin/sh -c "test -x '$EMBER'" 2>/dev/null; then
	skip all "$user cannot execute $EMBER (directory permissions)"
	exit 0
fi
as_user() { su "$user" -s /bin/sh -c "$*"; }

as_user "'$EMBER' stat -- '$WL/writes' 10" >/dev/null 2>"$TMP/o.txt"
expect_eq unpriv-default-status "$?" 0
check unpriv-default-falls-back grep -q 'msec task-clock:u' "$TMP/o.txt"
check unpriv-default-page-faults grep -qE '^ +[0-9]+ +page-faults:u ' "$TMP/o.txt"
if have_perf; then
	as_user "'$PERF' stat -- '$WL/writes' 10" >/dev/null 2>"$TMP/p.txt"
	expect_eq unpriv-events-match-perf \
		"$(grep -oE '[a-z-]+:u' "$TMP/o.txt" | tr '\n' ' ')" \
		"$(grep -oE '[a-z-]+:u' "$TMP/p.txt" | tr '\n' ' ')"
fi

as_user "'$EMBER' stat -a -e cpu-clock -- true" >/dev/null 2>"$TMP/o.txt"
code=$?
if [ "$code" -ne 0 ]; then pass unpriv-system-wide-fails; else
	fail unpriv-system-wide-fails "exit 0"; fi
expect_eq unpriv-system-wide-one-line "$(wc -l <"$TMP/o.txt")" 1
check unpriv-system-wide-explains grep -q 'perf_event_paranoid' "$TMP/o.txt"
check unpriv-system-wide-names-event grep -q "'cpu-clock'" "$TMP/o.txt"

as_user "'$EMBER' stat -e 'syscalls:sys_enter_write' -- true" >/dev/null 2>"$TMP/o.txt"
code=$?
if [ "$code" -ne 0 ]; then pass unpriv-tracepoint-fails; else
	fail unpriv-tracepoint-fails "exit 0"; fi
expect_eq unpriv-tracepoint-one-line "$(wc -l <"$TMP/o.txt")" 1
check unpriv-tracepoint-names-event grep -q "syscalls:sys_enter_write" "$TMP/o.txt"
exit 0
