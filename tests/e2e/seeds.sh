#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Every perf list/stat/record/report/script/annotate/probe/top/trace line of the seed tutorials
# (tests/seeds/commands.txt, which says where each comes from), run as typed
# with 'perf' being ember, then with 'perf' being perf 6.1 on the same
# machine. A line passes when ember exits as perf does (zero or not), when a
# line this kernel cannot do (the WHY column) fails with a stderr line saying
# why, and, where the output is deterministic (list, stat's event column),
# when it is laid out as perf's. 'perf probe' lines that add uprobes run one
# tool after the other, each tool's additions deleted after its run.
#   SEEDS_PERF=0   run ember only (no comparison with perf)
#   SEEDS_ONLY=RE  run only the lines whose command matches the regex RE
#   SEEDS_VERBOSE=1  show both tools' stderr for every line
. "$(dirname "$0")/../lib/e2e.sh"
. "$(dirname "$0")/stat-lib.bash"

SEEDS="$TOP/tests/seeds/commands.txt"
if ! is_root; then
	skip all "the seed lines use -a and tracepoints: needs root"
	exit 0
fi
if ! have_tracefs; then
	skip all "tracefs is not mounted and cannot be mounted"
	exit 0
fi
use_perf=${SEEDS_PERF:-1}
if [ "$use_perf" = 1 ] && ! have_perf; then
	use_perf=0
	echo "     (perf is not installed: ember's exit status is checked alone)"
fi

# 'perf' on PATH is the tool under test.
mkdir -p "$TMP/bin-ember" "$TMP/bin-perf"
ln -s "$EMBER" "$TMP/bin-ember/perf"
[ "$use_perf" = 1 ] && ln -s "$(command -v "$PERF")" "$TMP/bin-perf/perf"

# $PID: a process that lives through the suite, sleeping 5 ms at a time
# (context switches, syscalls, scheduler tracepoints).
"$WL/sleeper" 100000000 5 &
PID=$!
UPROBES=/sys/kernel/tracing/uprobe_events
# probes_delete DEF...: deletes the uprobes of these uprobe_events lines
# (p:GROUP/EVENT ...) by exact name, the ones still there.
probes_delete() {
	local def name
	for def in "$@"; do
		name=${def%% *}
		name=${name#*:}
		grep -q "^[pr]:$name " "$UPROBES" 2>/dev/null && echo "-:$name" >>"$UPROBES"
	done 2>/dev/null
	return 0
}
# Every probe a line added, in case the suite stops between a line and
# its cleanup: deleted on exit, nothing else.
probes_added=()
trap 'kill $PID 2>/dev/null; probes_delete "${probes_added[@]}"; rm -rf "$TMP"' EXIT
# Something to compress for "gzip largefile" and "gzip vmlinux".
head -c 1048576 "$EMBER" >"$TMP/fixture"

# start_line TOOL DIR COMMAND: starts COMMAND with bash in DIR, 'perf' being
# TOOL, in a process group of its own (setsid) with SIGINT not ignored (bash
# ignores it in background jobs), as a terminal's foreground job. Sets $lpid;
# stdout and stderr go to DIR/out and DIR/err.
start_line() {
	local tool=$1 d=$2 cmd=$3

	mkdir -p "$d"
	rm -f "$d"/largefile* "$d"/vmlinux*
	cp "$TMP/fixture" "$d/largefile"
	cp "$TMP/fixture" "$d/vmlinux"
	(cd "$d" && HOME="$d" D="$d" PID=$PID WL="$WL" EMBER="$EMBER" \
		PATH="$TMP/bin-$tool:$PATH" exec env --default-signal=INT setsid \
		bash -c "set -o pipefail; $cmd" >"$d/out" 2>"$d/err" </dev/null) &
	lpid=$!
}

# finish_lines CTRLC ALL PID...: waits for the lines started (with ALL=0 only
# for the first one); with CTRLC, sends SIGINT to each one's process group
# after 0.5 s (2.5 s for a sanitized ember), as ^C in a terminal would (30 s
# otherwise, then 30 s more before SIGKILL). Sets rcs[PID] for the ones
# waited for. It looks every 20 ms against the clock: most lines end between
# two looks, and looking every 0.1 s cost 50 ms a line on average, twice
# (this wait and perf's below).
declare -A rcs
tick=0.02
# nap: waits a tick reading a pipe nobody writes to, without a process
# (forks by the thousand wrap pids round, pid_max being 32768 here, and
# bash forgets a finished job whose pid comes back: wait says 127).
exec {nap_fd}<> <(:)
nap() { read -r -t $tick -u $nap_fd _ || true; }
# A sanitized ember takes longer to set up hundreds of tracepoint counters
# (sched:*): ^C before it counts would end it before it prints anything.
ctrlc_us=500000
ember_sanitized && ctrlc_us=2500000
finish_lines() {
	local ctrlc=$1 all=$2 wait_us=30000000 end alive p
	shift 2
	[ -n "$ctrlc" ] && wait_us=$ctrlc_us
	for pass in 1 2; do
		end=$((${EPOCHREALTIME/./} + wait_us))
		while :; do
			alive=0
			if [ "$all" = 1 ]; then
				for p in "$@"; do kill -0 "$p" 2>/dev/null && alive=1; done
			else
				kill -0 "$1" 2>/dev/null && alive=1
			fi
			[ $alive = 0 ] && break
			((${EPOCHREALTIME/./} >= end)) && break
			nap
		done
		[ $alive = 0 ] && break
		for p in "$@"; do
			kill -0 "$p" 2>/dev/null || continue
			if [ $pass = 1 ]; then kill -INT -- -"$p"; else kill -KILL -- -"$p"; fi
		done 2>/dev/null
		wait_us=30000000
	done
	[ "$all" = 1 ] || set -- "$1"
	for p in "$@"; do
		wait "$p"
		rcs[$p]=$?
	done
}

# probe_line TOOL DIR COMMAND CTRLC: runs a 'perf probe' line alone, with
# TOOL's probes from the lines before it in the same run of probe lines
# (saved_ember, saved_perf) put back for a -l/--list line to see, as in
# the tutorial; deletes after it whatever it added (saving that) and what
# was put back. Sets prc_line to its exit status.
declare -A saved
probe_line() {
	local tool=$1 d=$2 cmd=$3 ctrlc=$4 def back=() before added=()

	case "$cmd" in
	*" -l"* | *" --list"*)
		while IFS= read -r def; do
			[ -n "$def" ] && echo "$def" >>"$UPROBES" 2>/dev/null && back+=("$def")
		done <<<"${saved[$tool]:-}"
		;;
	esac
	before=$(cat "$UPROBES")
	start_line "$tool" "$d" "$cmd"
	finish_lines "$ctrlc" 1 $lpid
	prc_line=${rcs[$lpid]}
	probes_since "$before"
	for def in "${added[@]}"; do saved[$tool]="${saved[$tool]:-}$def"$'\n'; done
	probes_delete "${back[@]}"
}

