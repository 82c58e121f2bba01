#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember flamegraph takes flamegraph.pl's options with their meaning, so the
# scripts' users keep their command lines: each option checked on the SVG
# it draws (attributes and structure; not byte for byte with the Perl).
. "$(dirname "$0")/../lib/e2e.sh"

if ! command -v python3 >/dev/null; then skip all "python3 is not installed"; exit 0; fi

# q SVG EXPR: evaluates a python expression with `root` (the parsed SVG),
# `frames` (name -> <g>), `fill(name)`, `title(name)` and `src` (the text).
q() {
	python3 - "$@" <<'EOF'
import sys, re, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg", "x": "http://www.w3.org/1999/xlink"}
src = open(sys.argv[1], "rb").read().decode("latin-1")
root = ET.parse(sys.argv[1]).getroot()
frames = {}
for g in root.find("s:g[@id='frames']", ns):
    t = g.find("s:title", ns).text
    frames[t[:t.rfind(" (")] if " (" in t else t] = g
def rect(n):
    return frames[n].find(".//s:rect", ns)
def fill(n):
    return tuple(int(v) for v in re.findall(r"\d+", rect(n).get("fill")))
def title(n):
    return frames[n].find("s:title", ns).text
def stops():
    return [s.get("stop-color") for s in root.iter("{http://www.w3.org/2000/svg}stop")]
r = eval(sys.argv[2])
if r is not True:
    print("got:", r)
    sys.exit(1)
EOF
}

printf 'main;a;b 10\nmain;a;c 5\nmain;d 3\nmain;e;f;g 2\n' >"$TMP/in.folded"
fg() { "$EMBER" flamegraph -q "$TMP/in.folded" "$@"; }

# Every option of flamegraph.pl's GetOptions, with a value, is taken.
for o in "--title=T" "--subtitle=S" "--width=900" "--height=14" "--minwidth=0.5" \
	"--minwidth=1%" "--fonttype=Arial" "--fontsize=11" "--fontwidth=0.6" "--countname=bytes" \
	"--nametype=Symbol:" "--colors=mem" "--colors=chain" "--bgcolors=grey" "--hash" "--random" "--reverse" \
	"--inverted" "--flamechart" "--negate" "--notes=n" "--factor=2" "--encoding=UTF-8" \
	"--total=100"; do
	if fg "$o" -o "$TMP/o.svg" 2>"$TMP/o.err" && q "$TMP/o.svg" 'len(frames) > 1' >/dev/null; then
		pass "takes-$o"
	else
		fail "takes-$o" "$(cat "$TMP/o.err")"
	fi
done
(cd "$TMP" && "$EMBER" flamegraph -q --cp in.folded -o cp.svg) && [ -s "$TMP/palette.map" ] &&
	pass takes--cp || fail takes--cp "no palette.map written"

# --bgcolors: the four gradients and a flat colour; the default follows the palette.
fg --bgcolors yellow -o "$TMP/bg.svg"
check bg-yellow q "$TMP/bg.svg" 'stops() == ["#eeeeee", "#eeeeb0"]'
fg --bgcolors blue -o "$TMP/bg.svg"
check bg-blue q "$TMP/bg.svg" 'stops() == ["#eeeeee", "#e0e0ff"]'
fg --bgcolors green -o "$TMP/bg.svg"
check bg-green q "$TMP/bg.svg" 'stops() == ["#eef2ee", "#e0ffe0"]'
fg --bgcolors grey -o "$TMP/bg.svg"
check bg-grey q "$TMP/bg.svg" 'stops() == ["#f8f8f8", "#e8e8e8"]'
fg --bgcolors '#12ab9F' -o "$TMP/bg.svg"
check bg-flat q "$TMP/bg.svg" 'stops() == ["#12ab9F", "#12ab9F"]'
fg -o "$TMP/bg.svg"
check bg-default-hot-yellow q "$TMP/bg.svg" 'stops() == ["#eeeeee", "#eeeeb0"]'
fg --colors mem -o "$TMP/bg.svg"
check bg-default-mem-green q "$TMP/bg.svg" 'stops() == ["#eef2ee", "#e0ffe0"]'
fg --colors io -o "$TMP/bg.svg"
check bg-default-io-blue q "$TMP/bg.svg" 'stops() == ["#eeeeee", "#e0e0ff"]'
fg --colors red -o "$TMP/bg.svg"
check bg-default-red-grey q "$TMP/bg.svg" 'stops() == ["#f8f8f8", "#e8e8e8"]'
fg --colors mem --bgcolors yellow -o "$TMP/bg.svg"
check bg-overrides-palette q "$TMP/bg.svg" 'stops() == ["#eeeeee", "#eeeeb0"]'

