#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember annotate's browser driven in tmux (send-keys, capture-pane) against
# perf annotate 6.1's on the same files: the first screen (centred on the
# hottest instruction, the current jump's arrows), H, the view keys (o, s,
# k, J, t), a resize, Enter on a call into the callee and back, P's file; report's
# Annotate (the a key, Enter's menu) and back; then the terminal given back
# after q, ^C and SIGTERM.
# Whole screens are compared, the bottom line included: perf's annotate
# browser shows a fixed line there, as ember's.
. "$(dirname "$0")/../lib/e2e.sh"
. "$(dirname "$0")/../lib/report-lib.bash"
. "$(dirname "$0")/../lib/tui-lib.bash"

tui_ready || exit 0
cd "$TMP" || exit 1

# screen SESSION: the pane as text
screen() {
	T capture-pane -p -t "$1"
}

# pair NAME CMD W H: ember's and perf's CMD (annotate or report and its
# arguments) in panes of W x H, e-NAME and p-NAME, up to their first screen
pair() {
	local name=$1 cmd=$2 w=$3 h=$4
	PAIR=$name
	start "e-$name" "$w" "$h" "LANG=C.UTF-8 $EMBER $cmd"
	start "p-$name" "$w" "$h" "LANG=C.UTF-8 $PERF $cmd"
	wait_for "e-$name" "Samples:" && wait_for "p-$name" "Samples:" && return 0
	fail "$name" "a browser did not start: $(screen "e-$name" | head -3)"
	return 1
}

# still SESSION...: until two captures of each pane 0.2 s apart are the same
still() {
	local i a b
	for i in $(seq 30); do
		a=$(for s in "$@"; do T capture-pane -p -e -t "$s"; done)
		sleep 0.2
		b=$(for s in "$@"; do T capture-pane -p -e -t "$s"; done)
		[ "$a" = "$b" ] && return
	done
}

# send KEYS...: the keys to both panes of the pair, until both are still
send() {
	local k
	for k in "$@"; do
		T send-keys -t "e-$PAIR" "$k"
		T send-keys -t "p-$PAIR" "$k"
		sleep 0.2
	done
	still "e-$PAIR" "p-$PAIR"
}

# same CHECK KEYS...: the keys sent, then the same screens, an annotate
# browser's (its column line; "Percent" scrolls away with the top row)
same() {
	local name=$1
	shift
	send "$@"
	screen "e-$PAIR" >"$name.ember"
	screen "p-$PAIR" >"$name.perf"
	if grep -q '│' "$name.ember" && cmp -s "$name.perf" "$name.ember"; then
		pass "$name"
	else
		fail "$name" "$(diff "$name.perf" "$name.ember" | head -12)"
	fi
}

if ! rec g -- "$WL/mixwork" 300 || ! rec plt -- "$WL/plt-calls" 60000; then
	exit 0
fi

# 1. the first screen: the hottest symbol, centred on its hottest line, the
# jump there drawn to its target; then moves, H back to the hottest line,
# and the views: raw addresses, line numbers, jump counts, periods and
# samples, the source hidden
if pair main "annotate -i g.data" 80 24; then
	same first-80x24
	same home Home Home
	same hottest Down H
	same view-o o
	same view-k o Home Home k
	same view-J k J
	same view-t J t t
	# p, b: global percentages, then of the samples; back to local periods
	same view-p t p
	same view-pb b
	send b p
	same view-s t Home Home H s
	# TAB, shift-TAB: the next cooler and hotter of the hot instructions (round)
	same tab s H Tab Tab
	same untab BTab BTab BTab
	# s from a source line: the next instruction
	same view-s-source Home Home s
fi
clean
pair big "annotate -i g.data" 100 30 && same first-100x30
# a resize: the screen follows the terminal (perf redraws no symbol line then)
if pair rs "annotate -i g.data" 80 24; then
	T resize-window -t e-rs -x 120 -y 35
	T resize-window -t p-rs -x 120 -y 35
	same resize
	same resize-moved Down Down
fi
clean
# a short symbol: rows under its last line
pair short "annotate -i g.data int_work" 80 24 && same first-short && same end End End
clean

