# SPDX-License-Identifier: GPL-2.0-only
# The events ember record opens are perf record 6.1's: for each command
# line below both tools record `true` and the "# event :" lines of
# `perf report --header-only` (name, attr fields, sample and read formats;
# ids aside) must be the same. This covers the default event and its
# fallback to cpu-clock without a PMU, -c/-F/-F max, callchain modes,
# -a's tracking dummy, ID versus IDENTIFIER, tracepoints and globs,
# groups, modifiers and the sampling flags.
. "$(dirname "$0")/../lib/e2e.sh"

if ! have_perf; then
	skip setup "perf not installed"
	exit 0
fi
if ! is_root; then
	skip setup "needs root for -a and tracepoints"
	exit 0
fi
if [ ! -x "$EMBER" ]; then
	skip setup "no $EMBER; build first"
	exit 0
fi
have_tracefs || true

events() {
	"$PERF" report --header-only -i "$1" 2>/dev/null | grep '^# event :' |
		sed 's/id = {[^}]*}, //'
}

# compare NAME ARGS...: both tools record `true` with ARGS, in the
# background, four command lines at a time (perf record waits up to a
# second for its side-band thread at the end: 1.2 s a line); judge checks
# them all in order at the end.
names=() cmds=()
compare() {
	local d="$TMP/c${#names[@]}"
	names+=("$1")
	shift
	cmds+=("$*")
	mkdir "$d"
	{
		"$PERF" record -q -o "$d/p.data" "$@" -- true >/dev/null 2>&1
		"$EMBER" record -q -o "$d/e.data" "$@" -- true >/dev/null 2>&1
	} &
	while [ "$(jobs -rp | wc -l)" -ge 4 ]; do
		wait -n
	done
}

judge() {
	local i want got
	wait
	for i in "${!names[@]}"; do
		want=$(events "$TMP/c$i/p.data")
		got=$(events "$TMP/c$i/e.data")
		if [ -z "$want" ]; then
			skip "${names[i]}" "perf could not record with: ${cmds[i]}"
		elif [ "$want" = "$got" ]; then
			pass "${names[i]}"
		else
			fail "${names[i]}" "ember record ${cmds[i]}"
			diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") | sed 's/^/     /'
		fi
	done
}

compare default
compare count -c 10000
compare freq -F 1000
compare freq-max -F max
compare cpu-clock -e cpu-clock
compare cycles-fallback -e cycles
compare two-events -e cpu-clock,task-clock
compare two-e -e cpu-clock -e page-faults
compare user-g -g -e cpu-clock:u
compare kernel -e cpu-clock:k
compare call-graph-fp --call-graph fp
compare call-graph-dwarf --call-graph dwarf
compare call-graph-dwarf-size --call-graph dwarf,4096
# perf's tokens: empty ones skipped, what follows the size ignored; fp's is a
# depth (sample_max_stack) when below the kernel's perf_event_max_stack
compare call-graph-dwarf-empty-size --call-graph dwarf,
compare call-graph-dwarf-size-after-empty --call-graph dwarf,,1024
compare call-graph-dwarf-size-then-more --call-graph dwarf,2048,x
compare call-graph-dwarf-size-rounded --call-graph dwarf,100
compare call-graph-fp-depth --call-graph fp,123
compare call-graph-fp-depth-over-max --call-graph fp,200
compare call-graph-fp-depth-not-a-number --call-graph fp,x
compare term-cg-dwarf-after-fp-depth --call-graph fp,3 -e cpu-clock/call-graph=dwarf/
# --user-regs with dwarf: only IP and SP forced, not every register
compare call-graph-dwarf-user-regs --user-regs=ip,sp --call-graph dwarf
compare call-graph-dwarf-user-regs-ax --user-regs=ax --call-graph dwarf,1024
compare term-cg-dwarf-user-regs --user-regs=ip -e cpu-clock/call-graph=dwarf/
compare system-wide -a
compare system-wide-g -a -g
compare cpu-list -C 0
compare system-wide-two -a -e cpu-clock -e task-clock
compare switch-events --switch-events
compare raw-samples -R
compare timestamp -T
compare data -d
compare no-inherit --no-inherit
compare per-thread --per-thread
compare per-thread-timestamp --per-thread -T
compare stat -s
compare period -P -c 1000
compare sample-cpu --sample-cpu
compare group -e '{cpu-clock,task-clock}'
compare group-u-a -e '{cpu-clock,task-clock}:u' -a
compare all-user --all-user
compare all-kernel --all-kernel
compare no-bpf-event --no-bpf-event
compare buildid-mmap --buildid-mmap
compare compressed -z
compare dummy -e dummy
if [ -d /sys/kernel/tracing/events/syscalls ]; then
	compare tracepoint -e syscalls:sys_enter_write
	compare tracepoint-glob -e 'syscalls:sys_enter_wr*'
	compare tracepoint-and-clock -e cpu-clock -e syscalls:sys_enter_write
	compare tracepoint-freq -e syscalls:sys_enter_write -F 100