# --hash (the default): a name has one colour in every graph; --random: any, in the palette's hue.
fg --hash -o "$TMP/h1.svg"
fg -o "$TMP/h2.svg"
printf 'other;b 1\nx;y;z;a 4\n' | "$EMBER" flamegraph -q --hash -o "$TMP/h3.svg"
check hash-same-as-default cmp "$TMP/h1.svg" "$TMP/h2.svg"
b=$(grep -o '<title>b (.*' "$TMP/h1.svg" | grep -o 'fill="[^"]*"')
check hash-same-name-same-colour grep -q "<title>b (.*$b" "$TMP/h3.svg"
awk 'BEGIN { for (i = 0; i < 60; i++) printf "main;f%d 1\n", i }' >"$TMP/many.folded"
"$EMBER" flamegraph -q --random "$TMP/many.folded" -o "$TMP/r1.svg"
"$EMBER" flamegraph -q --random "$TMP/many.folded" -o "$TMP/r2.svg"
"$EMBER" flamegraph -q "$TMP/many.folded" -o "$TMP/r0.svg"
fills() { grep -o 'fill="rgb[^"]*"' "$1"; }
if ! cmp -s <(fills "$TMP/r1.svg") <(fills "$TMP/r2.svg") &&
	! cmp -s <(fills "$TMP/r1.svg") <(fills "$TMP/r0.svg"); then
	pass random-colours-vary
else
	fail random-colours-vary "two --random graphs coloured the same"
fi
check random-in-hot-hue q "$TMP/r1.svg" \
	'all(205 <= fill(n)[0] <= 255 and fill(n)[1] <= 230 and fill(n)[2] <= 55 for n in frames if n.startswith("f"))'
"$EMBER" flamegraph -q --random --colors blue "$TMP/many.folded" -o "$TMP/r3.svg"
check random-in-blue-hue q "$TMP/r3.svg" \
	'all(205 <= fill(n)[2] <= 255 and fill(n)[0] == fill(n)[1] for n in frames if n.startswith("f"))'

# --colors and its alias --color
fg --colors aqua -o "$TMP/c1.svg"
fg --color aqua -o "$TMP/c2.svg"
check color-alias cmp "$TMP/c1.svg" "$TMP/c2.svg"
check colors-aqua q "$TMP/c1.svg" 'all(50 <= fill(n)[0] <= 110 and fill(n)[1] == fill(n)[2] >= 165 for n in "abcdefg")'

# --colors chain (off-CPU chain graphs): the blocked stack blue, frames after "--" the
# waker's (flamegraph.pl's "_[w]") aqua, "--" grey, a blue background.
printf 'sleeper;read;schedule;--;waker;write;wake_up 7\nsleeper;poll 3\n' >"$TMP/chain.folded"
"$EMBER" flamegraph -q --colors chain "$TMP/chain.folded" -o "$TMP/chain.svg"
check chain-offcpu-blue q "$TMP/chain.svg" \
	'all(205 <= fill(n)[2] and fill(n)[0] == fill(n)[1] <= 140 for n in ("sleeper", "read", "schedule", "poll"))'
check chain-waker-aqua q "$TMP/chain.svg" \
	'all(fill(n)[1] == fill(n)[2] >= 165 and fill(n)[0] <= 110 for n in ("waker", "write", "wake_up"))'
check chain-separator-grey q "$TMP/chain.svg" 'fill("--") == (160, 160, 160)'
check chain-background q "$TMP/chain.svg" 'stops() == ["#eeeeee", "#e0e0ff"]'

