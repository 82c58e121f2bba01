#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember probe's places from DWARF against perf probe 6.1: for each probe
# form on binaries with debug information (FUNC, FUNC:RLN, FUNC+OFF,
# SRC:ALN, FUNC@SRC, lazy patterns, globs, a function inlined twice) the
# same uprobe_events lines and messages (perf adds, the lines are read,
# perf deletes; then ember), the same -D and -n; the same -L, -F and -l
# output byte for byte; perf's errors for a line without code, a line
# sharing another's address, a missing source, a function outside DWARF,
# a binary without DWARF; a source line's probe recorded by ember record
# and printed by ember script as perf script prints it, the inlined
# copies' probes too. Every probe added is removed at exit.
. "$(dirname "$0")/../lib/e2e.sh"
. "$(dirname "$0")/../lib/probe-lib.bash"

probe_suite_needs || exit 0
if [ ! -x "$EMBER" ] || [ ! -x "$WL/probed" ] || [ ! -x "$WL/probelines" ]; then
	skip setup "no $EMBER, $WL/probed or $WL/probelines; build first"
	exit 0
fi
if ! command -v objcopy >/dev/null; then
	skip setup "no objcopy (binutils) to strip a copy of the workload"
	exit 0
fi
# copies under names of their own: their groups are this suite's alone
P=$TMP/pdwp
I=$TMP/pdwi
S=$TMP/pdws
probe_groups probe_pdwp probe_pdwi probe_pdws probe_pdwg probe_pdwn pdwp pdwi || exit 0
cp "$WL/probed" "$P" && cp "$WL/probelines" "$I" && objcopy --strip-debug "$WL/probed" "$S" ||
	exit 1
cd "$TMP" || exit 1

same_line func -x "$P" probed_add
same_line func-src -x "$P" probed_name@probed.c
same_line func-path -x "$P" probed_name@tests/workloads/probed.c
same_line rel-line -x "$P" probed_add:3
same_line rel-line-src -x "$P" probed_name@probed.c:2
same_line offset -x "$P" probed_name+4
same_line offset-no-line -x "$P" probed_name+1
same_line abs-line -x "$P" probed.c:30
same_line abs-line-decl -x "$P" probed.c:22
same_line lazy-func -x "$P" 'probed_name;sink*'
same_line lazy-file -x "$P" 'probed.c;return*'
same_line lazy-nomatch -x "$P" 'probed_add;nomatch*'
same_line lazy-blanks -x "$P" 'probed.c;sink\+=it*'
same_line lazy-class -x "$P" 'probed.c;*it->[iw]*'
same_line lazy-escape -x "$P" 'probed.c;*\;'
same_line glob -x "$P" 'probed_*'
same_line return -x "$P" 'probed_name%return $retval'
same_line named -x "$P" 'pdwp:at30=probed.c:30 %di:u64'
same_line adds -x "$P" -a probed_add:3 -a main:9 -a 'probed.c;sink*'
same_line inline -x "$I" probe_twice
same_line inline-offset -x "$I" probe_twice+4
same_line inline-line -x "$I" probe_twice:3
same_line inline-abs -x "$I" probelines.c:17
same_line inline-lazy -x "$I" 'probelines.c;sink*'
same_line inline-glob -x "$I" 'probe_*'
same_line caller-line -x "$I" probe_first:4
same_line no-inlines-glob -x "$I" --no-inlines 'probe_*'
# -s: sources under another directory (perf drops leading directories until one reads)
mkdir -p "$TMP/src" && sed 's/sink += s\[0\];/& \/\/ from_s/' "$TOP/tests/workloads/probed.c" >"$TMP/src/probed.c"
same_line lazy-source-dir -x "$P" -s "$TMP/src" 'probed_name;*from_s*'

# same_fail NAME ARGS...: perf's and ember's messages for a definition both refuse, nothing added.
same_fail() {
	local name=$1 prc erc
	shift
	perf_probe "$@" >/dev/null 2>perf.err
	prc=$?
	cleanup
	"$EMBER" probe "$@" >/dev/null 2>ember.err
	erc=$?
	if [ $prc -ne 0 ] && [ $erc -ne 0 ] && [ -z "$(ours)" ]; then
		pass "refused-$name"
	else
		fail "refused-$name" "perf rc $prc, ember rc $erc, left: '$(ours)'"
	fi
	cleanup
	expect_eq "refused-messages-$name" "$(cat ember.err)" "$(sed 's/perf/ember/g' perf.err)"
}
same_fail line-no-code -x "$P" probed.c:21
same_fail rel-line-no-code -x "$P" probed_add:10
same_fail line-shared -x "$P" probed.c:23
same_fail rel-line-shared -x "$P" probed_add:1
same_fail glob-line-shared -x "$P" 'probed_*:1'
same_fail no-such-file -x "$P" nosuch.c:3
same_fail no-such-file-lazy -x "$P" 'nosuch.c;x'
same_fail func-wrong-file -x "$P" probed_add@nosuch.c
same_fail not-in-dwarf -x "$P" _start
same_fail not-in-dwarf-offset -x "$P" frame_dummy+1
same_fail no-such-func -x "$P" nosuch
same_fail no-inlines -x "$I" --no-inlines probe_twice
same_fail no-dwarf-line -x "$S" probed_add:3
same_fail no-dwarf-src -x "$S" probed.c:30
same_fail no-dwarf-lazy -x "$S" 'probed_add;sink*'
echo 'not an ELF file' >"$TMP/pdwt"
same_fail not-elf-line -x "$TMP/pdwt" probed_add:3

