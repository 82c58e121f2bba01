# SPDX-License-Identifier: GPL-2.0-only
# ember record --control against perf record 6.1: with -D -1 the events wait
# for "enable" on the control fifo (or fd), "disable" stops them again, and
# each command is acknowledged on the ack fifo with perf's bytes. The windows
# are made by construction, not by time: the command runs three programs in
# turn and waits on a fifo between them, while the test enables or disables
# the events and waits for the ack. Samples must come from the middle
# program only, as under perf, and perf must read the file without a word.
. "$(dirname "$0")/../lib/e2e.sh"

if ! have_perf; then
	skip setup "perf not installed"
	exit 0
fi
if [ ! -x "$EMBER" ] || [ ! -x "$WL/hotloop" ]; then
	skip setup "no $EMBER or $WL/hotloop; build first"
	exit 0
fi
cd "$TMP" || exit 1
for p in phase_a phase_b phase_c; do cp "$WL/hotloop" "$p"; done
mkfifo ctl ack done go
# Hold both ends of every fifo: no open waits for the other side (a recorder
# that died cannot hang the test), and what is written stays there to be read.
exec 6<>done 7<>go 8<>ctl 9<>ack

quiet() { [ -z "$("$PERF" report --stdio -i "$1" 2>&1 >/dev/null)" ]; }
# readable FILE: perf script reads it without a word (it may hold no samples)
readable() { [ -z "$("$PERF" script -i "$1" 2>&1 >/dev/null)" ] && "$PERF" report --header-only -i "$1" >/dev/null 2>&1; }
# comm_samples FILE COMM: samples of that command
comm_samples() {
	"$PERF" report --stdio --sort comm -n -i "$1" 2>/dev/null |
		awk -v c="$2" '$NF == c { n += $2 } END { print n + 0 }'
}
# acks N: wait for N acknowledgements, print them as od shows them
acks() { timeout 120 head -c $((5 * $1)) <&9 | od -An -c | tr -s ' \n' ' '; }

# The command: phase_a, wait, phase_b, wait, phase_c; "done" tells us where it is.
WORK="./phase_a 150; echo a >done; read x <go; ./phase_b 150; echo b >done; read x <go; ./phase_c 150"

# windows TOOL DATA CONTROL: enable around phase_b only
windows() {
	local tool=$1 data=$2 control=$3 a1 a2
	timeout 120 "$tool" record --control "$control" -D -1 -o "$data" -- sh -c "$WORK" \
		>/dev/null 2>"$data.err" &
	local pid=$!
	read -r -t 120 x <&6
	echo enable >&8
	a1=$(acks 1)
	echo go >&7
	read -r -t 120 x <&6
	echo disable >&8
	a2=$(acks 1)
	echo go >&7
	wait "$pid"
	echo "$a1|$a2"
}

got=$(windows "$EMBER" e.data fifo:ctl,ack)
want=$(windows "$PERF" p.data fifo:ctl,ack)
expect_eq control-ack-bytes "$got" "$want"
expect_eq control-ack-perf "$want" " a c k \\n \\0 | a c k \\n \\0 "
if quiet e.data; then pass control-perf-reads; else
	fail control-perf-reads "$("$PERF" report --stdio -i e.data 2>&1 >/dev/null | head -3)"; fi
ea=$(comm_samples e.data phase_a) eb=$(comm_samples e.data phase_b) ec=$(comm_samples e.data phase_c)
pa=$(comm_samples p.data phase_a) pb=$(comm_samples p.data phase_b) pc=$(comm_samples p.data phase_c)
expect_eq control-window-before "$ea" 0
expect_eq control-window-after "$ec" 0
if [ "$eb" -gt 0 ]; then pass control-window-on; else fail control-window-on "no samples of phase_b"; fi
# perf's file has the same shape
expect_eq control-like-perf "$pa $((pb > 0)) $pc" "$ea $((eb > 0)) $ec"
expect_eq control-messages "$(grep -c '^Events \(disabled\|enabled\)$' e.data.err)" \
	"$(grep -c '^Events \(disabled\|enabled\)$' p.data.err)"
# ember script reads it too, and its samples are phase_b's only
expect_eq control-ember-script "$("$EMBER" script -F comm -i e.data 2>/dev/null | sort -u | grep -c phase_[ac])" 0

# The fd: form, with the fifos opened by the caller.
got=$(windows "$EMBER" f.data fd:8,9)
expect_eq control-fd-acks "$got" "$want"
expect_eq control-fd-window "$(comm_samples f.data phase_a) $(comm_samples f.data phase_c)" "0 0"
if [ "$(comm_samples f.data phase_b)" -gt 0 ]; then pass control-fd-on; else fail control-fd-on; fi

