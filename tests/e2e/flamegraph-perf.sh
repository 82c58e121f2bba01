#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember flamegraph on perf.data files recorded by real perf here: the SVG's
# frames spell exactly the stacks of --folded, and --folded equals
# `perf script | ember collapse` (stackcollapse-perf.pl's rules) on the same
# file: user and kernel stacks, several events, tracepoints, a fixed period,
# one-letter and blank-holding comms; then selection (--pid, --tid, --comm,
# --cpu, --time (seconds and percents), --event, --kernel-only, --user-only), --diff of two files,
# perf's pipe format on stdin, perf.data files on stdin (redirected or
# through a pipe), and a truncated file.
. "$(dirname "$0")/../lib/e2e.sh"

if ! have_perf; then skip all "perf is not installed"; exit 0; fi
if ! is_root; then skip all "needs root to record with perf -a and tracepoints"; exit 0; fi
if ! command -v python3 >/dev/null; then skip all "python3 is not installed"; exit 0; fi
HOT="$WL/hotloop"

# the folded stacks an SVG's frames spell (self counts), sorted bytewise
svg_folded() {
	python3 - "$1" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
fr = []
for g in ET.parse(sys.argv[1]).getroot().find("s:g[@id='frames']", ns):
    t = g.find("s:title", ns).text
    fr.append(dict(n=t[:t.rfind(" (")], s=float(g.get("data-s")), v=float(g.get("data-v")),
                   d=int(g.get("data-d")), k=0.0, p=[]))
by = {}
for f in fr:
    by.setdefault(f["d"], []).append(f)
for f in sorted(fr, key=lambda f: f["d"]):
    if f["d"]:
        par = [q for q in by[f["d"] - 1] if q["s"] <= f["s"] and f["s"] + f["v"] <= q["s"] + q["v"]]
        assert len(par) == 1, f
        par[0]["k"] += f["v"]
        f["p"] = par[0]["p"] + [f["n"]]
out = {}
for f in fr:
    if f["d"] and f["v"] - f["k"] > 0:
        key = ";".join(f["p"])
        out[key] = out.get(key, 0) + f["v"] - f["k"]
sys.stdout.write("".join("%s %d\n" % (k, out[k]) for k in sorted(out, key=lambda k: k.encode())))
PY
}

have_collapse() { "$EMBER" collapse --help >/dev/null 2>&1; }

# same_as_collapse NAME FILE [COLLAPSE-OPTION [FLAMEGRAPH-OPTION]]: --folded equals
# perf script | ember collapse
same_as_collapse() {
	local name=$1 file=$2 copt=${3:-} fopt=${4:-${3:-}}
	if ! have_collapse; then
		skip "$name" "ember collapse is not built yet"
		return
	fi
	"$PERF" script -i "$file" 2>/dev/null | "$EMBER" collapse $copt >"$TMP/c.txt" 2>/dev/null
	"$EMBER" flamegraph -q -i "$file" --folded $fopt >"$TMP/f.txt" 2>/dev/null
	if [ -s "$TMP/f.txt" ] && cmp -s "$TMP/c.txt" "$TMP/f.txt"; then
		pass "$name"
	else
		fail "$name" "$(diff "$TMP/c.txt" "$TMP/f.txt" | head -5)"
	fi
}