# --nameattr: <g> attributes, a replaced tooltip, links; later lines win.
printf 'b\tclass=hot\tstyle=opacity:0.5\tonclick=void(0)\n' >"$TMP/attrs"
printf 'b\tclass=hotter\thref=https://example.com/?f=b&x=1\ttitle=B <custom>\n' >>"$TMP/attrs"
printf 'd\thref=d.html\ttarget=_blank\ta_extra=data-a="1"\tg_extra=data-g="2"\n' >>"$TMP/attrs"
printf 'g_[i]\tclass=inl\n' >>"$TMP/attrs"
printf 'main;a;b 10\nmain;d 3\nmain;g_[i] 1\n' >"$TMP/na.folded"
"$EMBER" flamegraph -q --nameattr "$TMP/attrs" "$TMP/na.folded" -o "$TMP/na.svg"
check nameattr-xml q "$TMP/na.svg" 'True'
check nameattr-class q "$TMP/na.svg" \
	'[frames[k].get("class") for k in ("B <custom>", "a")] == ["hotter", None]'
check nameattr-onclick-style-dropped-by-later-line q "$TMP/na.svg" \
	'frames["B <custom>"].get("style") is None'
check nameattr-title q "$TMP/na.svg" 'title("B <custom>") == "B <custom>"'
check nameattr-href q "$TMP/na.svg" \
	'frames["B <custom>"].find("s:a", ns).get("{%s}href" % ns["x"]) == "https://example.com/?f=b&x=1" and frames["B <custom>"].find("s:a", ns).get("target") == "_top"'
check nameattr-target-extras q "$TMP/na.svg" \
	'frames["d"].find("s:a", ns).get("target") == "_blank" and frames["d"].find("s:a", ns).get("data-a") == "1" and frames["d"].get("data-g") == "2"'
check nameattr-rect-inside-link q "$TMP/na.svg" 'frames["d"].find("s:a/s:rect", ns) is not None'
check nameattr-suffixed-name q "$TMP/na.svg" 'frames["g"].get("class") == "inl"'
printf 'b class=hot\n' >"$TMP/badattrs"
out=$("$EMBER" flamegraph -q --nameattr "$TMP/badattrs" "$TMP/na.folded" -o "$TMP/x.svg" 2>&1)
st=$?
[ "$st" = 1 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && case "$out" in *"badattrs:1:"*) true ;; *) false ;; esac &&
	pass nameattr-bad-line || fail nameattr-bad-line "status $st: $out"
out=$("$EMBER" flamegraph -q --nameattr "$TMP/nope" "$TMP/na.folded" -o "$TMP/x.svg" 2>&1)
[ $? = 1 ] && case "$out" in *"cannot read"*"nope"*) true ;; *) false ;; esac &&
	pass nameattr-missing || fail nameattr-missing "$out"

# --factor scales the counts the tooltips show, not the drawing.
fg --factor 3 -o "$TMP/f.svg"
check factor-titles q "$TMP/f.svg" 'title("b").startswith("b (30 samples") and title("all").startswith("all (60 samples")'
check factor-geometry q "$TMP/f.svg" 'frames["b"].get("data-v") == "10"'
fg --factor 0.5 -o "$TMP/f.svg"
check factor-fraction q "$TMP/f.svg" 'title("b").startswith("b (5 samples")'

# --encoding: the declaration says it, names' bytes go as they are.
printf 'main;caf\xe9 4\nmain;x 1\n' >"$TMP/latin1.folded"
"$EMBER" flamegraph -q --encoding ISO-8859-1 "$TMP/latin1.folded" -o "$TMP/l1.svg"
check encoding-declared grep -q '^<?xml version="1.0" encoding="ISO-8859-1"' "$TMP/l1.svg"
check encoding-name-decodes q "$TMP/l1.svg" '"caf\u00e9" in frames'
"$EMBER" flamegraph -q "$TMP/latin1.folded" -o "$TMP/u8.svg"
check encoding-default-utf8-replaces q "$TMP/u8.svg" '"caf\ufffd" in frames'
out=$("$EMBER" flamegraph -q --encoding 'x"y' "$TMP/latin1.folded" -o "$TMP/x.svg" 2>&1)
[ $? = 2 ] && case "$out" in *"--encoding expects"*) true ;; *) false ;; esac &&
	pass encoding-bad || fail encoding-bad "$out"

