# SPDX-License-Identifier: GPL-2.0-only
# ember heatmap --samples (FlameScope's view): the page embeds every sample
# once, in the cell of its second and offset (checked against perf script's
# times of the same file), with its stack; in a real browser (headless
# Chromium, when installed) selecting cells draws the flame graph of
# exactly those samples.
. "$(dirname "$0")/../lib/e2e.sh"

if ! have_perf; then
	skip setup "perf not installed"
	exit 0
fi
if ! is_root; then
	skip setup "needs root to record"
	exit 0
fi
if [ ! -x "$EMBER" ] || [ ! -x "$WL/hotloop" ]; then
	skip setup "no $EMBER or $WL/hotloop; build first"
	exit 0
fi
cd "$TMP" || exit 1

"$EMBER" record -q -g -F 499 -o hot.data -- "$WL/hotloop" 2500 >/dev/null 2>&1
"$EMBER" heatmap --samples -i hot.data -o hot.html 2>err.txt
expect_eq "exit" "$?" 0
expect_eq "no-warning" "$(cat err.txt)" ""

# Cells from the page, and from perf script's times: "col row count" lines.
python3 - hot.html >cells.page <<'PY'
import json, re, sys
page = open(sys.argv[1]).read()
d = json.loads(re.search(r'<script type="application/json" id="ember-data">(.*?)</script>', page, re.S).group(1))
for c in d['cells']:
    print(c[0], c[1], sum(c[3::2]))
PY
"$PERF" script --ns -F time -i hot.data 2>/dev/null | awk '
	{ sub(/:$/, "", $1); split($1, p, "."); s[NR] = p[1]; f[NR] = p[2] }
	NR == 1 || p[1] < min { min = p[1] }
	END { for (i = 1; i <= NR; i++) n[s[i] - min " " int(f[i] * 50 / 1000000000)]++
	      for (k in n) print k, n[k] }' | sort -n -k1,1 -k2,2 >cells.perf
nsamples=$("$PERF" script -F time -i hot.data 2>/dev/null | wc -l)
if [ "$nsamples" -ge 100 ]; then pass "recorded"; else fail "recorded" "$nsamples samples"; fi
expect_eq "all-samples-embedded" "$(awk '{ n += $3 } END { print n }' cells.page)" "$nsamples"
if cmp -s cells.page cells.perf; then
	pass "cells-as-perf-times"
else
	fail "cells-as-perf-times" "$(diff cells.perf cells.page | head -5)"
fi

# Stacks: the samples whose stack holds hot_a, as perf script's callchains say.
want=$("$PERF" script -F ip,sym -i hot.data 2>/dev/null | awk '
	/^$/ { if (in_a) n++; in_a = 0; next } $2 == "hot_a" { in_a = 1 } END { if (in_a) n++; print n + 0 }')
got=$(python3 - hot.html <<'PY'
import json, re, sys
page = open(sys.argv[1]).read()
d = json.loads(re.search(r'<script type="application/json" id="ember-data">(.*?)</script>', page, re.S).group(1))
nodes, frames = d['nodes'], d['frames']
def has(n, name):
    while n >= 0:
        if frames[nodes[2 * n + 1]] == name:
            return True
        n = nodes[2 * n]
    return False
print(sum(c[i + 1] for c in d['cells'] for i in range(2, len(c), 2) if has(c[i], 'hot_a')))
PY
)
if [ "$want" -gt 0 ] && [ "$got" = "$want" ]; then pass "stacks"; else fail "stacks" "got $got, want $want"; fi
if grep -q '"hotloop"' hot.html; then pass "comm-root"; else fail "comm-root"; fi

# A real browser: select every cell, then only column 1; the flame graph's root counts them.
chromium=$(command -v chromium || command -v chromium-browser)
if [ -z "$chromium" ]; then
	skip browser "no chromium installed"
else
	rows=50
	cols=$(python3 -c "import json,re,sys; print(json.loads(re.search(r'id=\"ember-data\">(.*?)</script>', open('hot.html').read(), re.S).group(1))['cols'])")
	last=$((cols * rows - 1))
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --dump-dom \
		"file://$TMP/hot.html#sel=0-$last" >all.dom 2>/dev/null
	expect_eq "browser-all" "$(grep -o '<svg id="flame"[^>]*data-samples="[0-9]*"' all.dom | sed 's/.*data-samples="//; s/"//')" "$nsamples"
	want=$(awk '$1 == 1 { n += $3 } END { print n + 0 }' cells.page)
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --dump-dom \
		"file://$TMP/hot.html#sel=$rows-$((2 * rows - 1))" >col1.dom 2>/dev/null
	expect_eq "browser-one-second" "$(grep -o '<g class="frame" data-name="all" data-samples="[0-9]*"' col1.dom | sed 's/.*data-samples="//; s/"//')" "$want"
	if grep -q 'data-name="hot_a"' all.dom; then pass "browser-frames"; else fail "browser-frames"; fi
fi

# --no-idle drops idle stacks; --event picks one event; bad input.
"$EMBER" heatmap --samples --no-idle -i hot.data -o idle.html
expect_eq "no-idle" "$?" 0
out=$("$EMBER" heatmap --samples --event cycles -i hot.data 2>&1 >/dev/null)
rc=$?
case "$rc:$out" in
"1:ember heatmap: hot.data has no cycles event (it has: cpu-clock"*")") pass "missing-event" ;;
*) fail "missing-event" "$rc:$out" ;;
esac
"$EMBER" heatmap --samples --event cpu-clock -i hot.data -o ev.html
expect_eq "event-without-modifiers" "$?" 0
out=$("$EMBER" heatmap --samples --pairs -i hot.data 2>&1)
expect_eq "samples-pairs-usage" "$?" 2
: >empty.data
out=$("$EMBER" heatmap --samples -i empty.data 2>&1)
expect_eq "empty-file" "$?:$out" "1:zero-sized data (empty.data), nothing to do!"
