# SPDX-License-Identifier: GPL-2.0-only
# ember record's long-running modes against perf record 6.1: --switch-output
# (SIGUSR2, size and time forms; PATH.YYYYmmddHHMMSScc names and perf's
# "Dump" lines; --switch-max-files), --timestamp-filename, --overwrite
# (backward buffers read at the end or on SIGUSR2, tasks described at the
# end as perf's tail synthesis), --max-size and -D. Every file must read
# in perf report without a warning.
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

# quiet FILE: perf report reads it without a word on stderr
quiet() { [ -z "$("$PERF" report --stdio -i "$1" 2>&1 >/dev/null)" ]; }
# quiet_but_lost FILE: as quiet, but a lost-chunks warning may stand (a
# snapshot pauses the buffer for a memcpy; a sample in that moment is lost, and said)
quiet_but_lost() {
	[ -z "$("$PERF" report --stdio -i "$1" 2>&1 >/dev/null |
		grep -v -e '^Warning:$' -e '^Processed [0-9]* events and lost [0-9]* chunks!$' \
			-e '^Check IO/CPU overload!$' -e '^$')" ]
}
samples() { "$PERF" report -D -i "$1" 2>/dev/null | grep -c 'PERF_RECORD_SAMPLE'; }
# A command that asks its recorder for two switches, with work in between.
SPIN='i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'
TWICE="$SPIN; kill -USR2 \$PPID; $SPIN; kill -USR2 \$PPID; $SPIN"

# --switch-output (signal): three files named as perf names them, each a whole recording.
mkdir sig && cd sig || exit 1
err=$("$EMBER" record --switch-output -o s.data -- sh -c "$TWICE" 2>&1 >/dev/null)
files=$(ls)
n=$(printf '%s\n' "$files" | grep -c '^s\.data\.[0-9]\{16\}$')
expect_eq switch-signal-files "$n" 3
expect_eq switch-signal-no-plain "$(ls s.data 2>/dev/null)" ""
expect_eq switch-signal-dumps "$(printf '%s\n' "$err" | grep -c '^\[ ember record: Dump s\.data\.[0-9]\{16\} \]$')" 3
expect_eq switch-signal-dump-data "$(printf '%s\n' "$err" | grep -c '^\[ ember record: dump data: Woken up [0-9]* times \]$')" 2
printf '%s\n' "$err" | grep -q 'Captured and wrote .* s\.data\.<timestamp>' &&
	pass switch-signal-summary || fail switch-signal-summary "$err"
ok=1
for f in $files; do
	quiet "$f" || { ok=0; fail switch-signal-read "$f: $("$PERF" report --stdio -i "$f" 2>&1 >/dev/null | head -3)"; }
	# each file describes the command again (kernel map, its COMM) before its samples
	"$PERF" report -D -i "$f" 2>/dev/null | grep -q 'PERF_RECORD_MMAP -1/0' ||
		{ ok=0; fail switch-signal-kernel "$f"; }
done
[ $ok = 1 ] && pass switch-signal-read
cd .. || exit 1

# perf's own names, for the same command: the same shape
mkdir psig && cd psig || exit 1
"$PERF" record -q --switch-output -o s.data -- sh -c "$TWICE" >/dev/null 2>&1
expect_eq switch-like-perf "$(ls | sed 's/[0-9]\{16\}$/TS/' | sort | uniq -c | tr -s ' ')" \
	"$(ls ../sig | sed 's/[0-9]\{16\}$/TS/' | sort | uniq -c | tr -s ' ')"
cd .. || exit 1

# --switch-max-files 1: only the newest remains.
mkdir max && cd max || exit 1
"$EMBER" record -q --switch-output --switch-max-files 1 -o m.data -- sh -c "$TWICE" >/dev/null 2>&1
expect_eq switch-max-files "$(ls | grep -c '^m\.data\.')" 1
cd .. || exit 1

# Size: a new file each time the current one passes 8K (small buffers, so they wake us often).
mkdir size && cd size || exit 1
"$EMBER" record -q --switch-output=8K -m 1 -F 4000 -o z.data -- "$WL/hotloop" 1000 >/dev/null 2>&1
n=$(ls | grep -c '^z\.data\.')
if [ "$n" -ge 2 ]; then pass switch-size; else fail switch-size "$n files"; fi
cd .. || exit 1

# Time: every second.
mkdir time && cd time || exit 1
"$EMBER" record -q --switch-output=1s -o t.data -- sleep 2.5 >/dev/null 2>&1
n=$(ls | grep -c '^t\.data\.')
if [ "$n" -ge 2 ] && [ "$n" -le 4 ]; then pass switch-time; else fail switch-time "$n files"; fi
cd .. || exit 1

# --switch-output cannot go to a pipe.
"$EMBER" record -q --switch-output -o - -- true >/dev/null 2>&1
expect_eq switch-pipe-refused "$?" 2

# --timestamp-filename alone: one file, renamed at the end.
mkdir tsf && cd tsf || exit 1
"$EMBER" record -q --timestamp-filename -o f.data -- true >/dev/null 2>&1
expect_eq timestamp-filename "$(ls | grep -c '^f\.data\.[0-9]\{16\}$')" 1
cd .. || exit 1