# probes_since BEFORE: sets added to the uprobe_events lines not in BEFORE
# (an earlier cat of it), and deletes them.
probes_since() {
	local def
	added=()
	while IFS= read -r def; do
		[ -n "$def" ] && added+=("$def")
	done < <(grep -vxF -f <(printf '%s\n' "$1") "$UPROBES")
	probes_added+=("${added[@]}")
	probes_delete "${added[@]}"
}

# layout KIND DIR: the deterministic part of a line's output.
layout() {
	case "$1" in
	list | probe) cat "$2/out" ;;
	stat) stat_events_of <"$2/err" ;;
	esac
}

# evaluate NAME CMD WHY CTRLC EDIR ERC PDIR PRC: pass or fail one line from
# both runs' exit status and output (PRC empty: ember alone).
evaluate() {
	local name=$1 cmd=$2 why=$3 ctrlc=$4 ed=$5 erc=$6 pd=$7 prc=$8 kind=

	# perf crashed (SIGABRT, SIGBUS, SIGFPE, SIGSEGV: perf 6.1's list aborted
	# once with "double free or corruption"): no oracle, ember judged alone
	case "$prc" in
	134 | 135 | 136 | 139)
		echo "     perf crashed (rc=$prc: $(head -c 200 "$pd/err" | tr '\n' '|')): ember alone"
		prc=
		;;
	esac
	# perf top ^C'd while it still sets up (over 0.5 s for a tracepoint on
	# every cpu, or under load): it dies by SIGINT before it shows a screen
	# on stdout: no oracle.
	case "$cmd" in
	"perf top"*)
		if [ -n "$ctrlc" ] && [ "$prc" = 130 ] && ! [ -s "$pd/out" ]; then
			echo "     perf was ^C'd before it showed a screen: ember alone"
			prc=
		fi
		;;
	esac
	if [ "${SEEDS_VERBOSE:-0}" = 1 ]; then
		echo "     ember rc=$erc: $(head -c 600 "$ed/err" | tr '\n' '|')"
		[ -n "$prc" ] && echo "     perf  rc=$prc: $(head -c 600 "$pd/err" | tr '\n' '|')"
		echo "     ember out: $(head -c 300 "$ed/out" | tr '\n' '|')"
		[ -n "$prc" ] && echo "     perf  out: $(head -c 300 "$pd/out" | tr '\n' '|')"
	fi
	if [ -n "$why" ]; then
		# Not possible here: ember must fail, and say why in a line.
		if [ "$erc" = 0 ]; then
			fail "$name" "ember exits 0; want a failure matching /$why/"
		elif ! grep -Eq -- "$why" "$ed/err"; then
			fail "$name" "ember exits $erc without a line matching /$why/:" \
				"$(head -5 "$ed/err" | tr '\n' '|')"
		elif [ -n "$prc" ] && [ "$prc" = 0 ] && ! grep -Eq -- "$why" "$pd/err"; then
			fail "$name" "perf succeeds here but the line is marked as impossible"
		else
			pass "$name"
		fi
		return
	fi
	# The same status as perf's (130 for both after ^C, a command's own
	# failure passed through); else zero where perf's is zero.
	if [ -n "$prc" ] && [ "$erc" != "$prc" ]; then
		if [ $((erc == 0)) != $((prc == 0)) ]; then
			fail "$name" "ember exits $erc, perf $prc:" \
				"ember: $(head -3 "$ed/err" | tr '\n' '|')" \
				"perf: $(head -3 "$pd/err" | tr '\n' '|')"
			return
		fi
		if [ "$erc" != 0 ]; then
			fail "$name" "both fail (ember $erc, perf $prc): mark the line with a WHY" \
				"ember: $(head -3 "$ed/err" | tr '\n' '|')" \
				"perf: $(head -3 "$pd/err" | tr '\n' '|')"
			return
		fi
	fi
	if [ -z "$prc" ] && [ "$erc" != 0 ] && ! { [ -n "$ctrlc" ] && [ "$erc" = 130 ]; }; then
		fail "$name" "ember exits $erc: $(head -3 "$ed/err" | tr '\n' '|')"
		return
	fi
	case "$cmd" in
	"perf list '"*) kind=list ;;
	"perf stat "*) kind=stat ;;
	"perf probe "*" -F"* | "perf probe "*" -V "*) kind=probe ;;
	esac
	if [ -n "$kind" ] && [ -n "$prc" ]; then
		if diff <(layout $kind "$ed") <(layout $kind "$pd") >"$TMP/diff"; then
			pass "$name"
		else
			fail "$name" "output laid out unlike perf's:" "$(head -10 "$TMP/diff")"
		fi
		return
	fi
	pass "$name"
}