# A user-space workload with known hot functions, callchains by frame pointers.
"$PERF" record -q -g -F 999 -o "$TMP/hot.data" -- "$HOT" 400 >/dev/null 2>&1
out=$("$EMBER" flamegraph -i "$TMP/hot.data" -o "$TMP/hot.svg" 2>&1)
case "$out" in
"ember flamegraph: wrote $TMP/hot.svg ("*" samples, "*" frames)") pass perf-wrote ;;
*) fail perf-wrote "$out" ;;
esac
check perf-svg-xml python3 -c "import xml.etree.ElementTree as E; E.parse('$TMP/hot.svg')"
"$EMBER" flamegraph -q -i "$TMP/hot.data" --folded >"$TMP/hot.folded"
svg_folded "$TMP/hot.svg" >"$TMP/hot.svgfolded"
check perf-svg-frames-equal-folded cmp "$TMP/hot.svgfolded" "$TMP/hot.folded"
# the counts are the periods, as perf report's; the root is the comm
total=$("$PERF" script -F period -i "$TMP/hot.data" 2>/dev/null | awk '{ s += $1 } END { print s }')
expect_eq perf-total-is-period-sum "$(awk '{ s += $NF } END { print s }' "$TMP/hot.folded")" "$total"
check perf-root-comm grep -q '^hotloop;.*;hot_a ' "$TMP/hot.folded"
a=$(awk '/;hot_a( |;)/ { s += $NF } END { print s + 0 }' "$TMP/hot.folded")
b=$(awk '/;hot_b( |;)/ { s += $NF } END { print s + 0 }' "$TMP/hot.folded")
check perf-hot_a-twice-hot_b awk -v a="$a" -v b="$b" 'BEGIN { exit !(b > 0 && a / b > 1.3 && a / b < 8) }'
same_as_collapse collapse-user "$TMP/hot.data"
same_as_collapse collapse-user-annotated "$TMP/hot.data" --all "--annotate=all"

# Kernel stacks of everything, by cpu; several events; a tracepoint; a fixed period.
"$PERF" record -q -a -g -F 499 -o "$TMP/all.data" -- "$HOT" 300 >/dev/null 2>&1
same_as_collapse collapse-system-wide "$TMP/all.data"
same_as_collapse collapse-system-wide-kernel "$TMP/all.data" --kernel --annotate=kernel
same_as_collapse collapse-system-wide-addrs "$TMP/all.data" --addrs
"$PERF" record -q -g -e cpu-clock -e task-clock -F 499 -o "$TMP/multi.data" -- "$HOT" 200 >/dev/null 2>&1
same_as_collapse collapse-two-events "$TMP/multi.data"
if have_tracefs; then
	"$PERF" record -q -g -e sched:sched_switch -e cpu-clock -F 499 -o "$TMP/tp.data" -- "$HOT" 200 \
		>/dev/null 2>&1
	same_as_collapse collapse-tracepoint "$TMP/tp.data"
else
	skip collapse-tracepoint "tracefs is not available"
fi
"$PERF" record -q -g -e task-clock -c 100000 -o "$TMP/fixed.data" -- "$HOT" 200 >/dev/null 2>&1
same_as_collapse collapse-fixed-period "$TMP/fixed.data"
# comms the script's header regex reads oddly: one letter, blanks and digits inside
cp "$HOT" "$TMP/a"
cp "$HOT" "$TMP/x 12 y"
"$PERF" record -q -g -F 499 -o "$TMP/a.data" -- "$TMP/a" 150 >/dev/null 2>&1
"$PERF" record -q -g -F 499 -o "$TMP/x.data" -- "$TMP/x 12 y" 150 >/dev/null 2>&1
same_as_collapse collapse-one-letter-comm "$TMP/a.data"
same_as_collapse collapse-blank-comm "$TMP/x.data"

# ---- selection ----------------------------------------------------------------
"$EMBER" flamegraph -q -i "$TMP/all.data" --folded >"$TMP/all.folded"
pid=$("$PERF" script -F comm,pid -i "$TMP/all.data" 2>/dev/null | awk '$1 == "hotloop" { print $2; exit }')
"$EMBER" flamegraph -q -i "$TMP/all.data" --folded --pid "$pid" >"$TMP/pid.folded"
# the process is perf-exec until its exec, hotloop after
expect_eq select-pid "$(cut -d';' -f1 "$TMP/pid.folded" | sort -u | grep -v '^perf-exec$' | tr '\n' ' ')" "hotloop "
"$EMBER" flamegraph -q -i "$TMP/all.data" --folded --tid "$pid" >"$TMP/tid.folded"
check select-tid cmp "$TMP/pid.folded" "$TMP/tid.folded"
"$EMBER" flamegraph -q -i "$TMP/all.data" --folded --comm hotloop,nosuch >"$TMP/comm.folded"
grep '^hotloop;' "$TMP/pid.folded" >"$TMP/pid-hotloop.folded"
# System-wide: other hotloops running on the machine share the comm.
nhot=$("$PERF" script -F comm,pid -i "$TMP/all.data" 2>/dev/null | awk '$1 == "hotloop" { print $2 }' | sort -u | wc -l)
if [ "$nhot" -gt 1 ]; then
	skip select-comm "$nhot processes named hotloop ran during the recording"
