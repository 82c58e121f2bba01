#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember top --stdio on the live system: a busy workload's hot functions
# appear with percentages within a few seconds, system-wide, with -p
# (also when the work starts in a thread born after ember attached, which
# perf top -p misses) and -u; callchains with -g; a tracepoint; -E, --percent-limit, -s, -K, -U, -z change what
# they should; perf's header line and screen size; bad events and dead
# pids fail in one line; SIGINT, q and the -p target's exit stop it cleanly.
. "$(dirname "$0")/../lib/e2e.sh"

if ! is_root && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 0 ]; then
	skip setup "system-wide sampling needs root or perf_event_paranoid <= 0"
	exit 0
fi
unset LINES COLUMNS

# top_run SECS OUT ARGS...: ember top --stdio ARGS for SECS seconds (SIGINT
# then), stdout in OUT, stderr in OUT.err, the status in OUT.rc.
top_run() {
	local secs=$1 out=$2 pid
	shift 2
	"$EMBER" top --stdio "$@" >"$out" 2>"$out.err" &
	pid=$!
	sleep "$secs"
	kill -INT $pid 2>/dev/null
	wait $pid
	echo $? >"$out.rc"
}

# last_screen FILE: the text after the last console clear, less the clear.
last_screen() {
	awk 'index($0, "\033[H\033[2J") { n = 0; next } { s[n++] = $0 } END { for (i = 0; i < n; i++) print s[i] }' "$1"
}

# entries FILE: the entry rows of the last screen (they start with a percentage).
entries() { last_screen "$1" | grep -E '^ +[0-9]+\.[0-9]+%'; }

# pct FILE SYM: the first percentage of SYM's row on the last screen (0 when absent).
pct() { entries "$1" | awk -v s="$2" '$NF == s { sub("%", "", $1); print $1; f = 1; exit } END { if (!f) print 0 }'; }

# ge A B: A >= B, as numbers
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 >= b + 0) }'; }

# a copy of its own: other suites running meanwhile spin "hotloop"s too
HOT="$TMP/tophot"
cp "$WL/hotloop" "$HOT"
"$HOT" 90000 &
hot=$!
trap 'kill $hot 2>/dev/null; rm -rf "$TMP"' EXIT
sleep 0.2

# system-wide, perf's defaults
top_run 3.5 "$TMP/all" -d 1
head_re='^   PerfTop: +[0-9]+ irqs/sec  kernel: *[0-9]+\.[0-9]%  exact: +[0-9]+\.[0-9]% lost: [0-9]+/[0-9]+ drop: [0-9]+/[0-9]+ \[4000Hz [a-z:-]+\],  \(all, [0-9]+ CPUs?\)$'
h=$(last_screen "$TMP/all" | head -1)
if grep -Eq "$head_re" <<<"$h"; then pass header; else fail header "$h"; fi
if ge "$(pct "$TMP/all" hot_a)" 1 && ge "$(pct "$TMP/all" hot_b)" 1 &&
   entries "$TMP/all" | grep -q 'tophot  *\[\.\] hot_a$'; then
	pass system-wide-hot
else
	fail system-wide-hot "$(entries "$TMP/all" | head -5)"
fi
expect_eq sigint-exit "$(cat "$TMP/all.rc")" 0
expect_eq quiet-stderr "$(cat "$TMP/all.err")" ""
# perf's screen without a terminal: 25 rows (20 entries), 80 columns (lines cut at 78)
n=$(entries "$TMP/all" | wc -l)
if [ "$n" -ge 1 ] && [ "$n" -le 20 ]; then pass screen-rows; else fail screen-rows "$n rows"; fi
w=$(last_screen "$TMP/all" | awk '{ if (length($0) > m) m = length($0) } END { print m }')
dots=$(last_screen "$TMP/all" | sed -n 2p)
if [ "$dots" = "$(printf '%079d' 0 | tr 0 -)" ] && [ "$w" -le 120 ] &&
   [ "$(entries "$TMP/all" | awk 'length($0) > 78' | wc -l)" = 0 ]; then
	pass screen-width
else
	fail screen-width "widest $w, dots '$dots'"
fi

# perf's own header, numbers aside, is the same line
if have_perf; then
	(sleep 5 | timeout -s INT -k 5 2.5 "$PERF" top --stdio -d 1 >"$TMP/perf" 2>/dev/null)
	norm() { sed -E 's/[0-9]+(\.[0-9]+)?/N/g; s/ //g'; }
	ph=$(last_screen "$TMP/perf" | head -1 | norm)
	eh=$(norm <<<"$h")
	if [ -n "$ph" ]; then expect_eq header-as-perf "$eh" "$ph"; else skip header-as-perf "perf top printed nothing"; fi
