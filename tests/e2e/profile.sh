#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember profile (stacks counted in the kernel by BPF): a workload with known
# hot stacks (hotloop: hot_a twice hot_b's work) profiled as a command and by
# -p, its hottest stacks those of ember record -g + ember flamegraph on the
# same work, the SVG the one ember flamegraph draws of the folded output,
# -g limiting the frames, --interval's files, ^C writing what was counted,
# and bad input refused with one line and a non-zero exit.
. "$(dirname "$0")/../lib/e2e.sh"
cd "$TMP" || exit 1

if ! is_root; then
	skip setup "ember profile needs root (BPF on perf events)"
	exit 0
fi
if ! "$EMBER" profile -d 0.1 -a >/dev/null 2>probe.txt && grep -qi bpf probe.txt; then
	skip setup "the kernel refuses ember profile's BPF: $(head -1 probe.txt)"
	exit 0
fi

# sum FILE PATTERN: the samples of the stacks matching PATTERN
sum() { awk -v re="$2" '$1 ~ re { n += $NF } END { print n + 0 }' "$1"; }
# top FILE: the hottest stack of a folded file
top() { sort -t' ' -k2,2nr -k1,1 "$1" | head -1 | sed 's/ [0-9]*$//'; }

# --- a command: hot_a's stacks above hot_b's, rooted at the comm
"$EMBER" profile -F 999 -o cmd.folded -o cmd.svg -o cmd.txt -- "$WL/hotloop" 700 2>cmd.err
expect_eq cmd-exit $? 0
a=$(sum cmd.folded ';hot_a$'); b=$(sum cmd.folded ';hot_b$')
if [ "$a" -gt "$b" ] && [ "$b" -gt 0 ]; then pass cmd-hot-a-above-hot-b; else
	fail cmd-hot-a-above-hot-b "hot_a $a, hot_b $b"; fi
check cmd-top-is-hot-a grep -q '^hotloop;.*;hot_a$' <(top cmd.folded)
expect_eq cmd-only-the-command "$(cut -d';' -f1 cmd.folded | sort -u)" hotloop
check cmd-text-hottest grep -q '^ *[0-9.]*% *[0-9]*  hot_a <- ' <(grep -v '^#' cmd.txt | head -1)
# the SVG is ember flamegraph's drawing of the same folded stacks
"$EMBER" flamegraph -q cmd.folded -o again.svg
check svg-is-flamegraphs cmp cmd.svg again.svg
if command -v xmllint >/dev/null; then
	check svg-parses xmllint --noout cmd.svg
else
	check svg-parses grep -q '</svg>' cmd.svg
fi

# --- the same work recorded: the same hottest stack (frames named alike)
"$EMBER" record -q -F 999 -g -o rec.data -- "$WL/hotloop" 700 >/dev/null 2>&1
"$EMBER" flamegraph -q --folded --annotate kernel --count-samples -i rec.data -o rec.folded
expect_eq same-top-as-record "$(top cmd.folded)" "$(top rec.folded)"

# --- -p: a running process, until -d
"$WL/hotloop" 3000 &
pid=$!
sleep 0.2
"$EMBER" profile -F 999 -p "$pid" -d 1 -o pid.folded 2>pid.err
expect_eq pid-exit $? 0
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
a=$(sum pid.folded ';hot_a$'); b=$(sum pid.folded ';hot_b$')
if [ "$a" -gt "$b" ] && [ "$b" -gt 0 ]; then pass pid-hot-a-above-hot-b; else
	fail pid-hot-a-above-hot-b "hot_a $a, hot_b $b"; fi
expect_eq pid-only-the-process "$(cut -d';' -f1 pid.folded | sort -u)" hotloop

