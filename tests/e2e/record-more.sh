# SPDX-License-Identifier: GPL-2.0-only
# More of perf record 6.1's options on real recordings (their attrs are in
# record-attrs.sh): per-event terms doing their job (a period per event,
# its own call graph), -k and the CLOCKID/CLOCK_DATA features, --namespaces
# and --all-cgroups records as perf writes them, -u, --dry-run,
# --mmap-flush/--affinity/--threads recordings, and perf's refusals (no
# branch stack, AUX area or kcore here) in one clear line.
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
quiet() { [ -z "$("$PERF" report --stdio -i "$1" 2>&1 >/dev/null)" ]; }

# Terms: each event samples at its own period; -F does not override it.
"$EMBER" record -q -F 1000 -e 'cpu-clock/period=100000/' -e task-clock -o t.data -- "$WL/hotloop" 200
periods=$("$PERF" script -F event,period -i t.data 2>/dev/null | awk '$2 ~ /cpu-clock/ { print $1 }' | sort -u)
expect_eq term-period "$periods" 100000
# ...and its own call graph: callchains on one event only.
"$EMBER" record -q -e 'cpu-clock/call-graph=fp/' -e task-clock -o g.data -- "$WL/hotloop" 100
st=$("$PERF" report --header-only -i g.data 2>/dev/null | grep -c 'sample_type = [A-Z|]*CALLCHAIN')
expect_eq term-call-graph "$st" 1
quiet g.data && pass term-read || fail term-read
# name= names it for perf report
"$EMBER" record -q -e 'cpu-clock/name=mine/' -o n.data -- "$WL/hotloop" 50
"$PERF" report --stdio -i n.data 2>/dev/null | grep -q "of event 'mine'" && pass term-name || fail term-name
# and for ember stat, which refuses the sampling-only terms as perf stat does
out=$("$EMBER" stat -x, -e 'task-clock/name=mine/' -- true 2>&1)
case "$out" in *,mine,*) pass stat-term-name ;; *) fail stat-term-name "$out" ;; esac
"$EMBER" stat -e 'task-clock/call-graph=fp/' -- true >/dev/null 2>&1
expect_eq stat-term-refused "$?" 2

# -k: perf's clockid features, read back by perf.
for clk in monotonic monotonic_raw realtime boottime tai; do
	"$PERF" record -q -k $clk -o pk.data -- true >/dev/null 2>&1
	"$EMBER" record -q -k $clk -o ek.data -- true >/dev/null 2>&1
	want=$("$PERF" report --header-only -I -i pk.data 2>/dev/null | grep -E '^# clockid|^# missing')
	got=$("$PERF" report --header-only -I -i ek.data 2>/dev/null | grep -E '^# clockid|^# missing')
	expect_eq "clockid-$clk" "$got" "$want"
done
# sample times in that clock: CLOCK_REALTIME is now-ish
"$EMBER" record -q -k realtime -o rt.data -- "$WL/hotloop" 50
t=$("$PERF" script -F time -i rt.data 2>/dev/null | tr -d ' :' | head -1)
now=$(date +%s)
if [ -n "$t" ] && awk -v t="$t" -v n="$now" 'BEGIN { exit !(t > n - 60 && t < n + 60) }'; then
	pass clockid-realtime-times
else
	fail clockid-realtime-times "first sample $t, now $now"
fi

# --namespaces / --all-cgroups: the records perf synthesizes, in its order.
side() { "$PERF" report -D -i "$1" 2>/dev/null | grep -E '^0 0x.*PERF_RECORD_(NAMESPACES|CGROUP|COMM)' |
	sed -e 's/^0 0x[0-9a-f]* //' -e 's/[0-9]*\/[0-9]*/PID/g'; }
"$PERF" record -q --namespaces --all-cgroups -o pn.data -- true >/dev/null 2>&1
"$EMBER" record -q --namespaces --all-cgroups -o en.data -- true >/dev/null 2>&1
expect_eq namespaces-cgroups "$(side en.data)" "$(side pn.data)"
ns() { "$PERF" report -D -i "$1" 2>/dev/null | grep -A2 -m1 'PERF_RECORD_NAMESPACES' | tail -2; }
expect_eq namespaces-links "$(ns en.data)" "$(ns pn.data)"
# -a: one NAMESPACES per task, as perf
"$EMBER" record -q -a --namespaces -o ea.data -- true >/dev/null 2>&1
nn=$("$PERF" report -D -i ea.data 2>/dev/null | grep -c '^0 0x.*PERF_RECORD_NAMESPACES')
nc=$("$PERF" report -D -i ea.data 2>/dev/null | grep -c '^0 0x.*PERF_RECORD_COMM')
expect_eq namespaces-system-wide "$nn" "$nc"

# -u: the user's processes, as -p would take them.
sleep 5 &
spid=$!
"$EMBER" record -q -u root -o u.data -- sleep 0.2 >/dev/null 2>&1
rc=$?
"$PERF" report -D -i u.data 2>/dev/null | grep -q "PERF_RECORD_COMM: sleep:$spid/$spid" &&
	[ $rc = 0 ] && pass uid || fail uid "rc $rc"
kill $spid 2>/dev/null
wait $spid 2>/dev/null
"$EMBER" record -q -u no_such_user_xyz -o u.data -- true >/dev/null 2>&1
expect_eq uid-unknown "$?" 2

# --dry-run: nothing is written.
"$EMBER" record --dry-run -o dry.data -- true >/dev/null 2>&1
expect_eq dry-run "$? $(ls dry.data 2>/dev/null)" "0 "

# Reading options: the same recording, read differently.
for opt in "--mmap-flush 4K" "--affinity=cpu" "--affinity=node" "--no-buffering" "-r 1"; do
	"$EMBER" record -q $opt -o o.data -- "$WL/hotloop" 100 >/dev/null 2>&1
	if [ $? = 0 ] && quiet o.data && [ "$("$PERF" report -D -i o.data 2>/dev/null | grep -c PERF_RECORD_SAMPLE)" -gt 10 ]; then
		pass "read${opt// /}"
	else
		fail "read${opt// /}"
	fi
done
err=$("$EMBER" record --threads -o th.data -- true 2>&1 >/dev/null)
case "$err" in *"--threads changes nothing"*) pass threads-accepted ;; *) fail threads-accepted "$err" ;; esac

# Hardware this machine lacks: one clear line, exit 1, as perf refuses them.
refuse() { # NAME WORDS ARGS...
	local name=$1 words=$2 out rc
	shift 2
	out=$("$EMBER" record -o r.data "$@" -- true 2>&1 >/dev/null)
	rc=$?
	if [ $rc = 1 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && printf '%s' "$out" | grep -q "$words"; then
		pass "$name"
	else
		fail "$name" "rc $rc: $out"
	fi
}
if have_hw_pmu; then
	skip refuse-branch "this machine has a hardware PMU"
else
	refuse refuse-branch-any "branch stack" -b
	refuse refuse-branch-filter "branch stack" -j any_call,u
	refuse refuse-branch-term "branch stack" -e 'cpu-clock/branch_type=any/'
fi
refuse refuse-snapshot "AUX area" -S
refuse refuse-aux-sample "AUX area" --aux-sample
refuse refuse-aux-output "aux_output" -e 'cpu-clock/aux-output/'
refuse refuse-kcore "kcore" --kcore
refuse refuse-cgroup "cgroup" -a -G foo
"$EMBER" record -o r.data -j bogus -- true >/dev/null 2>&1
expect_eq branch-filter-unknown "$?" 2
