# SPDX-License-Identifier: GPL-2.0-only
# ember heatmap on trace2heatmap.pl's input (time latency lines): the SVG is
# well-formed, every point in range is in exactly one cell, the options
# change what they say, and bad input gets one clear line, never a crash.
. "$(dirname "$0")/../lib/e2e.sh"

if [ ! -x "$EMBER" ]; then
	skip setup "no $EMBER; build first"
	exit 0
fi
if ! command -v python3 >/dev/null; then
	skip setup "python3 is needed to parse the SVG"
	exit 0
fi
cd "$TMP" || exit 1

# Counts of every cell's tooltip, summed; fails on XML that does not parse.
svg_total() {
	python3 - "$1" <<'PY'
import re, sys, xml.etree.ElementTree as ET
ns = '{http://www.w3.org/2000/svg}'
root = ET.parse(sys.argv[1]).getroot()
total = 0
for r in root.iter(ns + 'rect'):
    t = r.find(ns + 'title')
    if t is not None:
        total += int(re.search(r'count: (\d+),', t.text).group(1))
print(total)
PY
}

# 3000 I/Os over ~10 s, us timestamps, latencies 100 us to 20 ms (deterministic).
awk 'BEGIN { print "time latency"; t = 6011793689; s = 7
	for (i = 0; i < 3000; i++) { s = (s * 16807) % 2147483647
		t += 1 + s % 6000; printf "%.0f %d\n", t, 100 + s % 19900 } }' >trace.txt

"$EMBER" heatmap --unitstime=us --unitslat=us trace.txt >out.svg 2>err.txt
expect_eq "exit" "$?" 0
expect_eq "no-warning" "$(cat err.txt)" ""
expect_eq "well-formed-and-all-counted" "$(svg_total out.svg)" 3000
if grep -q 'range [0-9]*-[0-9]*us, count: [0-9]*, pct: [0-9]*%, acc: [0-9]*, acc pct: [0-9]*%' out.svg; then
	pass "tooltip"
else
	fail "tooltip" "$(grep -m1 '<title>' out.svg)"
fi
# The last cell of each column accumulates its whole column.
if grep -q 'acc pct: 100%' out.svg; then pass "acc-pct"; else fail "acc-pct"; fi

# --maxlat leaves the slower ones out; what is left is all there.
want=$(awk 'NR > 1 && $2 <= 10000' trace.txt | wc -l)
"$EMBER" heatmap --unitstime=us --unitslat=us --maxlat=10000 trace.txt >max.svg
expect_eq "maxlat" "$(svg_total max.svg)" "$want"
want=$(awk 'NR > 1 && $2 >= 5000 && $2 <= 10000' trace.txt | wc -l)
"$EMBER" heatmap --unitstime=us --minlat=5000 --maxlat=10000 trace.txt >minmax.svg
expect_eq "minlat" "$(svg_total minmax.svg)" "$want"

# --rows and --boxsize give the height; --stepsec the columns.
"$EMBER" heatmap --unitstime=us --rows=10 --boxsize=4 --stepsec=2 trace.txt >rows.svg
expect_eq "rows-height" "$(grep -o '<svg[^>]*height="[0-9]*"' rows.svg | sed 's/.*height="//; s/"//')" \
	"$((10 * 4 + 36 + 54))"
expect_eq "stepsec" "$(svg_total rows.svg)" 3000
if grep -q '<title>time 2-3s,' rows.svg; then pass "stepsec-label"; else fail "stepsec-label"; fi

# --title (escaped), --grid (time and latency labels).
"$EMBER" heatmap --unitstime=us --unitslat=us --grid --title='Disk <I/O> & "more"' trace.txt >grid.svg
expect_eq "title-grid-well-formed" "$(svg_total grid.svg)" 3000
if grep -q '>Disk &lt;I/O&gt; &amp; &quot;more&quot;</text>' grid.svg; then pass "title"; else fail "title"; fi
if grep -q '>0s</text>' grid.svg && grep -q '>19[0-9]*us</text>' grid.svg &&
   grep -q '>0us</text>' grid.svg; then
	pass "grid"
