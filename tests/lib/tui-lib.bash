# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the TUI suites (after e2e.sh): ember's and perf's browsers run
# in panes of a tmux server of the suite's own (send-keys, capture-pane).
# tui_ready first: false, after a skip line, when tmux or perf is missing.

tui_ready() {
	if ! command -v tmux >/dev/null; then
		skip setup "tmux is not installed (scripts/deps.sh installs it)"
		return 1
	fi
	if ! have_perf; then
		skip setup "perf is not installed"
		return 1
	fi
	# A session that lives as long as the suite: the server never exits between
	# checks (a client started while it shuts down finds it dying).
	T new-session -d -s keeper "sleep 3600"
	SOCKPATH=$(T display-message -p '#{socket_path}')
	# (e2e.sh's trap, EMBER_E2E_KEEP's included, after the server's end)
	trap 'T kill-server 2>/dev/null; rm -f "$SOCKPATH"
	      if [ -n "${EMBER_E2E_KEEP:-}" ]; then echo "kept $TMP" >&2; else rm -rf "$TMP"; fi' EXIT
}

# One tmux server of our own, gone at the end whatever happens.
SOCK="ember-tui-$$"
T() { tmux -L "$SOCK" -f /dev/null "$@"; }

# clean: every session but the keeper gone
clean() {
	local s
	for s in $(T list-sessions -F '#{session_name}' 2>/dev/null); do
		[ "$s" = keeper ] || T kill-session -t "$s"
	done
}

# wait_for SESSION TEXT: until the pane shows TEXT (30 s at most: perf reads
# a whole-system file with kernel stacks for seconds on a busy machine)
wait_for() {
	local i
	for i in $(seq 300); do
		T capture-pane -p -t "$1" 2>/dev/null | grep -qF -- "$2" && return 0
		sleep 0.1
	done
	return 1
}

# start SESSION W H CMD: a pane of W x H cells running CMD, then a shell's wait
start() {
	local s=$1 w=$2 h=$3
	shift 3
	T new-session -d -s "$s" -x "$w" -y "$h" "$* ; echo STATUS=\$?; sleep 600"
}

# keys SESSION KEYS...: each key, then time for the screen to follow:
# until two captures 0.3 s apart are the same (a loaded machine is slow)
keys() {
	keys_to "$1" -- "${@:2}"
}

# keys_to SESSION... -- KEYS...: each key to every session at once, then
# until each one's screen is still (ember's and perf's side by side)
keys_to() {
	local s k i a b sessions=()
	while [ "$1" != -- ]; do sessions+=("$1"); shift; done
	shift
	for k in "$@"; do
		for s in "${sessions[@]}"; do T send-keys -t "$s" "$k"; done
		sleep 0.3
	done
	for s in "${sessions[@]}"; do
		for i in $(seq 30); do
			a=$(T capture-pane -p -e -t "$s")
			sleep 0.3
			b=$(T capture-pane -p -e -t "$s")
			[ "$a" = "$b" ] && break
		done
	done
}

# in_shell NAME TEXT CMD KEYS...: CMD started from a shell's prompt, once
# it shows TEXT on the alternate screen left by KEYS (SIGTERM: killed)
in_shell() {
	local name=$1 text=$2 cmd=$3 sh
	shift 3
	T new-session -d -s "$name" -x 80 -y 24 "bash --norc --noprofile"
	T send-keys -t "$name" "PS1='PROMPT> '; clear" Enter
	wait_for "$name" "PROMPT>" || return 1
	T send-keys -t "$name" "$cmd; echo STATUS=\$?" Enter
	wait_for "$name" "$text" || return 1
	[ "$(T display -p -t "$name" '#{alternate_on}')" = 1 ] || return 1
	if [ "$1" = SIGTERM ]; then
		sh=$(T display -p -t "$name" '#{pane_pid}')
		kill -TERM "$(pgrep -P "$sh" -x ember)"
	else
		keys "$name" "$@"
	fi
	sleep 0.5
}

# restored NAME STATUS: off the alternate screen, the status and prompt shown, tty sane
restored() {
	local name=$1 status=$2
	[ "$(T display -p -t "$name" '#{alternate_on}')" = 0 ] || return 1
	T capture-pane -p -t "$name" | grep -q "^STATUS=$status$" || return 1
	T send-keys -t "$name" "stty -a | tr ' ;' '\\n\\n' | grep -cxE 'icanon|echo' | sed 's/^/SANE=/'" Enter
	wait_for "$name" "SANE=2"
}
