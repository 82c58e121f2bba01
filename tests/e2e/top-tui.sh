#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember top in the browser, driven in tmux (send-keys, capture-pane): perf
# top's title line, the hot symbol of a busy workload with its percentage
# within a few seconds system-wide and with -p, a refresh that changes the
# numbers, a -g entry expanded live, a filter and a zoom kept across
# refreshes, z and f, and q and ^C that stop the sampling and give the
# terminal back (the shell's prompt, a sane tty,
# no ember left). Each wait polls the screen and gives up after seconds.
. "$(dirname "$0")/../lib/e2e.sh"

if ! command -v tmux >/dev/null; then
	skip setup "tmux is not installed (scripts/deps.sh installs it)"
	exit 0
fi
if ! is_root && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 0 ]; then
	skip setup "system-wide sampling needs root or perf_event_paranoid <= 0"
	exit 0
fi

# a copy of its own: other suites running meanwhile spin "hotloop"s too
HOT="$TMP/tuihot"
cp "$WL/hotloop" "$HOT"
"$HOT" 60000 &
hot=$!

SOCK="ember-toptui-$$"
T() { tmux -L "$SOCK" -f /dev/null "$@"; }
T new-session -d -s keeper "sleep 600"
SOCKPATH=$(T display-message -p '#{socket_path}')
trap 'kill $hot 2>/dev/null; T kill-server 2>/dev/null; rm -f "$SOCKPATH"; rm -rf "$TMP"' EXIT

# wait_for SESSION REGEX [TRIES]: until the pane matches (0.1 s a try, 5 s by default)
wait_for() {
	local i
	for i in $(seq "${3:-50}"); do
		T capture-pane -p -t "$1" 2>/dev/null | grep -qE -- "$2" && return 0
		sleep 0.1
	done
	return 1
}

# shell NAME COMMAND: COMMAND typed at a shell's prompt in a 150x30 pane (the title's width)
shell() {
	T new-session -d -s "$1" -x 150 -y 30 "bash --norc --noprofile"
	T send-keys -t "$1" "PS1='PROMPT> '; clear" Enter
	wait_for "$1" "PROMPT>" || return 1
	T send-keys -t "$1" "$2; echo STATUS=\$?" Enter
}

# ember_pid NAME: the ember the pane's shell runs
ember_pid() { pgrep -P "$(T display -p -t "$1" '#{pane_pid}')" -x ember; }

# row_pct NAME SYM: the first percentage of SYM's row on the screen
row_pct() {
	T capture-pane -p -t "$1" | awk -v s="$2" '$NF == s { for (i = 1; i < NF; i++) if ($i ~ /%$/) { print $i; exit } }'
}