else
	skip tracepoint "no syscalls tracepoints in tracefs"
fi

# Pipe mode forces sample ids (ID) even for one event, as perf.
"$PERF" record -q -o - -- true 2>/dev/null >"$TMP/p.pipe"
"$EMBER" record -q -o - -- true 2>/dev/null >"$TMP/e.pipe"
want=$("$PERF" report --header-only -i - <"$TMP/p.pipe" 2>/dev/null | grep '^# event :' | sed 's/id = {[^}]*}, //')
got=$("$PERF" report --header-only -i - <"$TMP/e.pipe" 2>/dev/null | grep '^# event :' | sed 's/id = {[^}]*}, //')
expect_eq "pipe" "$got" "$want"

# The options added for perf users: sample fields, registers, clocks, side-band records.
compare user-regs --user-regs
compare user-regs-list --user-regs=ax,bx
compare intr-regs --intr-regs
compare weight -W
compare transaction --transaction
compare phys-data --phys-data
compare data-page-size --data-page-size
compare code-page-size --code-page-size
compare clock-mono -k mono
compare clock-raw -k monotonic_raw
compare clock-realtime -k realtime
compare clock-boottime -k boottime
compare clock-tai -k tai
compare clock-number -k 1
compare namespaces --namespaces
compare all-cgroups --all-cgroups
compare no-samples -n
compare no-buffering --no-buffering
compare kernel-callchains --kernel-callchains -g
compare user-callchains --user-callchains -g
compare sample-identifier --sample-identifier
compare running-time --running-time
compare group-option --group -e cpu-clock,task-clock
compare system-wide-per-thread -a --per-thread
compare mmap-flush --mmap-flush 16
compare affinity --affinity=cpu
compare delay -D 10
compare overwrite --overwrite
compare tail-synthesize --tail-synthesize
# Per-event terms: perf's evsel__apply_config_terms() over the command line.
compare term-period -e cpu-clock/period=1000/
compare term-period-F -F 100 -e cpu-clock/period=1000/
compare term-freq -c 5000 -e cpu-clock/freq=100/
compare term-name -e cpu-clock/name=foo/
compare term-mods -e cpu-clock/period=1000/u
compare term-cg-fp -e cpu-clock/call-graph=fp/
compare term-cg-dwarf -e cpu-clock/call-graph=dwarf,stack-size=4096/
compare term-cg-no -g -e cpu-clock/call-graph=no/
compare term-cg-over-dwarf --call-graph dwarf -e cpu-clock/call-graph=fp/
compare term-max-stack -e cpu-clock/max-stack=5/
compare term-stack-size -e cpu-clock/stack-size=1000/
compare term-no-inherit -e cpu-clock/no-inherit/
compare term-inherit -i -e cpu-clock/inherit/
compare term-time -e cpu-clock/time=0/
compare term-percore -e cpu-clock/percore/
compare term-config -e cpu-clock/config=2/
compare term-two -e cpu-clock/call-graph=fp/,task-clock
compare term-pmu -e software/config=0,period=5/
if [ -d /sys/kernel/tracing/events/sched ]; then
	compare term-tracepoint -e sched:sched_switch/call-graph=no/
	compare term-tracepoint-fp -e sched:sched_switch/call-graph=fp/
fi
judge
