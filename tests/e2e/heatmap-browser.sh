#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The FlameScope page of ember heatmap --samples in a real browser (headless
# Chromium driven by playwright-core, as flamegraph-browser.sh): the flame
# graph drawn for a selection searches as the SVG does — Ctrl-F and a
# regular expression, "Matched: X%" counting each sample once, the case
# toggle, invalid regexes, within a zoom, kept in and restored from the URL,
# reset (tests/browser/heatmap.mjs). The expected percentages come from the
# page's embedded data, computed here in Python.
. "$(dirname "$0")/../lib/e2e.sh"
. "$(dirname "$0")/../lib/browser-lib.bash"

if ! is_root || ! have_perf; then skip browser "needs root and perf to record"; exit 0; fi
if ! command -v python3 >/dev/null; then
	skip browser "python3 is needed (scripts/deps.sh installs it)"
	exit 0
fi
browser_ready || exit 0

"$PERF" record -q -g -F 499 -o "$TMP/hot.data" -- "$WL/hotloop" 1200 >/dev/null 2>&1
if ! "$EMBER" heatmap --samples -i "$TMP/hot.data" -o "$TMP/hot.html" 2>"$TMP/err"; then
	fail page "$(cat "$TMP/err")"
	exit 0
fi

# The expectations, from the page's JSON: frames, the stack trie (parent,
# frame) and per cell (node, count) pairs; a sample matches when any frame
# of its stack does (so nested matches count once).
python3 - "$TMP/hot.html" >"$TMP/expect.json" <<'PY'
import json, re, sys
d = json.loads(re.search(r'id="ember-data">(.*?)</script>', open(sys.argv[1]).read(), re.S).group(1))
nodes = d["nodes"]
def path(n):
    p = []
    while n >= 0:
        p.append(d["frames"][nodes[2 * n + 1]])
        n = nodes[2 * n]
    return p[::-1]
stacks = []
for c in d["cells"]:
    for j in range(2, len(c), 2):
        stacks.append((path(c[j]) if c[j] >= 0 else [], c[j + 1]))
total = sum(n for _, n in stacks)
rx = re.compile(r"^hot_a$")
hit = lambda p: any(rx.search(f) for f in p)
allp = 100.0 * sum(n for p, n in stacks if hit(p)) / total
# zoomed into a hot_a frame, everything matches: 100%, where the whole is less
zname, zoom = "hot_a", 100.0
print(json.dumps(dict(last=d["cols"] * d["rows"] - 1, total=total, regex="^hot_a$",
                      upper="^HOT_A$", all=allp, zoomName=zname, zoom=zoom)))
PY
if ! grep -q '"all": [1-9]' "$TMP/expect.json" || grep -q '"all": 100' "$TMP/expect.json"; then
	skip browser "no sample in hot_a recorded: $(cat "$TMP/expect.json")"
	exit 0
fi

browser_run "" heatmap.mjs "$TMP/hot.html" "$TMP/expect.json"