else
	fail "grid"
fi

# stdin (a pipe), -i, -o.
awk 'NR > 1' trace.txt | "$EMBER" heatmap --unitstime=us >pipe.svg
expect_eq "stdin-pipe" "$(svg_total pipe.svg)" 3000
"$EMBER" heatmap --unitstime=us -i trace.txt -o file.svg
expect_eq "output-file" "$(svg_total file.svg)" 3000

# Bad input: one line on stderr, exit 1, no output file left.
: >empty.txt
out=$("$EMBER" heatmap empty.txt -o e.svg 2>&1)
expect_eq "empty-exit" "$?" 1
expect_eq "empty-message" "$out" "ember heatmap: empty.txt is empty: expected lines of two numbers (time latency)"
if [ -e e.svg ]; then fail "empty-no-output"; else pass "empty-no-output"; fi

printf 'time latency\nthis is not\nat all\n' >words.txt
out=$("$EMBER" heatmap words.txt 2>&1 >/dev/null)
expect_eq "words-exit" "$?" 1
expect_eq "words-message" "$out" "ember heatmap: words.txt has no line of two numbers (time latency); line 2 is not one"

{ head -5 trace.txt; echo 'garbage here'; printf '1\0002 3\n'; echo '0x10 5'; tail -5 trace.txt; } >mixed.txt
out=$("$EMBER" heatmap --unitstime=us mixed.txt 2>&1 >mixed.svg)
expect_eq "garbage-exit" "$?" 0
expect_eq "garbage-warning" "$out" "ember heatmap: skipped 3 lines of mixed.txt that are not two numbers (first: line 6)"
expect_eq "garbage-counted" "$(svg_total mixed.svg)" 9

head -c 200000 /dev/urandom >noise.bin
"$EMBER" heatmap noise.bin >noise.svg 2>noise.err
rc=$?
if [ "$rc" -le 1 ] && [ "$(wc -l <noise.err)" -le 2 ]; then pass "binary-noise"; else fail "binary-noise" "exit $rc"; fi

printf '0 1\n1e300 2\n' >wide.txt
out=$("$EMBER" heatmap wide.txt 2>&1 >/dev/null)
expect_eq "huge-time-exit" "$?" 1
expect_eq "huge-time-message" "$out" \
	"ember heatmap: too many columns (more than 10000) for wide.txt; try --unitstime or a larger --stepsec"
printf '0 1\n1 1e300\n2 1e308\n' >big.txt
"$EMBER" heatmap big.txt >big.svg
expect_eq "huge-latency" "$(svg_total big.svg)" 3
printf '0 1\n1 99999999999999999999999999999999999999999\n' >long.txt
"$EMBER" heatmap long.txt >long.svg
expect_eq "huge-digits" "$(svg_total long.svg)" 2

# Usage errors: exit 2, one line.
out=$("$EMBER" heatmap --unitstime=weeks trace.txt 2>&1)
expect_eq "bad-units-exit" "$?" 2
expect_eq "bad-units-message" "$out" "ember heatmap: cannot parse time units 'weeks'; use s, ms, us or ns"
out=$("$EMBER" heatmap --maxlat=abc trace.txt 2>&1)
expect_eq "bad-number-exit" "$?" 2
expect_eq "bad-number-message" "$out" "ember heatmap: --maxlat expects a number, not 'abc'"
out=$("$EMBER" heatmap --minlat=10 --maxlat=5 trace.txt 2>&1)
expect_eq "min-above-max" "$?" 2
out=$("$EMBER" heatmap nosuchfile 2>&1)
expect_eq "missing-file-exit" "$?" 1
expect_eq "missing-file-message" "$out" "ember heatmap: cannot open nosuchfile: No such file or directory"
if "$EMBER" heatmap --help | grep -q 'Usage: ember heatmap'; then pass "help"; else fail "help"; fi
