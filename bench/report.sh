#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember report --stdio against perf report --stdio on the same perf.data (see
# bench/run.sh for the output):
#   report-user      `perf record -g -F max` of two busy processes for 4 s (several
#                    hundred thousand samples with callchains)
#   report-system    `perf record -a -g -F max` while a build-like load runs:
#                    kernel and user stacks from many processes
# each with --children (perf's default) and --no-children: cpu time (user +
# system, of the process and its threads), median of 5 runs, the two tools
# interleaved so both see the same load; and peak resident memory (ru_maxrss
# via /usr/bin/time).
# ember keeps the parsed /proc/kallsyms between runs (as perf keeps kallsyms
# in ~/.debug): the timed runs use a cache of the bench's own, made by one
# untimed run first, as any report after the first on a machine would; one
# more row, report-user --no-children without the cache, shows the first
# report after a boot.
set -u
. "$(dirname "$0")/lib.bash"
bench_init report
TMP=$(mktemp -d /tmp/ember-bench-report.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
export EMBER_KALLSYMS_CACHE_DIR="$TMP/kallsyms-cache"
WL="$BUILD/workloads"
[ -x "$WL/hotloop" ] || { echo "report bench: $WL/hotloop is missing (make first)"; exit 1; }

# user: two hot loops for 4 s at the top rate, every sample with a callchain
"$PERF" record -q -g -F max -o "$TMP/user.data" -- sh -c \
	"$WL/hotloop 4000 & $WL/hotloop 4000 & wait" >/dev/null 2>&1
# system: every cpu for 2 s, kernel stacks included, while short processes come and go
"$PERF" record -q -a -g -F 50000 -o "$TMP/system.data" -- sh -c \
	"$WL/hotloop 2000 & timeout 2 sh -c 'while :; do ls -R /usr/include/linux >/dev/null; done'; wait" \
	>/dev/null 2>&1

# cpu_medians N FILE ARGS...: "EMBER PERF", the median cpu seconds (user +
# system, from wait4()'s rusage: /usr/bin/time rounds to 10 ms, a tenth of
# ember's time) of N reports of FILE by each tool, run alternately. With
# NO_CACHE=1 ember runs without its kallsyms cache.
cpu_medians() {
	python3 - "$@" <<'PY'
import os, statistics, sys
n, f, args = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
ember, perf = os.environ["EMBER"], os.environ["PERF"]
def cpu(cmd, env):
    pid = os.fork()
    if pid == 0:
        fd = os.open("/dev/null", os.O_WRONLY)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.execvpe(cmd[0], cmd, env)
    _, _, ru = os.wait4(pid, 0)
    return ru.ru_utime + ru.ru_stime
eenv = dict(os.environ)
if os.environ.get("NO_CACHE") == "1":
    eenv["EMBER_KALLSYMS_CACHE_DIR"] = ""
e, p = [], []
for _ in range(n):
    e.append(cpu([ember, "report", "--stdio", "-i", f] + args, eenv))
    p.append(cpu([perf, "report", "--stdio", "-i", f] + args, os.environ))
print("%.4f %.4f" % (statistics.median(e), statistics.median(p)))
PY
}
# peak_kb TOOL FILE ARGS...: peak RSS in KB
peak_kb() {
	local tool=$1 file=$2
	shift 2
	/usr/bin/time -f %M "$tool" report --stdio -i "$file" "$@" 2>&1 >/dev/null | tail -1
}

for f in user system; do
	data="$TMP/$f.data"
	if [ ! -s "$data" ]; then
		echo "report bench: recording $f failed, skipped"
		continue
	fi
	"$EMBER" report --stdio -i "$data" >/dev/null 2>&1 # makes the kallsyms cache
	n=$("$PERF" report -i "$data" --stats 2>/dev/null | awk '$1 == "SAMPLE" && $2 == "events:" { print $3; exit }')
	for mode in children no-children; do
		read -r me mp < <(EMBER=$EMBER PERF=$PERF cpu_medians 5 "$data" --$mode)
		echo "report: $f ($n samples) --$mode: ember $me s, perf $mp s of cpu" \
			"($(echo "scale=1; $mp / $me" | bc)x faster)"
		printf 'result\treport-%s --%s\t%s\t%s\ts\t<=0.2\n' "$f" "$mode" "$me" "$mp"
	done
	if [ "$f" = user ]; then
		read -r me mp < <(NO_CACHE=1 EMBER=$EMBER PERF=$PERF cpu_medians 5 "$data" \
			--no-children)
		echo "report: $f --no-children, no kallsyms cache: ember $me s, perf $mp s of cpu"
		printf 'result\treport-%s --no-children (no kallsyms cache)\t%s\t%s\ts\t<=0.5\n' \
			"$f" "$me" "$mp"
	fi
	ke=$(peak_kb "$EMBER" "$data")
	kp=$(peak_kb "$PERF" "$data")
	echo "report: $f peak memory: ember $ke KB, perf $kp KB"
	printf 'result\treport-%s peak RSS\t%s\t%s\tKB\t<=1.0\n' "$f" "$ke" "$kp"
done