# Lines whose perf run is left to finish in the background: perf stat
# closes hundreds of tracepoint counters one RCU grace period at a time
# (12 s for syscalls:sys_enter_*) after printing. Judged at the end.
deferred=()
US=$'\x1f'

nline=0
while IFS= read -r line; do
	case "$line" in '#'* | '') continue ;; esac
	IFS=$'\t' read -r -a f <<<"$line"
	seed=${f[0]} cmd=${f[1]} ctrlc= why= skipwhy=
	for x in "${f[@]:2}"; do
		case "$x" in
		'^C') ctrlc=1 ;;
		'!'*) why=${x#!} ;;
		'?'*) skipwhy=${x#\?} ;;
		esac
	done
	nline=$((nline + 1))
	# A run of probe lines ends: its probes are no longer put back.
	case "$cmd" in "perf probe"*) ;; *) saved=() ;; esac
	if [ -n "${SEEDS_ONLY:-}" ] && ! [[ $cmd =~ $SEEDS_ONLY ]]; then
		continue
	fi
	name="${seed%%_*}:$nline:$cmd"
	if [ -n "$skipwhy" ]; then
		skip "$name" "$skipwhy"
		continue
	fi
	# record, report, script and annotate lines share a directory (perf.data goes
	# from one to the next, as in the tutorials); the others get their own.
	case "$cmd" in
	"perf record"* | "perf report"* | "perf script"* | "perf annotate"*) ed=$TMP/ember pd=$TMP/perf ;;
	*) ed=$TMP/$nline-ember pd=$TMP/$nline-perf ;;
	esac
	t0=$(date +%s%N)
	# A probe line that may add a probe runs one tool after the other; one
	# that cannot work here (WHY) cannot add one: both at once, as the rest.
	if [[ $cmd == "perf probe"* ]] && [ -z "$why" ]; then
		probe_line ember "$ed" "$cmd" "$ctrlc"
		erc=$prc_line prc=
		if [ "$use_perf" = 1 ]; then
			probe_line perf "$pd" "$cmd" "$ctrlc"
			prc=$prc_line
		fi
		[ "${SEEDS_VERBOSE:-0}" = 1 ] && echo "     $((($(date +%s%N) - t0) / 1000000)) ms"
		evaluate "$name" "$cmd" "$why" "$ctrlc" "$ed" "$erc" "$pd" "$prc"
		continue
	fi
	uprobes_before=
	[[ $cmd == "perf probe"* ]] && uprobes_before=$(cat "$UPROBES")
	# Both tools at once: the suite takes half the time, and nothing
	# compared depends on the other one's load.
	start_line ember "$ed" "$cmd"
	epid=$lpid
	ppid=
	if [ "$use_perf" = 1 ]; then
		start_line perf "$pd" "$cmd"
		ppid=$lpid
	fi
	if [ -n "$ppid" ] && [ "$ed" != "$TMP/ember" ]; then
		finish_lines "$ctrlc" 0 $epid $ppid
		# perf gets 2 s more before it is left for the end.
		end=$((${EPOCHREALTIME/./} + 2000000))
		while kill -0 $ppid 2>/dev/null && ((${EPOCHREALTIME/./} < end)); do nap; done
		if kill -0 $ppid 2>/dev/null; then
			deferred+=("$name$US$cmd$US$why$US$ctrlc$US$ed$US${rcs[$epid]}$US$pd$US$ppid")
			continue
		fi
		finish_lines "" 1 $ppid
	else
		finish_lines "$ctrlc" 1 $epid $ppid
	fi
	[ "${SEEDS_VERBOSE:-0}" = 1 ] && echo "     $(( ($(date +%s%N) - t0) / 1000000 )) ms"
	prc=
	[ -n "$ppid" ] && prc=${rcs[$ppid]}
	evaluate "$name" "$cmd" "$why" "$ctrlc" "$ed" "${rcs[$epid]}" "$pd" "$prc"
	# (one that worked after all, on a kernel with kprobes: none left behind)
	[[ $cmd == "perf probe"* ]] && probes_since "$uprobes_before"
