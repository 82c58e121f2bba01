#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember collapse --inline / --context: inline chains from DWARF, as
# `addr2line -i -f -s -C` gives them to stackcollapse-perf.pl, on a workload
# whose hot address sits three inline levels deep (tests/collapse/inlined.c);
# ember flamegraph --inline draws the same chains from perf.data.
. "$(dirname "$0")/../lib/e2e.sh"

if ! is_root || ! have_perf; then
	skip inline "needs root and perf"
	exit 0
fi
if ! cc -O2 -g -fno-omit-frame-pointer -o "$TMP/inlined" "$TOP/tests/collapse/inlined.c" 2>"$TMP/cc.err"; then
	skip inline "cannot build the workload: $(head -1 "$TMP/cc.err")"
	exit 0
fi
"$PERF" record -q -g -o "$TMP/inl.data" "$TMP/inlined" 300 >/dev/null 2>&1
"$PERF" script -i "$TMP/inl.data" >"$TMP/inl.txt" 2>/dev/null

"$EMBER" collapse <"$TMP/inl.txt" >"$TMP/plain"
"$EMBER" collapse --inline <"$TMP/inl.txt" >"$TMP/inline"
"$EMBER" collapse --inline --context <"$TMP/inl.txt" >"$TMP/context"
hot() { awk '{ c = $NF; $NF = ""; sub(/ $/, ""); s[$0] += c } END { for (k in s) print s[k], k }' "$1" |
	sort -rn | head -1 | cut -d' ' -f2-; }
case "$(hot "$TMP/plain")" in
*";outer") pass plain-names-outer ;;
*) fail plain-names-outer "$(hot "$TMP/plain")" ;;
esac
# leaf_share FILE: the % of outer()'s samples whose stack ends in the whole
# chain outer;mid;leaf. leaf's add and mid's loop control share the hot loop
# (19 to 29 % of it leaf's on one VM, most of it on another), so which ends
# the single hottest stack varies: without inline names there would be none.
leaf_share() {
	awk '{ c = $NF; $NF = ""; sub(/ $/, "") }
		/;outer(;|$)/ { all += c } /;outer;mid;leaf$/ { leaf += c }
		END { print all ? int(100 * leaf / all) : 0 }' "$1"
}
if [ "$(leaf_share "$TMP/inline")" -ge 5 ]; then
	pass inline-chain
else
	fail inline-chain "$(leaf_share "$TMP/inline") % of outer's samples end in outer;mid;leaf:" \
		"$(hot "$TMP/inline")"
fi
# the counts do not change, only the names
expect_eq inline-same-total "$(awk '{ s += $NF } END { print s }' "$TMP/inline")" \
	"$(awk '{ s += $NF } END { print s }' "$TMP/plain")"

# --context: each level's file:line as addr2line prints it for the same address
addr=$(awk '$2 ~ /^outer\+/ && $3 ~ /inlined\)$/ { print $1; exit }' "$TMP/inl.txt")
if [ -z "$addr" ] || ! command -v addr2line >/dev/null; then
	skip context "no sample in outer() or no addr2line to compare with"
else
	want=$(addr2line -a "$addr" -e "$TMP/inlined" -i -f -s -C | sed 1d |
		sed 's/ (discriminator [^)]*)//' | paste -d: - - | tac | paste -sd';')
	if grep -qF ";$want " "$TMP/context"; then
		pass "context-as-addr2line ($want)"
	else
		fail context-as-addr2line "want '$want' in: $(hot "$TMP/context")"
	fi
fi
# libc's __libc_start_call_main: binutils names the unit's file (libc-start.c)
# for a line of file 1 of a DWARF 5 line table (libc_start_call_main.h)
read -r laddr lso < <(awk '$2 ~ /^__libc_start_call_main\+/ { gsub(/[()]/, "", $3); print $1, $3; exit }' \
	"$TMP/inl.txt")
if [ -z "$laddr" ] || ! command -v addr2line >/dev/null; then
	skip context-libc "no __libc_start_call_main frame or no addr2line"
