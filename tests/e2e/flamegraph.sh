#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember flamegraph: the SVG is well-formed XML whose frames add up to the
# counts (the folded stacks read back from the SVG equal the input's), from
# folded text and from perf.data (perf's own recordings); --folded equals
# `perf script | ember collapse` on the same file; the drawing options;
# selection; differential graphs; bad input gives one clear line, never a
# crash.
. "$(dirname "$0")/../lib/e2e.sh"

# svgcheck SVG [FOLDED]: the SVG parses as XML, every frame lies inside its
# parent, children never exceed it, rect widths match the counts; prints
# the folded stacks the frames spell (self counts), sorted, or compares
# them with FOLDED (already merged and sorted) when given.
svgcheck() {
	python3 - "$@" <<'EOF'
import sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()
width = float(root.get("width"))
frames = []
for g in root.find("s:g[@id='frames']", ns):
    title = g.find("s:title", ns).text
    rect = g.find("s:rect", ns)
    name = title[:title.rfind(" (")]
    frames.append(dict(name=name, s=float(g.get("data-s")), v=float(g.get("data-v")),
                       d=int(g.get("data-d")), x=float(rect.get("x")), w=float(rect.get("width"))))
assert frames and frames[0]["d"] == 0, "first frame is the root"
total = frames[0]["v"]
scale = (width - 20) / total
bydepth = {}
for f in frames:
    bydepth.setdefault(f["d"], []).append(f)
    # pixel geometry follows the counts (rounded to 0.1 each edge)
    assert abs(f["x"] - (10 + f["s"] * scale)) <= 0.06, (f, scale)
    assert abs(f["w"] - f["v"] * scale) <= 0.11, (f, scale)
for f in frames:
    f["kids"] = 0
    if f["d"] == 0:
        f["path"] = []
        continue
    ps = [p for p in bydepth[f["d"] - 1] if p["s"] <= f["s"] and f["s"] + f["v"] <= p["s"] + p["v"]]
    assert len(ps) == 1, ("no single parent", f)
    f["parent"] = ps[0]
for f in sorted(frames, key=lambda f: f["d"]):
    if f["d"]:
        f["parent"]["kids"] += f["v"]
        f["path"] = f["parent"]["path"] + [f["name"]]
out = {}
for f in frames:
    assert f["kids"] <= f["v"] + 1e-6, ("children exceed", f)
    self = f["v"] - f["kids"]
    if f["d"] and self > 0:
        key = ";".join(f["path"])
        out[key] = out.get(key, 0) + self
got = "".join("%s %d\n" % (k, out[k]) for k in sorted(out, key=lambda k: k.encode()))
if len(sys.argv) > 2:
    want = open(sys.argv[2], encoding="utf-8", errors="surrogateescape").read()
    if got != want:
        sys.stderr.write("frames spell:\n" + got[:2000] + "\nwant:\n" + want[:2000])
        sys.exit(1)
else:
    sys.stdout.write(got)
EOF
}

