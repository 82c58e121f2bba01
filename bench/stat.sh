#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember stat against perf stat on the same commands (see bench/run.sh for the output):
#   stat-overhead   dd of 1M 512-byte blocks counted with 'syscalls:sys_enter_*':
#                   the command's elapsed time under each tool (median of 5,
#                   interleaved; the kernel does the same work for both, so
#                   expect 1.0 give or take the VM's noise)
#   stat-startup    20 x 'stat true', total wall time
#   stat-setup      'stat -e syscalls:sys_enter_* true', wall time until the tool exits
set -u
. "$(dirname "$0")/lib.bash"
bench_init stat
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null


# ember hands tracepoint fds to a detached closer; let it finish so perf
# does not queue behind it on the kernel's event_mutex, then let the
# kernel's deferred frees of either tool settle before the next run.
wait_closers() {
	while pgrep -x ember >/dev/null; do sleep 0.2; done
	sleep 1
}

# wall_s CMD...: seconds CMD takes, its output discarded.
wall_s() {
	local t0 t1
	t0=$(now_ns)
	"$@" >/dev/null 2>&1
	t1=$(now_ns)
	echo "scale=6; ($t1 - $t0) / 1000000000" | bc
}

# elapsed_s TOOL: the "seconds time elapsed" the tool reports for the dd run.
elapsed_s() {
	"$1" stat -e 'syscalls:sys_enter_*' -- dd if=/dev/zero of=/dev/null bs=512 count=1M \
		2>&1 >/dev/null | awk '/seconds time elapsed/ { print $1 }'
}


# (1) overhead of counting every syscall entry of a syscall-heavy command
e=() p=()
for i in 1 2 3 4 5; do
	# Alternate who goes first, so neither always runs right after the other.
	if [ $((i % 2)) = 1 ]; then
		wait_closers
		e+=("$(elapsed_s "$EMBER")")
		wait_closers
		p+=("$(elapsed_s "$PERF")")
	else
		wait_closers
		p+=("$(elapsed_s "$PERF")")
		wait_closers
		e+=("$(elapsed_s "$EMBER")")
	fi
done
printf 'result\tstat-overhead (dd, sys_enter_*)\t%s\t%s\ts\t<=1.0\n' \
	"$(median "${e[@]}")" "$(median "${p[@]}")"

# (2) start-up: 20 runs each
wait_closers
t0=$(now_ns)
for i in $(seq 20); do "$EMBER" stat true >/dev/null 2>&1; done
te=$(echo "scale=6; ($(now_ns) - $t0) / 1000000000" | bc)
t0=$(now_ns)
for i in $(seq 20); do "$PERF" stat true >/dev/null 2>&1; done
tp=$(echo "scale=6; ($(now_ns) - $t0) / 1000000000" | bc)
printf 'result\tstat-startup (20 x stat true)\t%s\t%s\ts\t<=1.0\n' "$te" "$tp"

# (3) setup and teardown of 300+ tracepoint counters
wait_closers
te=$(wall_s "$EMBER" stat -e 'syscalls:sys_enter_*' true)
wait_closers
tp=$(wall_s "$PERF" stat -e 'syscalls:sys_enter_*' true)
# peak memory of one more run of each
wait_closers
ke=$(peak_rss_kb "$EMBER" stat -e 'syscalls:sys_enter_*' true)
wait_closers
kp=$(peak_rss_kb "$PERF" stat -e 'syscalls:sys_enter_*' true)
result "stat-setup (sys_enter_* true)" "$te" "$tp" s "<=0.05" "$ke" "$kp"