# --- -g: kernel frames only (writes: a loop of write(2)), or user frames only
# frames FILE: every frame but the roots, one a line
frames() { sed 's/ [0-9]*$//' "$1" | cut -s -d';' -f2- | tr ';' '\n'; }
"$EMBER" profile -F 999 -g kernel -- "$WL/writes" 300000 >kern.folded 2>/dev/null
if [ -s kern.folded ] && ! frames kern.folded | grep -qv '_\[k\]$'; then pass g-kernel-only
else fail g-kernel-only "$(head -3 kern.folded)"; fi
"$EMBER" profile -F 999 -g both -- "$WL/writes" 300000 >both.folded 2>/dev/null
check g-both-has-user-frames grep -q '^writes;[^ ]*write[^ ]*;entry_SYSCALL' both.folded
# [vdso] frames are "_[k]" by stackcollapse-perf.pl's rule: they stay
"$EMBER" profile -F 999 -g user -- "$WL/writes" 300000 >user.folded 2>/dev/null
if [ -s user.folded ] && ! frames user.folded | grep -v vdso | grep -q '_\[k\]$'; then
	pass g-user-only
else
	fail g-user-only "$(grep '_\[k\]' user.folded | head -3)"
fi

# --- --interval: a file per read, each with its own counts
"$EMBER" profile -F 999 --interval 0.3 -o iv.folded -- "$WL/hotloop" 800 2>/dev/null
if [ -s iv.folded ] && [ -s iv.folded.1 ]; then pass interval-files; else
	fail interval-files "$(ls iv.folded*)"; fi

# --- lost stacks: a counts map of 2 keys fills; one warning at the end, perf's style
"$EMBER" profile -F 999 --max-entries 2 -- "$WL/writes" 300000 >lost.folded 2>lost.err
check lost-counted grep -Eq '^Lost [1-9][0-9]* of [0-9]+ stack samples \([1-9][0-9]*: the counts map was full, [0-9]+: stack map collisions\)$' lost.err
expect_eq lost-keys-kept "$(($(wc -l <lost.folded) <= 2))" 1

# --- -d ends a longer command: it is stopped, the counts written, exit 0
start=$(date +%s)
"$EMBER" profile -F 999 -d 0.5 -o dur.folded -- "$WL/hotloop" 20000 2>dur.err
expect_eq duration-exit $? 0
if [ $(( $(date +%s) - start )) -lt 15 ] && [ -s dur.folded ]; then pass duration-stops-command
else fail duration-stops-command "$(cat dur.err)"; fi

# --- ^C: what was counted is written, exit 0
"$EMBER" profile -a -F 199 -o int.folded 2>int.err &
pid=$!
sleep 1
kill -INT "$pid"
wait "$pid"
expect_eq sigint-exit $? 0
check sigint-wrote test -s int.folded

# --- bad input: one line, non-zero exit
bad() { # NAME WANT-EXIT ARGS...
	local name=$1 want=$2 rc
	shift 2
	"$EMBER" profile "$@" >bad.out 2>bad.err
	rc=$?
	if [ "$rc" = "$want" ] && [ "$(wc -l <bad.err)" = 1 ] && [ ! -s bad.out ]; then
		pass "$name"
	else
		fail "$name" "exit $rc, stderr: $(cat bad.err)"
	fi
}
bad bad-stacks 2 -g sideways -- true
bad bad-event 2 -e no-such-event -- true
bad tracepoint-event 2 -e sched:sched_switch -- true
bad dead-pid 1 -p 2147483646
bad no-target 2
bad two-targets 2 -a -p 1
bad no-command 127 -- ./no-such-command
# no privileges: BPF refused, said in one line naming what is missing
if command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$EMBER" profile -a -d 0.2 \
		>bad.out 2>bad.err
	rc=$?
	if [ "$rc" = 1 ] && [ "$(wc -l <bad.err)" = 1 ] && grep -q 'CAP_BPF' bad.err; then
		pass unprivileged
	else
		fail unprivileged "exit $rc, stderr: $(cat bad.err)"
	fi
else
	skip unprivileged "setpriv is not installed"
fi