else
	want=$(addr2line -a "$laddr" -e "$lso" -i -f -s -C | sed -n '2,3p' |
		sed 's/ (discriminator [^)]*)//' | paste -sd:)
	if grep -qF ";$want;" "$TMP/context"; then pass "context-libc ($want)"; else
		fail context-libc "want '$want' in: $(hot "$TMP/context")"; fi
fi
# frames of files that cannot be read keep their names
sed "s|$TMP/inlined|$TMP/gone|" "$TMP/inl.txt" | "$EMBER" collapse --inline >"$TMP/gone" 2>"$TMP/gone.err"
case "$(hot "$TMP/gone")" in
*";outer") pass unreadable-dso-keeps-names ;;
*) fail unreadable-dso-keeps-names "$(hot "$TMP/gone")" ;;
esac

# ember flamegraph --inline: the same chains straight from perf.data, the
# inlined frames coloured aqua (flamegraph.pl's "_[i]"), off by default as
# in perf script (perf 6.1 here prints no inlined frames even with --inline).
"$EMBER" flamegraph -q -i "$TMP/inl.data" --folded >"$TMP/fg-plain"
"$EMBER" flamegraph -q -i "$TMP/inl.data" --folded --inline >"$TMP/fg-inline"
check flamegraph-default-no-inline cmp "$TMP/fg-plain" "$TMP/plain"
check flamegraph-inline-as-collapse cmp "$TMP/fg-inline" "$TMP/inline"
"$EMBER" flamegraph -q -i "$TMP/inl.data" --inline -o "$TMP/inl.svg"
if command -v python3 >/dev/null; then
	check flamegraph-inline-aqua python3 - "$TMP/inl.svg" <<'PY'
import re, sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
fill = {}
for g in ET.parse(sys.argv[1]).getroot().find("s:g[@id='frames']", ns):
    t = g.find("s:title", ns).text
    fill[t[:t.rfind(" (")]] = tuple(map(int, re.findall(r"\d+", g.find("s:rect", ns).get("fill"))))
aqua = lambda c: 50 <= c[0] <= 110 and c[1] == c[2] and 165 <= c[1] <= 220
hot = lambda c: c[0] >= 205 and c[2] <= 55
assert aqua(fill["mid"]) and aqua(fill["leaf"]), fill
assert hot(fill["outer"]) and hot(fill["main"] if "main" in fill else fill["outer"]), fill
PY
fi
# a binary gone since the recording: its frames stay whole, with a note
cp "$TMP/inlined" "$TMP/inlined.keep"
rm -f "$TMP/inlined"
"$EMBER" flamegraph -i "$TMP/inl.data" --folded --inline >"$TMP/fg-gone" 2>"$TMP/fg-gone.err"
st=$?
mv "$TMP/inlined.keep" "$TMP/inlined"
if [ "$st" = 0 ] && grep -q ';outer ' "$TMP/fg-gone" && grep -q 'could not read' "$TMP/fg-gone.err"; then
	pass flamegraph-inline-unreadable
else
	fail flamegraph-inline-unreadable "status $st: $(cat "$TMP/fg-gone.err")"
fi

# clang's binaries have no .debug_aranges: libdw finds no unit for an
# address there, addr2line reads every unit's ranges, and so must ember.
# One difference stays: clang gives leaf's inlined instance DWARF 5
# indexed ranges (DW_FORM_rnglistx), which binutils 2.40's addr2line
# does not follow, so stackcollapse-perf.pl stops at mid there where
# ember names leaf too (gcc's binaries are not concerned).
if ! command -v clang >/dev/null; then
	skip clang-inline "clang is not installed"
elif ! clang -O2 -g -fno-omit-frame-pointer -o "$TMP/clang-inlined" "$TOP/tests/collapse/inlined.c" \
	2>"$TMP/clang.err"; then
	skip clang-inline "clang cannot build the workload: $(head -1 "$TMP/clang.err")"