# 2. calls: the callees' names, Enter into one, q back (perf's title lines then)
if "$PERF" annotate --stdio -i plt.data main 2>/dev/null | grep -q Percent; then
	if pair calls "annotate -i plt.data main" 100 30; then
		same calls Home Home PageDown
		# O: the calls' offsets too, then every instruction's, then back
		same view-O O
		same view-O-all O
		send O
		# (the search's window opened before its text is typed)
		send /
		send memset@plt
		same call-enter Enter Enter
		same call-back q
	fi
else
	skip calls "main of plt-calls got no sample"
fi
clean

# 5. P: the rows into SYM.annotation, as perf writes them
mkdir -p pe pp
start e-P 100 30 "cd pe && $EMBER annotate -i ../g.data switch_work"
start p-P 100 30 "cd pp && $PERF annotate -i ../g.data switch_work"
if wait_for e-P Samples: && wait_for p-P Samples:; then
	keys e-P P
	keys p-P P
	if [ -s pe/switch_work.annotation ] &&
		cmp -s pp/switch_work.annotation pe/switch_work.annotation; then
		pass print-P
	else
		fail print-P "$(diff pp/switch_work.annotation pe/switch_work.annotation | head -12)"
	fi
fi
clean

# 6. from report's browser: a, Enter's menu, and back where it was
pair report "report -i g.data" 100 30 && same report-a Down Down a
clean
start e-menu 100 30 "$EMBER report -i g.data"
if wait_for e-menu Samples:; then
	# on_screen CHECK REGEX: the pane shows a line matching REGEX
	on_screen() {
		if screen e-menu | grep -q "$2"; then pass "$1"; else
			fail "$1" "$(screen e-menu | head -5)"; fi
	}
	keys e-menu Enter
	# (which of mixwork's functions is hottest varies from run to run)
	on_screen menu-annotate '^Annotate [a-z]*_work '
	keys e-menu Enter
	on_screen menu-opens '^[a-z]*_work  .*mixwork \[Percent: local period\]'
	keys e-menu q
	on_screen back-to-report '^Overhead  Command'
fi
clean

# 7. colours, and none with NO_COLOR
start e-c 100 30 "$EMBER annotate -i g.data"
start e-nc 100 30 "NO_COLOR=1 $EMBER annotate -i g.data"
if wait_for e-c Samples: && wait_for e-nc Samples:; then
	# perf's: red percentages of 5 % and more, magenta addresses
	check colors grep -q $'\e\\[31m.*\e\\[35m' <(T capture-pane -p -e -t e-c)
	if T capture-pane -p -e -t e-nc | grep -q $'\e\\[3[0-7]m'; then
		fail no-color "colour escapes with NO_COLOR set"
	else
		pass no-color
	fi
fi
clean

# 8. the terminal given back: q, ^C, SIGTERM; Left (the previous symbol) then q
for how in q C-c SIGTERM "Left q"; do
	name=restore-${how// /-}
	status=0
	[ "$how" = SIGTERM ] && status=143
	# shellcheck disable=SC2086
	if in_shell "$name" Samples: "$EMBER annotate -i g.data" $how &&
		restored "$name" "$status"; then
		pass "$name"
	else
		fail "$name" "$(T capture-pane -p -t "$name" | grep -v '^$' | tail -5)"
	fi
	T kill-session -t "$name" 2>/dev/null
done

# TERM=dumb: the text, as perf prints it where its browser cannot run
T new-session -d -s dumb -x 100 -y 30 "TERM=dumb $EMBER annotate -i g.data; echo STATUS=\$?; sleep 600"
if wait_for dumb STATUS=0 && T capture-pane -p -S - -t dumb | grep -q 'Source code & Disassembly'; then
	pass dumb-terminal-text
else
	fail dumb-terminal-text "$(T capture-pane -p -t dumb | head -5)"
fi
# --stdio on a terminal stays text, without the alternate screen
T new-session -d -s stdio -x 100 -y 30 "$EMBER annotate --stdio -i g.data; echo STATUS=\$?; sleep 600"
if wait_for stdio STATUS=0 &&
	T capture-pane -p -S - -t stdio | grep -q 'Source code & Disassembly'; then
	pass stdio-on-terminal
else
	fail stdio-on-terminal "$(T capture-pane -p -t stdio | head -5)"
fi
clean