# quits NAME KEY: KEY leaves, the terminal restored, the prompt back, no ember left
quits() {
	local name=$1 pid
	pid=$(ember_pid "$name")
	T send-keys -t "$name" "$2"
	wait_for "$name" "^STATUS=0$" 30 || return 1
	[ "$(T display -p -t "$name" '#{alternate_on}')" = 0 ] || return 1
	[ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null || return 1
	T send-keys -t "$name" "stty -a | tr ' ;' '\\n\\n' | grep -cxE 'icanon|echo' | sed 's/^/SANE=/'" Enter
	wait_for "$name" "SANE=2"
}

title_re="^Samples: [0-9]+[KMG ]? of event 'cpu-clock[:a-zA-Z]*', 4000 Hz, Event count \(approx\.\): [0-9]+ lost: [0-9]+/[0-9]+ drop: 0/0"

# 1. system-wide: the title, the hot symbol within seconds, a refresh that changes it
if shell all "$EMBER top -d 1" && wait_for all "$title_re" && wait_for all "tuihot +\[\.\] hot_a$"; then
	pass title
	pass system-wide-hot
	check helpline grep -q "For a higher level overview, try: ember top --sort comm,dso" \
		<(T capture-pane -p -t all)
	[ "$(T display -p -t all '#{alternate_on}')" = 1 ] && pass alternate-screen ||
		fail alternate-screen "not on the alternate screen"
	# -d 1: within 3 s another refresh, other numbers in the title
	first=$(T capture-pane -p -t all | head -1)
	changed=
	for i in $(seq 30); do
		[ "$(T capture-pane -p -t all | head -1)" != "$first" ] && changed=1 && break
		sleep 0.1
	done
	[ -n "$changed" ] && pass refresh-changes || fail refresh-changes "the title stayed: $first"
	# z: zeroing shown in the title; f: the events off, then on again
	T send-keys -t all z
	wait_for all "drop: 0/0 \[z\]" && pass key-z || fail key-z "$(T capture-pane -p -t all | head -1)"
	T send-keys -t all f
	wait_for all "Press 'f' again to re-enable the events" && pass key-f-off ||
		fail key-f-off "$(T capture-pane -p -t all | tail -1)"
	T send-keys -t all f
	wait_for all "Press 'f' to disable the events" && pass key-f-on ||
		fail key-f-on "$(T capture-pane -p -t all | tail -1)"
	# the symbol filter holds across refreshes: only hot_ rows, a second later too
	T send-keys -t all /
	sleep 0.3
	T send-keys -t all "hot_" Enter
	sleep 1.3
	rows=$(T capture-pane -p -t all | awk 'NR > 2 && $1 ~ /%$/')
	if [ -n "$rows" ] && ! grep -qv 'hot_' <<<"$rows"; then pass filter-kept; else
		fail filter-kept "$(head -3 <<<"$rows")"; fi
	T send-keys -t all /
	sleep 0.3
	T send-keys -t all Enter
	# the help window is as tall as perf's: more lines than 30 rows hold
	T resize-window -t all -x 150 -y 50
	sleep 0.3
	T send-keys -t all '?'
	wait_for all "Toggle zeroing of samples" && pass help-top-keys ||
		fail help-top-keys "no z in the help window"
	T send-keys -t all Escape
	if quits all q; then pass quit-restores; else
		fail quit-restores "$(T capture-pane -p -t all | grep -v '^$' | tail -3)"; fi
else
	fail system-wide-hot "$(T capture-pane -p -t all | head -5)"
fi

# 2. -p with -g: the process's own samples, an entry expanded live
if shell pid "$EMBER top -d 1 -g -p $hot" && wait_for pid "tuihot +\[\.\] hot_a$"; then
	pct=$(row_pct pid hot_a)
	if awk -v p="${pct%\%}" 'BEGIN { exit !(p + 0 >= 10) }'; then pass pid-hot; else
		fail pid-hot "hot_a at $pct"; fi
	# the row of hot_a current (a first key shows the bar), then e unfolds it
	row=$(T capture-pane -p -t pid | awk 'NR > 2 && /\[\.\] hot_a$/ { print NR - 3; exit }')
	keys=(Down)
	for ((i = 0; i < row; i++)); do keys+=(Down); done
	T send-keys -t pid "${keys[@]}"
	sleep 0.3
	T send-keys -t pid e
	if wait_for pid '^-  +[0-9.]+%.*\[\.\] hot_a' && wait_for pid '^ +[-+ ] +[0-9.]+% '; then
		pass g-expand
	else
		fail g-expand "$(T capture-pane -p -t pid | head -8)"
	fi
	# still unfolded after the next refresh
	sleep 1.2
	wait_for pid '^-  +[0-9.]+%.*\[\.\] hot_a' && pass g-kept-across-refresh ||
		fail g-kept-across-refresh "$(T capture-pane -p -t pid | head -8)"
	# d on that entry: into its dso, still after the next refresh
	T send-keys -t pid d
	if wait_for pid "Event count \(approx\.\): [0-9]+, DSO: tuihot lost:"; then
		first=$(T capture-pane -p -t pid | head -1)
		sleep 1.2
		if wait_for pid "DSO: tuihot lost:" && [ "$(T capture-pane -p -t pid | head -1)" != "$first" ]; then
			pass zoom-kept
		else
			fail zoom-kept "$(T capture-pane -p -t pid | head -1)"
		fi
	else
		fail zoom-kept "$(T capture-pane -p -t pid | head -1)"
	fi
	if quits pid C-c; then pass ctrl-c-restores; else
		fail ctrl-c-restores "$(T capture-pane -p -t pid | grep -v '^$' | tail -3)"; fi
else
	fail pid-hot "$(T capture-pane -p -t pid | head -5)"
fi

# 3. --stdio on a terminal stays text, and so does TERM=dumb
if shell txt "TERM=dumb $EMBER top -d 1 -p $hot" && wait_for txt "PerfTop:"; then
	pass dumb-terminal-text
	T send-keys -t txt q
	wait_for txt "^STATUS=0$" 30 || fail dumb-terminal-quit "no status after q"
else
	fail dumb-terminal-text "$(T capture-pane -p -t txt | head -3)"
fi