else
	"$PERF" record -q -g -o "$TMP/clang.data" "$TMP/clang-inlined" 300 >/dev/null 2>&1
	"$PERF" script -i "$TMP/clang.data" >"$TMP/clang.txt" 2>/dev/null
	"$EMBER" collapse --inline <"$TMP/clang.txt" >"$TMP/clang-inline"
	"$EMBER" collapse --inline --context <"$TMP/clang.txt" >"$TMP/clang-context"
	if [ "$(leaf_share "$TMP/clang-inline")" -ge 5 ]; then
		pass clang-inline-chain
	else
		fail clang-inline-chain "$(leaf_share "$TMP/clang-inline") % of outer's samples end in" \
			"outer;mid;leaf: $(hot "$TMP/clang-inline")"
	fi
	# outer's level is at its call of mid, line 24, as addr2line says
	case "$(hot "$TMP/clang-context")" in
	*";outer:inlined.c:24;mid:inlined.c:"*) pass clang-context-call-site ;;
	*) fail clang-context-call-site "$(hot "$TMP/clang-context")" ;;
	esac
	"$EMBER" flamegraph -q -i "$TMP/clang.data" --folded --inline >"$TMP/clang-fg"
	check clang-flamegraph-inline-as-collapse cmp "$TMP/clang-fg" "$TMP/clang-inline"
fi

# Assembly files' aliases: gas gives each alias a DW_TAG_subprogram of the
# same range (libc's __memmove_avx_unaligned_erms and
# __memcpy_avx_unaligned_erms, munmap's __munmap and __GI_munmap), and of
# equally good fits addr2line takes the one it read last. Every function
# symbol of libc's memmove/munmap files, one address each, named as
# addr2line names it (needs libc's debuginfo, libc6-dbg).
LIBC=$(readlink -f /lib/x86_64-linux-gnu/libc.so.6 2>/dev/null)
BID=$([ -n "$LIBC" ] && readelf -n "$LIBC" 2>/dev/null | awk '/Build ID/ { print $3 }')
DBG=/usr/lib/debug/.build-id/${BID:0:2}/${BID:2}.debug
if [ -z "$BID" ] || [ ! -r "$DBG" ]; then
	skip asm-aliases-as-addr2line "no libc debuginfo at $DBG (libc6-dbg)"
else
	readelf -sW "$DBG" 2>/dev/null |
		awk '$4 == "FUNC" && $3 > 8 && $8 ~ /^(__)?(GI_)?(_)?(munmap|memmove|memcpy|mempcpy)/ {
			print $2 }' | sort -u | head -60 >"$TMP/alias-starts"
	: >"$TMP/alias-script"
	while read -r start; do
		printf 'p 1 1.0: 1 cpu-clock:\n\t%x x+0x4 (%s)\n\n' $((0x$start + 4)) "$LIBC" \
			>>"$TMP/alias-script"
		printf '%x\n' $((0x$start + 4))
	done <"$TMP/alias-starts" >"$TMP/alias-addrs"
	# addr2line -i: innermost first; a collapsed chain is outermost first
	addr2line -a -f -i -s -C -e "$LIBC" $(cat "$TMP/alias-addrs") |
		awk '/^0x/ { if (c != "") print c; c = ""; n = 0; next }
		     n++ % 2 == 0 { c = c == "" ? $0 : $0 ";" c } END { if (c != "") print c }' \
		>"$TMP/alias-want"
	# collapse adds up equal stacks: compare each chain's count of addresses
	"$EMBER" collapse --inline <"$TMP/alias-script" |
		awk '{ n = $NF; sub(/^p_1_1.0:;/, ""); sub(/ [0-9]+$/, ""); print $0, n }' |
		sort >"$TMP/alias-got"
	sort "$TMP/alias-want" | uniq -c | awk '{ n = $1; sub(/^ *[0-9]+ /, ""); print $0, n }' |
		sort >"$TMP/alias-want.sorted"
	if [ "$(wc -l <"$TMP/alias-want")" -ge 4 ] && cmp -s "$TMP/alias-want.sorted" "$TMP/alias-got"; then
		pass asm-aliases-as-addr2line
	else
		fail asm-aliases-as-addr2line "$(diff "$TMP/alias-want.sorted" "$TMP/alias-got" | head -4)"
	fi
fi