else
	check select-comm cmp "$TMP/pid-hotloop.folded" "$TMP/comm.folded"
fi
n0=$("$PERF" script -F cpu -i "$TMP/all.data" 2>/dev/null | grep -c '\[000\]')
got=$("$EMBER" flamegraph -q -i "$TMP/all.data" --folded --cpu 0 --count-samples | awk '{ s += $NF } END { print s + 0 }')
expect_eq select-cpu "$got" "$n0"
# --time: the samples from the middle sample's time on, as perf script --time counts them
mid=$("$PERF" script -F time -i "$TMP/all.data" 2>/dev/null | tr -d ' :' | sort -n | awk '{ t[NR] = $1 } END { print t[int(NR / 2)] }')
want=$("$PERF" script -F time --time "$mid," -i "$TMP/all.data" 2>/dev/null | grep -c .)
got=$("$EMBER" flamegraph -q -i "$TMP/all.data" --folded --time "$mid," --count-samples | awk '{ s += $NF } END { print s + 0 }')
expect_eq select-time "$got" "$want"
# perf's percent forms: slices of the recording, counted as perf script --time counts them
for t in 10%/2 0%-10% 0%-10%,50%-60% 7.5%/3; do
	want=$("$PERF" script -F period --time "$t" -i "$TMP/hot.data" 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
	got=$("$EMBER" flamegraph -q -i "$TMP/hot.data" --folded --time "$t" | awk '{ s += $NF } END { print s + 0 }')
	expect_eq "select-time-$t" "$got" "$want"
done
out=$("$PERF" record -q -o - -- "$HOT" 20 2>/dev/null | "$EMBER" flamegraph -q --time 10%/2 -o "$TMP/x.svg" 2>&1)
st=$?
case "$st:$out" in
"1:ember flamegraph: --time 10%/2: standard input has no first and last sample times"*) pass select-time-percent-pipe ;;
*) fail select-time-percent-pipe "status $st: $out" ;;
esac
"$EMBER" flamegraph -q -i "$TMP/multi.data" --folded --event task-clock >"$TMP/ev.folded"
want=$("$PERF" script -F event,period -i "$TMP/multi.data" 2>/dev/null | awk '$2 ~ /^task-clock/ { s += $1 } END { print s }')
expect_eq select-event "$(awk '{ s += $NF } END { print s }' "$TMP/ev.folded")" "$want"
# Without --event, the first sample's event is drawn, as stackcollapse-perf.pl does;
# which of the two came first in time depends on the run.
first=$("$PERF" script -F event -i "$TMP/multi.data" 2>/dev/null | awk 'NF { sub(/:$/, "", $1); print $1; exit }')
out=$("$EMBER" flamegraph -i "$TMP/multi.data" -o "$TMP/multi.svg" 2>&1)
case "$out" in *"drawing event '$first'"*"--event"*) pass select-event-note ;; *) fail select-event-note "first sample's event '$first': $out" ;; esac
"$EMBER" flamegraph -q -i "$TMP/all.data" --folded --kernel-only >"$TMP/k.folded"
# Which kernel functions were sampled depends on the load: some, and no user frame.
if "$PERF" script -i "$TMP/all.data" -F ip,dso 2>/dev/null | grep -q 'kernel.kallsyms'; then
	check kernel-only-no-user sh -c "! grep -q 'hot_a\|__libc_start' '$TMP/k.folded' && grep -q '_\[k\]\|;' '$TMP/k.folded'"