# A binary whose source is gone: a lazy pattern and -L cannot read it.
if command -v cc >/dev/null; then
	printf 'int gone_fn(int a)\n{\n\treturn a + 1;\n}\nint main(void)\n{\n\treturn gone_fn(0);\n}\n' >gone.c
	cc -g -O1 -o "$TMP/pdwg" gone.c && rm gone.c
	perf_probe -x "$TMP/pdwg" 'gone_fn;return*' >/dev/null 2>perf.err
	cleanup
	"$EMBER" probe -x "$TMP/pdwg" 'gone_fn;return*' >/dev/null 2>ember.err
	expect_eq "source-gone-lazy" "$(cat ember.err)" "$(sed 's/perf/ember/g' perf.err)"
	perf_probe -x "$TMP/pdwg" -L gone_fn >perf.out 2>perf.err
	"$EMBER" probe -x "$TMP/pdwg" -L gone_fn >ember.out 2>ember.err
	expect_eq "source-gone-lines" "$(cat ember.out ember.err)" \
		"$(cat perf.out; sed 's/perf/ember/g' perf.err)"
	cleanup
else
	skip source-gone "no cc to build a binary whose source is then removed"
fi

# A binary that is not position-independent: places are its addresses less
# .text's distance from its offset, and -l turns them back.
if command -v cc >/dev/null && cc -O1 -g -no-pie -fno-inline -o "$TMP/pdwn" \
	"$TOP/tests/workloads/probed.c" 2>/dev/null; then
	same_line no-pie-line -x "$TMP/pdwn" probed_add:3
	same_line no-pie-lazy -x "$TMP/pdwn" 'probed.c;return*'
	# variables there: DWARF's place less .text's distance, the variables' scope found again
	same_line no-pie-vars -x "$TMP/pdwn" 'probed_add:3 a b'
	same_line no-pie-member -x "$TMP/pdwn" 'probed_take it->name:string it->id'
	perf_probe -q -f -x "$TMP/pdwn" -a probed_add -a probed.c:30 -a 'probed_name%return' \
		-a '_start%return'
	perf_probe -l 'probe_pdwn:*' >perf.out 2>perf.err
	"$EMBER" probe -l 'probe_pdwn:*' >ember.out 2>ember.err
	expect_eq no-pie-list "$(cat ember.out ember.err)" "$(cat perf.out perf.err)"
	cleanup
else
	skip no-pie "no cc building a binary with -no-pie"
fi

# A global foo and a static foo in two units: every unit's foo, unless
# .debug_pubnames names the global one (perf's fast path: that one alone).
printf 'int foo(int a) { return a + 1; }\nint bar(int);\nint main(int c, char **v) { return foo(c) + bar(c); }\n' >pa.c
printf 'static __attribute__((noinline)) int foo(int a) { return a * 3; }\nint bar(int a) { return foo(a); }\n' >pb.c
if command -v cc >/dev/null && cc -O1 -g -fno-inline -o pdwu pa.c pb.c 2>/dev/null &&
	cc -O1 -g -gpubnames -fno-inline -o pdwv pa.c pb.c 2>/dev/null; then
	for b in pdwu pdwv; do
		pd=$(perf_probe -x "$TMP/$b" -D foo 2>&1)
		ed=$("$EMBER" probe -x "$TMP/$b" -D foo 2>&1)
		expect_eq "units-$b" "$ed" "$pd"
	done
	expect_eq units-places "$("$EMBER" probe -x "$TMP/pdwu" -D foo | wc -l)|$("$EMBER" probe -x "$TMP/pdwv" -D foo | wc -l)" "2|1"
else
	skip units "no cc building two units with -gpubnames"
fi

# same_out NAME ARGS...: what perf and ember print, byte for byte (stdout, then stderr).
same_out() {
	local name=$1
	shift
	perf_probe "$@" >perf.out 2>perf.err
	"$EMBER" probe "$@" >ember.out 2>ember.err
	if [ -s perf.out ] || [ -s perf.err ]; then
		if cmp -s perf.out ember.out && [ "$(cat ember.err)" = "$(sed 's/perf/ember/g' perf.err)" ]
		then
			pass "$name"
		else
			fail "$name" "$(diff perf.out ember.out | head -5; diff <(sed 's/perf/ember/g' perf.err) ember.err | head -5)"
		fi
	else
		fail "$name" "perf printed nothing"
	fi
}

# -D and -n: the same lines and messages, nothing written.
for def in probed_add:3 probed.c:30 'probed.c;return*' 'probed_*'; do
	same_out "definition-$def" -x "$P" -D "$def"
	same_out "dry-run-$def" -x "$P" -n "$def"