else
	skip header-as-perf "perf is not installed"
fi

# -p: the process's samples only
top_run 3.5 "$TMP/p" -d 1 -p "$hot"
a=$(pct "$TMP/p" hot_a) b=$(pct "$TMP/p" hot_b)
if ge "$(awk -v a="$a" -v b="$b" 'BEGIN { print a + b }')" 60; then
	pass pid-hot
else
	fail pid-hot "hot_a $a% hot_b $b%: $(entries "$TMP/p" | head -5)"
fi
if last_screen "$TMP/p" | head -1 | grep -q "(target_pid: $hot)\$"; then pass pid-header; else
	fail pid-header "$(last_screen "$TMP/p" | head -1)"; fi
if entries "$TMP/p" | grep -v -E '\[k\]|tophot|\[vdso\]|libc' | grep -q .; then
	fail pid-only "$(entries "$TMP/p" | grep -v -E '\[k\]|tophot|\[vdso\]|libc' | head -3)"
else
	pass pid-only
fi

# -g: each entry's callchain tree as report's, children cumulated (the
# caller of it all gets the period of what it calls; having no period of
# its own, it goes at each decay, as in perf, and shows one refresh's)
top_run 3.5 "$TMP/g" -d 1 -g -p "$hot"
if last_screen "$TMP/g" | grep -q -- '--__libc_start_call_main$' &&
   ge "$(pct "$TMP/g" __libc_start_call_main)" 10 &&
   ge "$(pct "$TMP/g" hot_a)" 10; then
	pass callgraph
else
	fail callgraph "$(last_screen "$TMP/g" | head -12)"
fi

# a tracepoint, sorted by comm: the header says its period as perf does ("1Hz sched:...")
if have_tracefs; then
	top_run 2.5 "$TMP/tp" -d 1 -e sched:sched_switch -s comm
	if last_screen "$TMP/tp" | head -1 | grep -q '\[1Hz sched:sched_switch\],  (all' &&
	   [ "$(entries "$TMP/tp" | wc -l)" -ge 1 ]; then
		pass tracepoint
	else
		fail tracepoint "$(last_screen "$TMP/tp" | head -6)"
	fi
else
	skip tracepoint "no tracefs"
fi

# -p of a process whose busy thread starts after ember attached
"$WL/latethread" 800 4000 &
late=$!
top_run 3.5 "$TMP/late" -d 1 -p "$late"
if ge "$(pct "$TMP/late" spin_late)" 50; then pass pid-late-thread; else
	fail pid-late-thread "$(entries "$TMP/late" | head -5)"; fi
kill $late 2>/dev/null; wait $late 2>/dev/null

# -u: a user's processes
chmod 755 "$TMP"
if id nobody >/dev/null 2>&1 && su nobody -s /bin/sh -c "exec $HOT 1" 2>/dev/null; then
	su nobody -s /bin/sh -c "exec $HOT 4000" &
	nob=$!
	sleep 0.3
	top_run 3 "$TMP/u" -d 1 -u nobody
	if last_screen "$TMP/u" | head -1 | grep -q '(uid: nobody, 1 CPU)$' &&
	   ge "$(pct "$TMP/u" hot_a)" 30; then
		pass uid
	else
		fail uid "$(last_screen "$TMP/u" | head -6)"
	fi
	wait $nob
else
	skip uid "cannot run a workload as nobody"
fi

# -E, --percent-limit, -s, -K, -U: five tops side by side on the same system
runs=()
top_run 2.5 "$TMP/e" -d 1 -E 3 & runs+=($!)
top_run 2.5 "$TMP/pl" -d 1 --percent-limit 2 & runs+=($!)
top_run 2.5 "$TMP/s" -d 1 -s comm & runs+=($!)
top_run 2.5 "$TMP/K" -d 1 -K & runs+=($!)
top_run 2.5 "$TMP/U" -d 1 -U & runs+=($!)
wait "${runs[@]}"
expect_eq entries-3 "$(entries "$TMP/e" | wc -l)" 3
# (the screen without it has rows under 2 %: the limit must have hidden them)
if [ "$(entries "$TMP/pl" | wc -l)" -ge 1 ] &&
   entries "$TMP/all" | awk '{ sub("%", "", $1); if ($1 + 0 < 2) low = 1 } END { exit !low }' &&
   entries "$TMP/pl" | awk '{ sub("%", "", $1); if ($1 + 0 < 2) bad = 1 } END { exit bad }'; then
	pass percent-limit
else
	fail percent-limit "$(entries "$TMP/pl" | tail -3)"
fi
if entries "$TMP/s" | grep -q '%  tophot *$' && ! entries "$TMP/s" | grep -q '\[[.k]\]'; then
	pass sort-comm