# Every other command, queued before the start: perf's messages and acks (none for
# an unknown command), and "stop" ends the recording of a long command.
SEQ='enable\nbogus\nping\nevlist\nenable cpu-clock:ppp\ndisable nosuch\nevlist -x\nstop\n'
run_seq() { # TOOL DATA: the status, then the acks
	printf "$SEQ" >&8
	timeout 120 "$1" record --control fifo:ctl,ack -D -1 -o "$2" -- sleep 100 >/dev/null 2>"$2.err"
	echo "status $? $(dd if=ack iflag=nonblock bs=4096 count=1 2>/dev/null | od -An -c | tr -s ' \n' ' ')"
}
got=$(run_seq "$EMBER" s.data)
want=$(run_seq "$PERF" ps.data)
expect_eq control-commands "$got" "$want"
msgs() { grep -v '^\[ \(ember\|perf\) record:' "$1" | sed 's/Terminated$//' | grep .; }
expect_eq control-command-messages "$(msgs s.data.err)" "$(msgs ps.data.err)"
if readable s.data; then pass control-stop-file; else fail control-stop-file; fi

# --control with an -a recording (no command): stop ends it.
printf 'enable\nstop\n' >&8
timeout 60 "$EMBER" record -q -a --control fifo:ctl,ack -D -1 -o a.data >/dev/null 2>&1
expect_eq control-system-wide "$? $(dd if=ack iflag=nonblock bs=4096 count=1 2>/dev/null | od -An -c | tr -s ' \n' ' ')" \
	"0  a c k \\n \\0 a c k \\n \\0 "
if readable a.data; then pass control-system-wide-file; else fail control-system-wide-file; fi

# Bad arguments are usage errors.
"$EMBER" record --control bogus -- true >/dev/null 2>&1
expect_eq control-bad-spec "$?" 2
"$EMBER" record --control fifo:/nonexistent/ctl -- true >/dev/null 2>&1
expect_eq control-missing-fifo "$?" 1

# -D -1 with -p: the events wait for "enable"; "stop" ends the recording (status 0).
"$WL/hotloop" 60000 >/dev/null 2>&1 &
hp=$!
printf 'ping\n' >&8
timeout 120 "$EMBER" record -q -p "$hp" -D -1 --control fifo:ctl,ack -o pid.data >/dev/null 2>&1 &
rp=$!
acks 1 >/dev/null	# the recorder is up and reading commands
echo enable >&8
acks 1 >/dev/null
"$WL/hotloop" 100 >/dev/null 2>&1	# some time with the events on, without sleeping
echo stop >&8
acks 1 >/dev/null
wait "$rp"
st=$?
kill "$hp" 2>/dev/null
wait "$hp" 2>/dev/null
expect_eq control-pid-status "$st" 0
if readable pid.data && [ "$(comm_samples pid.data hotloop)" -gt 0 ]; then pass control-pid-samples; else
	fail control-pid-samples "$(comm_samples pid.data hotloop) samples"; fi

# "snapshot" with --overwrite: the backward buffers' contents go to the file then
# (as SIGUSR2 does), and again at the end: one round more than with "stop" alone.
# Each command is sent once the recorder answered the one before and the
# workload ran a while, so neither the snapshot nor the end finds empty buffers.
rounds() { "$PERF" report -D -i "$1" 2>/dev/null | grep -c 'PERF_RECORD_FINISHED_ROUND'; }
overwrite() { # DATA COMMAND...: each command after a while of hotloop
	local data=$1 rp c got=
	shift
	printf 'ping\n' >&8
	timeout 120 "$EMBER" record -q --overwrite -m 1 --control fifo:ctl,ack -o "$data" -- "$WL/hotloop" 60000 \
		>/dev/null 2>&1 &
	rp=$!
	got+=$(acks 1)
	for c in "$@"; do
		"$WL/hotloop" 100 >/dev/null 2>&1
		printf '%s\n' "$c" >&8
		got+=$(acks 1)
	done
	wait "$rp"
	printf '%s' "$got"
}
overwrite ow0.data stop >/dev/null
expect_eq control-snapshot-acks "$(overwrite ow.data snapshot stop | tr -s " ")" \
	" a c k \\n \\0 a c k \\n \\0 a c k \\n \\0 "
n0=$(rounds ow0.data) n=$(rounds ow.data)
if [ "$n" -gt "$n0" ] && readable ow.data; then pass control-snapshot; else
	fail control-snapshot "$n rounds, $n0 without the snapshot"; fi