done
same_out definition-inline -x "$I" -D probe_twice
expect_eq "dry-runs-write-nothing" "$(ours)" ""

# -L: perf's layout, byte for byte.
for range in probed_add probed_name:1 probed_name:0+2 probed.c:20-40 probed.c:44 main probed.c \
	probed_take@probed.c main:3-5; do
	same_out "lines-$range" -x "$P" -L "$range"
done
for range in probe_twice probe_first probelines.c:10-30 probe_loop:3+4; do
	same_out "lines-inline-$range" -x "$I" -L "$range"
done
for range in nosuch probed.c:1000 nosuch.c:3 probed_add@nosuch.c _start main:5-3 'probed_*' main:3x \
	probed_add:1-2; do
	same_out "lines-bad-$range" -x "$P" -L "$range"
done
same_out lines-no-dwarf -x "$S" -L probed_add
echo 'not an ELF file' >"$TMP/pdwt"
same_out lines-not-elf -x "$TMP/pdwt" -L probed_add
same_out funcs-not-elf -x "$TMP/pdwt" -F
same_out lines-quiet -x "$P" -q -L probed_add
perf_probe -x "$P" -q -L nosuch >perf.out 2>&1
"$EMBER" probe -x "$P" -q -L nosuch >ember.out 2>&1
expect_eq lines-quiet-failure "$(cat ember.out)" "$(cat perf.out)"
same_out lines-source-dir -x "$P" -s "$TMP/src" -L probed_name
same_out lines-source-dir-missing -x "$P" -s "$TMP/nosuch" -L probed_name
perf_probe -x "$P" -L main:5-3 >/dev/null 2>&1
prc=$?
"$EMBER" probe -x "$P" -L main:5-3 >/dev/null 2>&1
expect_eq lines-bad-syntax-exit $? $prc

# -F: the binary's functions perf lists, with its filters.
same_out funcs -x "$P" -F
same_out funcs-arg -x "$P" -F 'probed_*'
same_out funcs-all -x "$P" -F '*'
same_out funcs-not -x "$P" -F '!main'
same_out funcs-filter-ored -x "$P" -F --filter 'probed_*'
same_out funcs-no-filter -x "$P" -F --no-filter
same_out funcs-stripped -x "$S" -F
LIBC=$(realpath "$(ldd "$WL/probed" | awk '$1 ~ /^libc\.so/ { print $3 }')")
same_out funcs-libc -x "$LIBC" -F

# -l: the same listing of probes both tools made, places named from DWARF (with the
# line and offset perf carries over from the probe listed before).
perf_probe -q -f -x "$P" -a probed_add -a probed_add:3 -a probed.c:30 -a 'probed_name%return' \
	-a probed_name+4 -a 'probed.c;return*' -a probed_name+1 -a '_start%return' -a main+3
perf_probe -q -f -x "$I" -a probe_twice -a 'probelines.c;sink*' -a probe_first:4 -a probe_loop+5
"$EMBER" probe -q -x "$I" -a 'pdwi:e1=probe_twice:3' -a 'pdwi:e2=probe_second%return'
perf_probe -l >perf.out 2>perf.err
"$EMBER" probe -l >ember.out 2>ember.err
re=$(IFS='|'; echo "${PROBE_GROUPS[*]}")
pl=$(grep -E "^  ($re):" perf.out)
el=$(grep -E "^  ($re):" ember.out)
if [ -n "$pl" ] && [ "$el" = "$pl" ]; then pass list; else fail list "$(diff <(echo "$pl") <(echo "$el"))"; fi
expect_eq list-warnings "$(cat ember.err)" "$(cat perf.err)"
cleanup
expect_eq cleaned-after-list "$(ours)" ""

# At work: a source line's probe recorded, and printed as perf script prints it.
"$EMBER" probe -q -x "$P" 'probed.c:30' 'name=+0(%di):string'
"$EMBER" record -q -e 'probe_pdwp:*' -o p.data -- "$P" 6 >/dev/null 2>&1
expect_eq record-exit $? 0
"$EMBER" script -i p.data >e.txt 2>&1
"$PERF" script -i p.data >p.txt 2>&1
expect_eq script-as-perf "$(cat e.txt)" "$(cat p.txt)"
expect_eq script-line-hits "$(grep -c 'probe_pdwp:probed_name: ([0-9a-f]*) name="\(alpha\|beta\|gamma\)"$' e.txt)" 6
cleanup
# the two inlined copies: one event, hit in both (probe_loop alternates them)
"$EMBER" probe -q -x "$I" probe_twice
"$EMBER" record -q -e 'probe_pdwi:probe_twice' -o i.data -- "$I" 6 >/dev/null 2>&1
"$EMBER" script -i i.data >e.txt 2>&1
"$PERF" script -i i.data >p.txt 2>&1
expect_eq script-inline-as-perf "$(cat e.txt)" "$(cat p.txt)"
expect_eq script-inline-copies "$(grep -o '([0-9a-f]*)$' e.txt | sort | uniq -c | awk '{ print $1 }' | xargs)" "3 3"
cleanup
expect_eq cleaned-up "$(ours)" ""
