# SPDX-License-Identifier: GPL-2.0-only
# ember record on a command, read back by perf 6.1: perf report and perf
# script read the file without a word on stderr, the hot functions come out
# in the known order, the sample count ember prints is the one perf -D
# finds, the records ember synthesizes are perf's (same types, same order),
# the header carries perf's features, and perf.data is backed up to
# perf.data.old as perf does.
. "$(dirname "$0")/../lib/e2e.sh"

if ! have_perf; then
	skip setup "perf not installed"
	exit 0
fi
if [ ! -x "$EMBER" ] || [ ! -x "$WL/hotloop" ]; then
	skip setup "no $EMBER or $WL/hotloop; build first"
	exit 0
fi

# The record types of a file up to FINISHED_INIT, one per line, as perf -D names them.
head_types() {
	"$PERF" report -D -i "$1" 2>/dev/null |
		awk '/^0x[0-9a-f]+@/ { next }
		     / PERF_RECORD_/ { for (i = 1; i <= NF; i++) if ($i ~ /^PERF_RECORD_/) {
			t = $i; sub(/[:(].*/, "", t); print t; if (t == "PERF_RECORD_FINISHED_INIT") exit; break } }'
}

cd "$TMP" || exit 1
out=$("$EMBER" record -g -o hot.data -- "$WL/hotloop" 300 2>&1)
rc=$?
expect_eq "hotloop-exit" "$rc" 0
if printf '%s\n' "$out" | grep -q '^\[ ember record: Woken up [0-9]* times to write data \]$'; then
	pass "woken-up-line"
else
	fail "woken-up-line" "$out"
fi
nsamples=$(printf '%s\n' "$out" |
	sed -n 's/^\[ ember record: Captured and wrote [0-9.]* MB hot.data (\([0-9]*\) samples) \]$/\1/p')
if [ -n "$nsamples" ] && [ "$nsamples" -gt 50 ]; then
	pass "captured-line"
else
	fail "captured-line" "$out"
fi

"$PERF" report --stdio -i hot.data >report.txt 2>report.err
expect_eq "perf-report-exit" "$?" 0
if [ -s report.err ]; then fail "perf-report-no-warning" "$(head -5 report.err)"; else pass "perf-report-no-warning"; fi
"$PERF" script -G -i hot.data >script.txt 2>script.err
if [ -s script.err ]; then fail "perf-script-no-warning" "$(head -5 script.err)"; else pass "perf-script-no-warning"; fi
expect_eq "perf-script-samples" "$(wc -l <script.txt | tr -d ' ')" "${nsamples:-0}"

top=$("$PERF" report --stdio --no-children --sort sym -i hot.data 2>/dev/null |
	awk '/^ +[0-9.]+%/ { print $NF }' | head -2 | tr '\n' ' ')
expect_eq "top-symbols" "$top" "hot_a hot_b "

dsamples=$("$PERF" report -D -i hot.data 2>/dev/null | awk '$1 == "SAMPLE" && $2 == "events:" { print $3; exit }')
expect_eq "perf-D-sample-count" "$dsamples" "${nsamples:-none}"

# hot_a's samples carry call chains (frame pointers): a caller follows it in the graph.
caller=$("$PERF" report --stdio --no-children -i hot.data 2>/dev/null |
	awk '/---hot_a$/ { getline; gsub(/[ |-]/, ""); print; exit }')
if [ -n "$caller" ]; then pass "callchain"; else fail "callchain" "no caller under hot_a"; fi

# Same records as perf before the data: ID_INDEX MMAP THREAD_MAP CPU_MAP COMM FINISHED_INIT.
"$PERF" record -q -g -o perf.data.ref -- "$WL/hotloop" 50 >/dev/null 2>&1
expect_eq "synthesized-records" "$(head_types hot.data | tr '\n' ' ')" \
	"$(head_types perf.data.ref | tr '\n' ' ')"
if "$PERF" report -D -i hot.data 2>/dev/null | grep -q 'PERF_RECORD_FINISHED_ROUND'; then
	pass "finished-round"
else
	fail "finished-round" "no FINISHED_ROUND record"
fi
kmap() { "$PERF" report -D -i "$1" 2>/dev/null | grep -m1 'PERF_RECORD_MMAP -1/0' | sed 's/^.*PERF_RECORD/PERF_RECORD/'; }
expect_eq "kernel-mmap" "$(kmap hot.data)" "$(kmap perf.data.ref)"

# Features: perf record's set, BUILD_ID included (see record-buildid.sh).
"$PERF" record -q -g -o perf.data.refF -- "$WL/hotloop" 50 >/dev/null 2>&1
missing() { "$PERF" report --header-only -i "$1" 2>/dev/null | sed -n 's/^# missing features: //p'; }
expect_eq "features" "$(missing hot.data)" "$(missing perf.data.refF)"
if "$PERF" report --header-only -i hot.data 2>/dev/null | grep -q '^# cmdline : .*ember record -g -o hot.data -- '; then
	pass "cmdline"
else
	fail "cmdline" "$("$PERF" report --header-only -i hot.data 2>/dev/null | grep cmdline)"
fi
if "$PERF" report --header-only -i hot.data 2>/dev/null | grep -q '^# sample duration : *[1-9]'; then
	pass "sample-time"
else
	fail "sample-time" "no sample duration in the header"
fi

# Default output perf.data; an existing non-empty one becomes perf.data.old, an empty one does
# not. (stdout to /dev/null: a FIFO there would mean pipe mode, as in perf.)
mkdir out && cd out || exit 1
: >perf.data
"$EMBER" record -q -- true >/dev/null
if [ -s perf.data ] && [ ! -e perf.data.old ]; then pass "default-output"; else fail "default-output"; fi
"$EMBER" record -q -- true >/dev/null
if [ -s perf.data ] && [ -s perf.data.old ]; then pass "old-backup"; else fail "old-backup"; fi
cd .. || exit 1

# -q: nothing on stderr.
err=$("$EMBER" record -q -o q.data -- "$WL/hotloop" 20 2>&1 >/dev/null)
expect_eq "quiet" "$err" ""
# The command's stdout stays the command's.
expect_eq "command-stdout" "$("$EMBER" record -q -o echo.data -- echo hello)" "hello"

# The command's task is "perf-exec" until its exec, as under perf: the first lines of
# perf script --show-task-events (synthesized COMM, then the exec's) are perf's, pid aside.
task_events() {
	"$PERF" script --show-task-events -i "$1" 2>/dev/null | grep -E 'PERF_RECORD_COMM' | head -2 |
		sed -e 's/[0-9]\+\/[0-9]\+/PID/' -e 's/^ *\([^ ]*\) *[0-9]* *[0-9.]*:/\1/'
}
"$PERF" record -q -o pe.data -- "$WL/hotloop" 20 >/dev/null 2>&1
"$EMBER" record -q -o ee.data -- "$WL/hotloop" 20 >/dev/null 2>&1
want=$(task_events pe.data)
got=$(task_events ee.data)
expect_eq "perf-exec-comm" "$got" "$want"