# --overwrite: the last pages of each cpu, read at the end; a small buffer keeps the newest.
"$EMBER" record -q --overwrite -m 1 -o ow.data -- "$WL/hotloop" 600 >/dev/null 2>&1
"$PERF" record -q --overwrite -m 1 -o pow.data -- "$WL/hotloop" 600 >/dev/null 2>&1
if quiet ow.data; then pass overwrite-read; else fail overwrite-read; fi
n=$(samples ow.data)
p=$(samples pow.data)
# one page per cpu: about as many samples as perf keeps (not all 2400 the command took)
if [ "$n" -gt 0 ] && [ "$n" -lt $((p * 2 + 50)) ]; then pass overwrite-kept; else
	fail overwrite-kept "ember $n samples, perf $p"; fi
# the samples are the last ones: they end where the command ended (within 50 ms)
last=$("$PERF" script -F time -i ow.data 2>/dev/null | tr -d ' :' | sort -n | tail -1)
exit_t=$("$PERF" script --show-task-events -i ow.data 2>/dev/null | sed -n 's/.* \([0-9.]*\): PERF_RECORD_EXIT.*/\1/p' | head -1)
if [ -n "$last" ] && [ -n "$exit_t" ] && awk -v a="$last" -v b="$exit_t" 'BEGIN { exit !(b - a < 0.05 && b >= a) }'; then
	pass overwrite-newest
else
	fail overwrite-newest "last sample $last, exit $exit_t"
fi
# the command is still named: its COMM comes from the tail synthesis, as in perf's file
expect_eq overwrite-comm "$("$PERF" report --stdio --sort comm -i ow.data 2>/dev/null | grep -c ' hotloop')" 1
# the record order perf writes: workload COMM, FINISHED_INIT, then the tail's records
# (perf's FINISHED_ROUND after the first COMM is an empty read pass's: left out)
types() { "$PERF" report -D -i "$1" 2>/dev/null | sed -n 's/^0 0x[0-9a-f]* \[0x[0-9a-f]*\]: \(PERF_RECORD_[A-Z_]*\).*/\1/p' |
	grep -v FINISHED_ROUND | head -7 | tr '\n' ' '; }
expect_eq overwrite-order "$(types ow.data)" "$(types pow.data)"

# SIGUSR2 under --overwrite: a snapshot now, another at the end, in the same file.
"$EMBER" record -q --overwrite -m 1 -o ow2.data -- sh -c "$SPIN; kill -USR2 \$PPID; $SPIN" >/dev/null 2>&1
n=$("$PERF" report -D -i ow2.data 2>/dev/null | grep -c 'PERF_RECORD_FINISHED_ROUND')
if [ "$n" -ge 2 ] && quiet_but_lost ow2.data; then pass overwrite-usr2; else fail overwrite-usr2 "$n rounds"; fi

# The per-event overwrite term: that event in its own backward buffer, the other read live.
"$EMBER" record -q -e cpu-clock -e 'task-clock/overwrite/' -o owt.data -- "$WL/hotloop" 100 >/dev/null 2>&1
ev=$("$PERF" report --stdio -i owt.data 2>/dev/null | grep -c "^# Samples: .* of event '\(cpu-clock\|task-clock/overwrite/\)'")
expect_eq overwrite-term "$ev" 2

# --max-size: stops once the file holds that much, with perf's line. (It is checked after
# each read, as in perf: small buffers (-m 4) are read every 8K, so it stops close to it.
# --no-bpf-event: the header's list of loaded BPF programs, with their code, is not data.)
err=$("$EMBER" record --max-size 20K -m 4 -F 4000 --no-bpf-event -o ms.data -- "$WL/hotloop" 2000 2>&1 >/dev/null)
printf '%s\n' "$err" | grep -q '^\[ ember record: perf size limit reached ([0-9]* KB), stopping session \]$' &&
	pass max-size-message || fail max-size-message "$err"
size=$(stat -c %s ms.data)
if [ "$size" -lt $((20 * 1024 + 48 * 1024)) ] && quiet ms.data; then pass max-size-file; else
	fail max-size-file "$size bytes"; fi

# -D: perf's messages; nothing sampled before the delay is over.
err=$("$EMBER" record -D 200 -o d.data -- "$WL/hotloop" 400 2>&1 >/dev/null)
expect_eq delay-messages "$(printf '%s\n' "$err" | grep -c '^Events \(disabled\|enabled\)$')" 2
first=$("$PERF" script -F time -i d.data 2>/dev/null | tr -d ' :' | sort -n | head -1)
exec_t=$("$PERF" script --show-task-events -i d.data 2>/dev/null | sed -n 's/.* \([0-9.]*\): PERF_RECORD_COMM exec.*/\1/p' | head -1)
if [ -n "$first" ] && [ -n "$exec_t" ] && awk -v a="$first" -v b="$exec_t" 'BEGIN { exit !(a - b >= 0.19) }'; then
	pass delay-first-sample
else
	fail delay-first-sample "first sample $first, exec $exec_t"
fi
err=$("$EMBER" record -D -1 -o d1.data -- true 2>&1 >/dev/null)
expect_eq delay-never "$(samples d1.data) $(printf '%s\n' "$err" | grep -c '^Events enabled$')" "0 0"
