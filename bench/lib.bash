# SPDX-License-Identifier: GPL-2.0-only
# Sourced by bench/*.sh (named .bash so bench/run.sh does not run it):
#   . "$(dirname "$0")/lib.bash"; bench_init NAME
# sets BUILD, EMBER and PERF, cds to the top, and exits the benchmark when
# perf is missing (skipped, 0) or ember is not built (1).

bench_init() {
	cd "$(dirname "$0")/.." || exit 1
	BUILD=${BUILD:-build}
	EMBER="$BUILD/ember"
	PERF=${PERF:-perf}
	if ! command -v "$PERF" >/dev/null; then
		echo "$1 bench: perf is not installed, skipped"
		exit 0
	fi
	if [ ! -x "$EMBER" ]; then
		echo "$1 bench: $EMBER is missing (make first)"
		exit 1
	fi
}

now_ns() { date +%s%N; }
# median N...: the middle value (the upper one of an even count).
median() { printf '%s\n' "$@" | sort -g | sed -n "$(( ($# + 1) / 2 ))p"; }

# bench_run OUT CMD...: runs CMD once, its stdout to OUT ("-" for /dev/null),
# its stderr discarded, and sets
#   BR_WALL  wall seconds      BR_CPU  user + system cpu seconds
#   BR_RSS   peak resident set size in KB (ru_maxrss of CMD and the children
#            it waited for: the biggest process of a pipeline run by sh -c)
#   BR_RC    CMD's exit status
# The times come from wait4()'s rusage through python3, to the microsecond:
# time(1) prints hundredths, 7 % of a 0.15 s run. The memory comes from
# /usr/bin/time (Debian package time) run in between, whose own cpu (about
# a millisecond) counts with CMD's; without time(1), from the same rusage,
# which then holds python's own ~10 MB (the child's high-water mark includes
# the interpreter it forked from).
bench_run() {
	local out=$1 f u s
	shift
	[ "$out" = - ] && out=/dev/null
	f=$(mktemp /tmp/ember-bench-time.XXXXXX)
	python3 -c '
import os, sys, time
t0 = time.monotonic()
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
_, status, ru = os.wait4(pid, 0)
rss = ru.ru_maxrss
try:
    with open(sys.argv[1] + ".rss") as f:
        rss = int(f.read().split()[-1])
except (OSError, ValueError, IndexError):
    pass
with open(sys.argv[1], "w") as f:
    f.write("%.6f %.6f %.6f %d\n" % (time.monotonic() - t0, ru.ru_utime, ru.ru_stime, rss))
sys.exit(os.waitstatus_to_exitcode(status) & 255)' "$f" \
		$([ -x /usr/bin/time ] && echo "/usr/bin/time -o $f.rss -f %M") "$@" >"$out" 2>/dev/null
	BR_RC=$?
	read -r BR_WALL u s BR_RSS <"$f"
	rm -f "$f" "$f.rss"
	BR_CPU=$(echo "$u + $s" | bc)
}

# peak_rss_kb CMD...: the peak RSS in KB of one run of CMD, output discarded.
peak_rss_kb() {
	bench_run - "$@"
	echo "$BR_RSS"
}

# result NAME EMBER PERF UNIT GOAL [EMBER_RSS_KB PERF_RSS_KB]: one result line
# for bench/run.sh. The two optional columns are the peak memory of the runs
# measured (KB, see bench_run), shown in the table's memory columns.
result() {
	if [ $# -ge 7 ]; then
		printf 'result\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@"
	else
		printf 'result\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5"
	fi
}
