#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember report --sort trace against perf report 6.1: a tracepoint
# sample's fields as text are the key (perf's default sort for a file of
# tracepoints only, not for a pipe), "N/A" for other events; with
# callchains and with other keys.
. "$(dirname "$0")/../lib/e2e.sh"
. "$(dirname "$0")/../lib/report-lib.bash"

if ! have_perf; then
	skip setup "perf is not installed"
	exit 0
fi
if ! is_root || ! have_tracefs; then
	skip setup "tracepoints need root and tracefs"
	exit 0
fi
cd "$TMP" || exit 1

rec w -e syscalls:sys_enter_write -- "$WL/writes" 40 || exit 0
rec wg -g -e syscalls:sys_enter_write -- "$WL/writes" 40 || exit 0
rec sw -e sched:sched_switch -a -- sleep 0.3 || exit 0
rec mix -e syscalls:sys_enter_write -e cpu-clock -- "$WL/writes" 40 || exit 0

for f in w wg sw; do
	same "trace-default-$f" -i $f.data
	same "trace-$f" -i $f.data --sort trace
	same "trace-comm-$f" -i $f.data --sort comm,trace -n
	same "trace-then-$f" -i $f.data --sort trace,pid
done
same trace-self -i wg.data --no-children --sort trace
same trace-sym -i wg.data --sort sym,trace
same trace-mixed -i mix.data --sort trace
same trace-mixed-default -i mix.data
# a pipe: perf picks its default sort before it knows the events
"$PERF" record -q -e syscalls:sys_enter_write -o - -- "$WL/writes" 5 2>/dev/null >w.pipe
perf_report -i - <w.pipe >pipe.perf
"$EMBER" report --stdio -i - <w.pipe >pipe.ember 2>pipe.err
if [ -s pipe.perf ] && cmp -s pipe.perf pipe.ember; then
	pass trace-pipe-default
else
	fail trace-pipe-default "$(diff pipe.perf pipe.ember | head -8; head -3 pipe.err)"
fi
