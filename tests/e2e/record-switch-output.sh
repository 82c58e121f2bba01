# SPDX-License-Identifier: GPL-2.0-only
# ember record --switch-output-event against perf record 6.1: an event that is
# watched, not recorded (opened system-wide, as perf's side-band thread opens
# it), switches the output each time it fires. The command fires it twice
# (setarch calls personality(2)); other tasks on the machine may fire it too,
# so the counts are lower bounds. Every file, of this and of the signal, size
# and time forms, must be whole: read by perf report --header, perf script,
# ember script and ember report --header-only without a word on stderr.
. "$(dirname "$0")/../lib/e2e.sh"

if ! have_perf; then
	skip setup "perf not installed"
	exit 0
fi
if [ ! -x "$EMBER" ] || [ ! -x "$WL/hotloop" ]; then
	skip setup "no $EMBER or $WL/hotloop; build first"
	exit 0
fi
if ! have_tracefs || [ ! -d /sys/kernel/tracing/events/syscalls/sys_enter_personality ] ||
	! command -v setarch >/dev/null; then
	skip setup "no syscalls:sys_enter_personality tracepoint or no setarch"
	exit 0
fi
cd "$TMP" || exit 1

# complaints: stderr but the lost-samples warnings a small buffer on a busy machine earns
complaints() { grep -v -i 'lost\|^Warning:$\|Check IO/CPU overload\|^$'; }
# whole FILE: both tools read it without complaint (a file may hold no samples)
whole() {
	[ -z "$("$PERF" script -i "$1" 2>&1 >/dev/null | complaints)" ] &&
		"$PERF" report --header -i "$1" --stdio >/dev/null 2>&1 &&
		[ -z "$("$EMBER" script -i "$1" 2>&1 >/dev/null | complaints)" ] &&
		"$EMBER" report --header-only -i "$1" >/dev/null 2>&1
}
# all_whole DIR: every file in DIR is whole
all_whole() {
	local f bad=""
	for f in "$1"/*; do whole "$f" || bad="$bad $f"; done
	[ -z "$bad" ] || { echo "not whole:$bad"; return 1; }
}
SPIN='i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'
FIRE="$SPIN; setarch -R true; $SPIN; setarch -R true; $SPIN"

mkdir e p
"$EMBER" record --switch-output-event syscalls:sys_enter_personality -o e/s.data \
	-- sh -c "$FIRE" >/dev/null 2>e.err
"$PERF" record --switch-output-event syscalls:sys_enter_personality -o p/s.data \
	-- sh -c "$FIRE" >/dev/null 2>p.err
ne=$(ls e | grep -c '^s\.data\.[0-9]\{16\}$')
np=$(ls p | grep -c '^s\.data\.[0-9]\{16\}$')
if [ "$ne" -ge 3 ]; then pass sb-event-switches; else fail sb-event-switches "$ne files ($(cat e.err))"; fi
if [ "$np" -ge 3 ]; then pass sb-event-perf-switches; else fail sb-event-perf-switches "perf: $np files"; fi
expect_eq sb-event-names "$(ls e | grep -vc '^s\.data\.[0-9]\{16\}$')" 0
expect_eq sb-event-dumps "$(grep -c '^\[ ember record: Dump e/s\.data\.[0-9]\{16\} \]$' e.err)" "$ne"
check sb-event-whole all_whole e
# the watched event is not recorded: the files list only what -e asked for, as perf's
expect_eq sb-event-not-recorded "$(for f in e/*; do "$PERF" evlist -i "$f"; done | sort -u)" \
	"$(for f in p/*; do "$PERF" evlist -i "$f"; done | sort -u)"
# the command is in them, named
n=0
for f in e/*; do
	"$PERF" script -F comm -i "$f" 2>/dev/null | grep -q '^ *sh *$' && n=$((n + 1))
done
if [ "$n" -ge 1 ]; then pass sb-event-samples; else fail sb-event-samples "no file has sh's samples"; fi

# A bad side-band event is a usage error, as a bad -e is.
"$EMBER" record --switch-output-event no_such_event -o bad.data -- true >/dev/null 2>&1
expect_eq sb-event-bad "$?" 2

# The other forms' files are whole for both tools too.
mkdir sig size time
"$EMBER" record -q --switch-output -o sig/s.data -- sh -c "$SPIN; kill -USR2 \$PPID; $SPIN" >/dev/null 2>&1
expect_eq signal-files "$(ls sig | grep -c '^s\.data\.[0-9]\{16\}$')" 2
check signal-whole all_whole sig
"$EMBER" record -q --switch-output=8K -m 1 -F 4000 -o size/z.data -- "$WL/hotloop" 600 >/dev/null 2>&1
n=$(ls size | grep -c '^z\.data\.[0-9]\{16\}$')
if [ "$n" -ge 2 ]; then pass size-files; else fail size-files "$n files"; fi
check size-whole all_whole size
"$EMBER" record -q --switch-output=1s --switch-max-files 2 -o time/t.data -- sleep 3.5 >/dev/null 2>&1
expect_eq time-max-files "$(ls time | grep -c '^t\.data\.[0-9]\{16\}$')" 2
check time-whole all_whole time