# --notes: an XML comment, kept well-formed whatever it holds.
fg --notes 'run 7 -- caf'$'\xc3\xa9'' <&> -' -o "$TMP/n.svg"
check notes-comment grep -q '^<!-- NOTES: run 7 - - café &lt;&amp;&gt; -  -->$' "$TMP/n.svg"
check notes-xml q "$TMP/n.svg" 'True'

# --nametype and --countname reach the details line and tooltips.
fg --nametype 'Symbol:' --countname bytes -o "$TMP/nt.svg"
check nametype-in-script grep -q 'nametype: "Symbol:"' "$TMP/nt.svg"
check countname-in-titles q "$TMP/nt.svg" 'title("b").startswith("b (10 bytes")'

# --minwidth in pixels and in percent of the total.
fg --minwidth '11%' -o "$TMP/mw.svg"
check minwidth-percent q "$TMP/mw.svg" 'sorted(frames) == ["a", "all", "b", "c", "d", "main"]'
fg --minwidth 200 -o "$TMP/mw.svg"
check minwidth-pixels q "$TMP/mw.svg" 'sorted(frames) == ["a", "all", "b", "c", "main"]'

# --total: a bigger total than the input's shrinks every frame to its share.
fg --total 40 -o "$TMP/t.svg"
check total-scales q "$TMP/t.svg" 'abs(float(rect("main").get("width")) - 590) < 0.2 and title("main").endswith("50.00%)")'

out=$("$EMBER" flamegraph "$TMP/in.folded" --total 10 -o "$TMP/t.svg" 2>&1 | head -1)
expect_eq total-smaller-ignored "$out" "ember flamegraph: --total 10 is less than the input's total 20; ignored"
check total-smaller-same-drawing q "$TMP/t.svg" 'abs(float(rect("main").get("width")) - 1180) < 0.2'

# --negate: two-count folded lines (difffolded.pl's output) grow red, and blue when negated.
printf 'main;grow 1 9\nmain;shrink 9 1\n' >"$TMP/d.folded"
"$EMBER" flamegraph -q "$TMP/d.folded" -o "$TMP/d.svg"
"$EMBER" flamegraph -q --negate "$TMP/d.folded" -o "$TMP/dn.svg"
check diff-folded-red-grows q "$TMP/d.svg" 'fill("grow")[0] == 255 and fill("grow")[2] < 255 and fill("shrink")[2] == 255'
check negate-swaps q "$TMP/dn.svg" 'fill("grow")[2] == 255 and fill("grow")[0] < 255 and fill("shrink")[0] == 255'

# bad values: one line, exit 2
bad() { # NAME WANT-REGEX ARGS...
	local name=$1 want=$2 out st
	shift 2
	out=$("$EMBER" flamegraph "$@" 2>&1)
	st=$?
	if [ "$st" = 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && printf '%s' "$out" | grep -q "$want"; then
		pass "$name"
	else
		fail "$name" "status $st: $out"
	fi
}
bad bad-bgcolors "bgcolors takes" --bgcolors pink "$TMP/in.folded"
bad bad-bgcolors-hex "bgcolors takes" --bgcolors '#12345g' "$TMP/in.folded"
bad bad-factor "factor expects" --factor -1 "$TMP/in.folded"
bad bad-factor-text "factor expects" --factor x "$TMP/in.folded"
bad bad-total "total expects" --total 0 "$TMP/in.folded"
bad bad-hash-random "exclude each other" --hash --random "$TMP/in.folded"

# perf.data's sample options on folded input: drawn anyway, with a note saying they do not apply
out=$("$EMBER" flamegraph --pid 5 "$TMP/in.folded" -o "$TMP/x.svg" 2>&1 | head -1)
expect_eq perf-option-on-folded-note "$out" \
	"ember flamegraph: $TMP/in.folded holds folded stacks, not perf.data: --pid (and the other sample options) do not apply to it"