# ---- folded input ----------------------------------------------------------
cat >"$TMP/in.folded" <<'EOF'
prog;main;parse;lex 30
prog;main;parse 10
prog;main;eval;add 25
prog;main;eval;mul 15
prog;main 5
other;start;work 15
prog;main;parse;lex 20
EOF
sort_folded() { LC_ALL=C sort | awk '{ n = $NF; $NF = ""; sub(/ $/, ""); c[$0] += n; o[++k] = $0 }
	END { for (i = 1; i <= k; i++) if (!(o[i] in seen)) { seen[o[i]] = 1; print o[i], c[o[i]] } }'; }
sort_folded <"$TMP/in.folded" >"$TMP/in.merged"

if ! command -v python3 >/dev/null; then
	skip svg-checks "python3 is not installed"
else
	check help "$EMBER" flamegraph --help
	out=$("$EMBER" flamegraph "$TMP/in.folded" -o "$TMP/f.svg" 2>&1)
	expect_eq folded-wrote "$out" "ember flamegraph: wrote $TMP/f.svg (7 stacks, 11 frames)"
	check folded-svg-xml-and-counts svgcheck "$TMP/f.svg" "$TMP/in.merged"
	check folded-xmllint sh -c "! command -v xmllint >/dev/null || xmllint --noout '$TMP/f.svg'"
	"$EMBER" flamegraph --folded "$TMP/in.folded" >"$TMP/f.refolded"
	check folded-out-sorted-merged cmp "$TMP/f.refolded" "$TMP/in.merged"
	# stdin, like flamegraph.pl; -o - writes to stdout
	"$EMBER" flamegraph -o - <"$TMP/in.folded" >"$TMP/stdin.svg" 2>/dev/null
	check folded-stdin-file svgcheck "$TMP/stdin.svg" "$TMP/in.merged"
	cat "$TMP/in.folded" | "$EMBER" flamegraph -q -o "$TMP/pipe.svg"
	check folded-stdin-pipe svgcheck "$TMP/pipe.svg" "$TMP/in.merged"
	(cd "$TMP" && "$EMBER" flamegraph -q in.folded </dev/null)
	check default-output-flame.svg test -s "$TMP/flame.svg"

	# drawing options
	"$EMBER" flamegraph -q "$TMP/in.folded" -o "$TMP/o.svg" --title 'My <title>' \
		--subtitle 'sub & title' --width 800 --height 20 --countname ms --fonttype Courier \
		--fontsize 10 --colors blue
	check options-svg svgcheck "$TMP/o.svg" "$TMP/in.merged"
	check options-title grep -q '>My &lt;title&gt;</text>' "$TMP/o.svg"
	check options-subtitle grep -q '<text id="subtitle"[^>]*>sub &amp; title</text>' "$TMP/o.svg"
	check options-width grep -q '<svg version="1.1" width="800"' "$TMP/o.svg"
	check options-height grep -q 'height="19.0"' "$TMP/o.svg"
	check options-countname grep -q '<title>parse (60 ms, 50.00%)</title>' "$TMP/o.svg"
	check options-font grep -q 'font-family:Courier; font-size:10px' "$TMP/o.svg"
	blue=$(grep -o 'fill="rgb([0-9]*,[0-9]*,[0-9]*)"' "$TMP/o.svg" | tr -dc '0-9,\n' |
		awk -F, '$3 < 205 || $1 != $2 { bad++ } END { print bad + 0 }')
	expect_eq options-colors-blue "$blue" 0
	"$EMBER" flamegraph -q "$TMP/in.folded" -o "$TMP/inv.svg" --inverted
	check inverted-title grep -q '>Icicle Graph</text>' "$TMP/inv.svg"
	# icicle: the root sits at the top (smallest y)
	rooty=$(grep -A1 '<title>all (' "$TMP/inv.svg" | grep -o '<rect x="[0-9.]*" y="[0-9.]*"' | grep -o 'y="[0-9.]*"')
	expect_eq inverted-root-top "$rooty" 'y="36.0"'
	"$EMBER" flamegraph -q "$TMP/in.folded" -o "$TMP/mw.svg" --minwidth 20%
	check minwidth-percent sh -c "! grep -q '<title>mul (' '$TMP/mw.svg' && grep -q '<title>add (' '$TMP/mw.svg'"
	"$EMBER" flamegraph -q "$TMP/in.folded" -o "$TMP/rev.svg" --reverse
	check reverse-roots grep -q '<title>lex (50 samples' "$TMP/rev.svg"
	"$EMBER" flamegraph -q "$TMP/in.folded" -o "$TMP/chart.svg" --flamechart
	check flamechart-title grep -q '>Flame Chart</text>' "$TMP/chart.svg"
	# time order kept: the two "lex" runs are two frames, "other" comes between them
	expect_eq flamechart-unmerged "$(grep -c '<title>lex (' "$TMP/chart.svg")" 2
	check flamechart-counts svgcheck "$TMP/chart.svg" "$TMP/in.merged"
	# consistent palette: colours written, then reused whatever the palette
	(cd "$TMP" && "$EMBER" flamegraph -q in.folded -o cp1.svg --cp &&
		"$EMBER" flamegraph -q in.folded -o cp2.svg --cp --colors green)
	check cp-file grep -q '^parse->rgb(' "$TMP/palette.map"
	f1=$(grep -o 'fill="rgb[^"]*"' "$TMP/cp1.svg" | md5sum)
	f2=$(grep -o 'fill="rgb[^"]*"' "$TMP/cp2.svg" | md5sum)
	expect_eq cp-colours-kept "$f2" "$f1"
	"$EMBER" flamegraph -q "$TMP/in.folded" -o "$TMP/cpf.svg" --cp="$TMP/my.map"
	check cp-named-file grep -q '^lex->rgb(' "$TMP/my.map"
fi

# ---- differential ------------------------------------------------------------
printf 'm;grow 10\nm;shrink 30\nm;same 5\n' >"$TMP/before.folded"
printf 'm;grow 30\nm;shrink 10\nm;same 5\n' >"$TMP/after.folded"
"$EMBER" flamegraph -q --diff "$TMP/before.folded" "$TMP/after.folded" -o "$TMP/diff.svg"
check diff-title grep -q '>Differential Flame Graph</text>' "$TMP/diff.svg"
check diff-red sh -c "grep -A1 '<title>grow (30 samples, 66.67%; +44.44%)' '$TMP/diff.svg' | grep -q 'fill=\"rgb(255,0,0)\"'"
check diff-blue sh -c "grep -A1 '<title>shrink (10 samples, 22.22%; -44.44%)' '$TMP/diff.svg' | grep -q 'fill=\"rgb(0,0,255)\"'"
check diff-white sh -c "grep -A1 '<title>same (' '$TMP/diff.svg' | grep -q 'fill=\"rgb(255,255,255)\"'"
"$EMBER" flamegraph -q --diff --negate "$TMP/before.folded" "$TMP/after.folded" -o "$TMP/neg.svg"
check diff-negate sh -c "grep -A1 '<title>grow (30 samples, 66.67%; -44.44%)' '$TMP/neg.svg' | grep -q 'fill=\"rgb(0,0,255)\"'"
out=$("$EMBER" flamegraph --diff --folded "$TMP/before.folded" "$TMP/after.folded")
expect_eq diff-folded "$out" $'m;grow 10 30\nm;same 5 5\nm;shrink 30 10'
printf 'm;grow 20\nm;shrink 60\nm;same 10\n' >"$TMP/before2.folded"
out=$("$EMBER" flamegraph -n --diff --folded "$TMP/before2.folded" "$TMP/after.folded")
expect_eq diff-normalize "$out" $'m;grow 10 30\nm;same 5 5\nm;shrink 30 10'
# flamegraph.pl's two-column input draws the same
"$EMBER" flamegraph --diff --folded "$TMP/before.folded" "$TMP/after.folded" >"$TMP/two.folded"
"$EMBER" flamegraph -q "$TMP/two.folded" -o "$TMP/two.svg"
check diff-two-column grep -q '<title>grow (30 samples, 66.67%; +44.44%)' "$TMP/two.svg"

# ---- bad input: one clear line, exit 1 (2 for usage), never a crash ----------
bad() { # NAME WANT-STATUS WANT-REGEX CMD...
	local name=$1 want=$2 re=$3 out st
	shift 3
	out=$("$@" 2>&1 >/dev/null)
	st=$?
	if [ "$st" = "$want" ] && [ "$(printf '%s\n' "$out" | grep -c .)" -le 2 ] &&
		printf '%s\n' "$out" | grep -Eq "$re"; then
		pass "$name"
	else
		fail "$name" "status $st (want $want): $out"
	fi
}
: >"$TMP/empty"
bad bad-empty-file 1 'no stack counts found in .*empty' "$EMBER" flamegraph "$TMP/empty" -o "$TMP/x.svg"
check bad-no-output-left sh -c "! test -e '$TMP/x.svg' && ! ls '$TMP'/x.svg.* 2>/dev/null"
printf 'this is not\na folded file\n' >"$TMP/garbage"
bad bad-garbage 1 'ignored 2 lines.*|no stack counts found' "$EMBER" flamegraph "$TMP/garbage" -o "$TMP/x.svg"
head -c 200000 /dev/urandom >"$TMP/noise"
out=$("$EMBER" flamegraph "$TMP/noise" -o "$TMP/noise.svg" 2>&1)
st=$?
if [ "$st" -le 1 ]; then pass bad-binary-noise; else fail bad-binary-noise "status $st: $out"; fi
if [ "$st" = 0 ] && command -v python3 >/dev/null; then
	check bad-binary-noise-xml svgcheck "$TMP/noise.svg"
fi
printf 'a;b 5\nc;d 123456789012345678901234567890\n' >"$TMP/huge"
bad bad-huge-count 1 'huge:2: count too large' "$EMBER" flamegraph "$TMP/huge" -o "$TMP/x.svg"
bad bad-missing-file 1 'cannot open .*nope: No such file' "$EMBER" flamegraph "$TMP/nope" -o "$TMP/x.svg"
bad bad-directory 1 'cannot read .*: Is a directory' "$EMBER" flamegraph "$TMP" -o "$TMP/x.svg"
bad bad-option 2 'unknown option' "$EMBER" flamegraph --bogus
bad bad-palette 2 "unknown palette 'pink'" "$EMBER" flamegraph --colors pink "$TMP/in.folded"
bad bad-minwidth 2 'minwidth' "$EMBER" flamegraph --minwidth 5x "$TMP/in.folded"
bad bad-diff-args 2 'two inputs' "$EMBER" flamegraph --diff "$TMP/in.folded"
bad bad-normalize-alone 2 'needs --diff' "$EMBER" flamegraph --normalize "$TMP/in.folded"
bad bad-time 2 'time expects' "$EMBER" flamegraph --time abc "$TMP/in.folded"
bad bad-time-percent 2 'time expects' "$EMBER" flamegraph --time 10%x "$TMP/in.folded"
bad bad-time-percent-range 2 'time expects' "$EMBER" flamegraph --time 20%-10% "$TMP/in.folded"
bad bad-cpu 2 'cpu expects' "$EMBER" flamegraph --cpu x-y "$TMP/in.folded"
printf 'bad palette line\n' >"$TMP/bad.map"
bad bad-palette-file 1 'cannot read the palette' "$EMBER" flamegraph --cp="$TMP/bad.map" "$TMP/in.folded" -o "$TMP/x.svg"
bad bad-output-dir 1 'cannot write' "$EMBER" flamegraph "$TMP/in.folded" -o "$TMP/no/such/dir.svg"

# On a terminal (script(1) gives one), a progress line on stderr while a big
# input is read, erased before the 'wrote' line; none when -q, none off a terminal.
if command -v script >/dev/null; then
	awk 'BEGIN { for (i = 0; i < 700000; i++) printf "proc;func_%d;child_%d;leaf_%d %d\n", i % 500, i % 37, i % 11, i % 7 + 1 }' >"$TMP/big.folded"
	script -qec "'$EMBER' flamegraph '$TMP/big.folded' -o '$TMP/big.svg'" /dev/null >"$TMP/tty.out" </dev/null
	if grep -aq "reading $TMP/big.folded: *[0-9]*% ([0-9]* MiB)" "$TMP/tty.out" &&
		grep -aq $'\r\033\\[Kember flamegraph: wrote' "$TMP/tty.out"; then
		pass progress-on-tty
	else
		fail progress-on-tty "$(cat -A "$TMP/tty.out" | head -3)"
	fi
	script -qec "'$EMBER' flamegraph -q '$TMP/big.folded' -o '$TMP/big.svg'" /dev/null >"$TMP/tty.out" </dev/null
	check progress-quiet-none sh -c "! grep -aq reading '$TMP/tty.out'"
	"$EMBER" flamegraph "$TMP/big.folded" -o "$TMP/big.svg" 2>"$TMP/notty.err"
	expect_eq progress-off-tty-none "$(cat "$TMP/notty.err")" "ember flamegraph: wrote $TMP/big.svg (700000 stacks, 502 frames)"
	script -qec "'$EMBER' flamegraph '$TMP/in.folded' -o '$TMP/small.svg'" /dev/null >"$TMP/tty.out" </dev/null
	check progress-small-none sh -c "! grep -aq reading '$TMP/tty.out'"
else
	skip progress "script(1) is not installed to give a terminal"
fi