done <"$SEEDS"

for d in "${deferred[@]}"; do
	IFS=$US read -r name cmd why ctrlc ed erc pd ppid <<<"$d"
	finish_lines "" 1 $ppid
	evaluate "$name" "$cmd" "$why" "$ctrlc" "$ed" "$erc" "$pd" "${rcs[$ppid]}"
done

# Two checks from the same audit, outside the seeds: what a user meets when
# a line above cannot work for them.
if [ -z "${SEEDS_ONLY:-}" ]; then
	# Unprivileged (paranoid 2, tracefs root-only): 'list tracepoint' says why, once.
	if command -v setpriv >/dev/null 2>&1 &&
		! setpriv --reuid=65534 --regid=65534 --clear-groups test -r /sys/kernel/tracing/events; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$EMBER" list tracepoint \
			>"$TMP/l.out" 2>"$TMP/l.err"
		expect_eq unprivileged-list-tracepoint-status "$?" 0
		expect_eq unprivileged-list-tracepoint-why-once "$(grep -c . "$TMP/l.err")" 1
		check unprivileged-list-tracepoint-why grep -q 'tracepoints not listed: .*root' "$TMP/l.err"
	else
		skip unprivileged-list-tracepoint "no setpriv, or tracefs readable by nobody here"
	fi
	# perf stat -r 0: a block per run until ^C, then death by SIGINT (130).
	start_line ember "$TMP/r0" "perf stat -r 0 -e task-clock sleep 0.1"
	finish_lines 1 1 $lpid
	expect_eq stat-repeat-forever-status "${rcs[$lpid]}" 130
	n=$(grep -c 'Performance counter stats' "$TMP/r0/err")
	if [ "$n" -ge 2 ]; then pass stat-repeat-forever-runs; else
		fail stat-repeat-forever-runs "$n blocks: $(head -5 "$TMP/r0/err" | tr '\n' '|')"; fi
	# Counts lost on a full disk: not exit 0, one line naming the error.
	if [ -c /dev/full ]; then
		"$EMBER" stat -o /dev/full -- true 2>"$TMP/full.err"
		code=$?
		if [ "$code" != 0 ] && grep -q 'No space left on device' "$TMP/full.err"; then
			pass stat-output-full-disk
		else
			fail stat-output-full-disk "exit $code: $(head -3 "$TMP/full.err" | tr '\n' '|')"
		fi
	else
		skip stat-output-full-disk "/dev/full is not the full device here"
	fi
fi