else
	fail sort-comm "$(entries "$TMP/s" | head -5)"
fi
if entries "$TMP/K" | grep -q '\[\.\]' && ! entries "$TMP/K" | grep -q '\[k\]'; then pass hide-kernel; else
	fail hide-kernel "$(entries "$TMP/K" | head -5)"; fi
if entries "$TMP/U" | grep -q '\[k\]' && ! entries "$TMP/U" | grep -q '\[\.\]'; then pass hide-user; else
	fail hide-user "$(entries "$TMP/U" | head -5)"; fi

# -z: a workload that stopped two refreshes ago is gone; decayed by 7/8 a refresh, it stays
kill $hot 2>/dev/null; wait $hot 2>/dev/null
# (both at once, on one workload)
"$HOT" 1200 &
short=$!
top_run 4.5 "$TMP/z" -d 1 -z &
zrun=$!
top_run 4.5 "$TMP/decay" -d 1
wait $zrun $short 2>/dev/null
if ! entries "$TMP/z" | grep -q 'tophot .*hot_a$'; then pass zero-forgets; else
	fail zero-forgets "$(entries "$TMP/z" | head -3)"; fi
if entries "$TMP/decay" | grep -q 'tophot .*hot_a$'; then pass decay-remembers; else
	fail decay-remembers "$(entries "$TMP/decay" | head -3)"; fi

# -p ends by itself, status 0, soon after its process is gone (not at
# the next refresh, 5 s away), without spinning on the hung-up buffers
"$WL/hotloop" 1000 &
short=$!
start=$SECONDS
# (timed in a shell of its own: this one's time would count the hotloop when it reaps it)
bash -c 'TIMEFORMAT="%U %S"; time { timeout -k 5 12 "$1" top --stdio -d 5 -p $2 >"$3" 2>&1;
	echo $? >"$3.rc"; }' - "$EMBER" $short "$TMP/gone" 2>"$TMP/gone.time"
rc=$(cat "$TMP/gone.rc")
wait $short 2>/dev/null
cpu=$(awk '{ print $1 + $2 }' "$TMP/gone.time" 2>/dev/null)
if [ $rc = 0 ] && [ $((SECONDS - start)) -le 3 ] && ge 0.5 "${cpu:-9}"; then pass pid-exit; else
	fail pid-exit "rc $rc after $((SECONDS - start)) s, cpu ${cpu:-?} s"; fi

# q on a terminal ends it, status 0, the terminal's settings restored
if command -v tmux >/dev/null; then
	sock="$TMP/tmux.sock"
	tmux -S "$sock" new-session -d -x 100 -y 30 \
		"$EMBER top --stdio -d 1; echo rc=\$? >$TMP/q.rc; stty -a >$TMP/q.stty; sleep 5"
	sleep 2
	tmux -S "$sock" send-keys q
	for i in 1 2 3 4 5 6 7 8 9 10; do [ -s "$TMP/q.stty" ] && break; sleep 0.3; done
	if [ "$(cat "$TMP/q.rc" 2>/dev/null)" = rc=0 ] && grep -qw icanon "$TMP/q.stty" &&
	   grep -qw echo "$TMP/q.stty"; then
		pass quit-key
	else
		fail quit-key "$(cat "$TMP/q.rc" 2>/dev/null) $(grep -o -- '-icanon\|-echo ' "$TMP/q.stty" 2>/dev/null)"
	fi
	tmux -S "$sock" kill-server 2>/dev/null
else
	skip quit-key "tmux is not installed"
fi

# a reader that goes away ends it quietly, by SIGPIPE, as perf top
"$EMBER" top --stdio -d 1 2>"$TMP/pipe.err" | head -3 >/dev/null
rc=${PIPESTATUS[0]}
if [ "$rc" = 141 ] && [ ! -s "$TMP/pipe.err" ]; then pass reader-gone; else
	fail reader-gone "rc $rc: $(cat "$TMP/pipe.err")"; fi

# failures: one line, non-zero
"$EMBER" top --stdio -e no_such_event >"$TMP/bad" 2>&1
rc=$?
if [ $rc != 0 ] && [ "$(wc -l <"$TMP/bad")" = 1 ] && grep -q "no_such_event" "$TMP/bad"; then
	pass bad-event
else
	fail bad-event "rc $rc: $(cat "$TMP/bad")"
fi
sleep 0.01 & dead=$!
wait $dead
"$EMBER" top --stdio -p "$dead" >"$TMP/dead" 2>&1
rc=$?
if [ $rc != 0 ] && [ "$(wc -l <"$TMP/dead")" = 1 ] && grep -q "$dead" "$TMP/dead"; then
	pass dead-pid
else
	fail dead-pid "rc $rc: $(cat "$TMP/dead")"
fi