else
	skip kernel-only-no-user "no kernel frame in the recording (a quiet machine)"
fi
"$EMBER" flamegraph -q -i "$TMP/all.data" --folded --user-only >"$TMP/u.folded"
check user-only-no-kernel sh -c "! grep -q 'entry_SYSCALL_64\|asm_sysvec' '$TMP/u.folded' && grep -q 'hot_a' '$TMP/u.folded'"
"$EMBER" flamegraph -q -i "$TMP/hot.data" --folded --show-pid >"$TMP/sp.folded"
check show-pid grep -Eq '^hotloop-[0-9]+;' "$TMP/sp.folded"

# ---- diff of two recordings, pipe input, damaged files ----------------------------
"$EMBER" flamegraph -q --diff "$TMP/hot.data" "$TMP/multi.data" -o "$TMP/pdiff.svg"
check perf-diff-svg grep -q '<title>hot_a ([0-9,]* samples, [0-9.]*%; [-+]' "$TMP/pdiff.svg"
"$PERF" record -q -g -F 499 -o - -- "$HOT" 150 2>/dev/null | "$EMBER" flamegraph -q -o "$TMP/pipe.svg"
check perf-pipe-stdin grep -q '<title>hot_a (' "$TMP/pipe.svg"
# a perf.data file (not the pipe format) on stdin, redirected or through a pipe:
# told from folded text by its PERFILE2 magic, read as with -i
"$EMBER" flamegraph -q --folded <"$TMP/hot.data" >"$TMP/stdin-file.folded"
check perf-file-on-stdin cmp "$TMP/stdin-file.folded" "$TMP/hot.folded"
cat "$TMP/hot.data" | "$EMBER" flamegraph -q --folded >"$TMP/stdin-cat.folded"
check perf-file-through-pipe cmp "$TMP/stdin-cat.folded" "$TMP/hot.folded"
"$EMBER" flamegraph -q -i - -o "$TMP/stdin-dash.svg" <"$TMP/hot.data"
"$EMBER" flamegraph -q -i "$TMP/hot.data" -o "$TMP/stdin-ref.svg"
check perf-file-dash-svg cmp "$TMP/stdin-dash.svg" "$TMP/stdin-ref.svg"
# on a terminal, a progress line counts the samples of a pipe (of unknown size)
if command -v script >/dev/null; then
	"$PERF" record -q -e cpu-clock -c 50000 -g -o "$TMP/many.data" -- "$HOT" 800 >/dev/null 2>&1
	n=$("$PERF" script -F period -i "$TMP/many.data" 2>/dev/null | grep -c .)
	if [ "$n" -ge 4096 ]; then
		script -qec "cat '$TMP/many.data' | '$EMBER' flamegraph -o '$TMP/many.svg'" /dev/null \
			>"$TMP/tty.out" </dev/null
		check perf-progress-on-tty grep -aq 'reading standard input: [0-9]* samples' "$TMP/tty.out"
	else
		skip perf-progress-on-tty "only $n samples recorded (4096 needed for a progress line)"
	fi
fi
size=$(stat -c %s "$TMP/hot.data")
head -c $((size * 2 / 3)) "$TMP/hot.data" >"$TMP/trunc.data"
out=$("$EMBER" flamegraph -i "$TMP/trunc.data" -o "$TMP/trunc.svg" 2>&1)
st=$?
if [ "$st" -le 1 ] && [ -n "$out" ]; then pass perf-truncated; else fail perf-truncated "status $st: $out"; fi
printf 'PERFILE2garbage-that-is-not-a-header' >"$TMP/bad.data"
out=$("$EMBER" flamegraph -i "$TMP/bad.data" -o "$TMP/bad.svg" 2>&1)
st=$?
if [ "$st" = 1 ] && echo "$out" | grep -q 'not a perf.data file'; then pass perf-bad-header; else fail perf-bad-header "status $st: $out"; fi
