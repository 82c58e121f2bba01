#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember probe's variables from DWARF against perf probe 6.1, on the
# probevars workload (built -O1 -g: parameters in registers, location
# lists, a local on the stack through the CFA, a struct argument with
# arrays, a string, pointers, statics) and on libc with libc6-dbg: the
# same uprobe_events line for the same command (perf adds, the line is
# read, perf deletes; then ember), the same messages, the same -D and -V,
# perf's words for what cannot be placed with nothing written, and the
# events recorded by ember record and printed by ember script as perf
# script prints them; variables and -V at DWARF's places too (lines,
# source files, patterns, globs, an inline function's copies, on probed
# and probelines), and -V's --filter. Every probe added is removed at exit.
. "$(dirname "$0")/../lib/e2e.sh"
. "$(dirname "$0")/../lib/probe-lib.bash"

probe_suite_needs || exit 0
if [ "$(uname -m)" != x86_64 ]; then
	skip setup "register names and offsets are x86_64's"
	exit 0
fi
if [ ! -x "$EMBER" ] || [ ! -x "$WL/probevars" ]; then
	skip setup "no $EMBER or $WL/probevars; build first"
	exit 0
fi
if ! command -v objdump >/dev/null || ! command -v objcopy >/dev/null; then
	skip setup "no objdump/objcopy (binutils) to find an instruction and strip debug information"
	exit 0
fi
BIN=$WL/probevars
G=probe_probevars
LIBC=$(realpath "$(ldd "$BIN" | awk '$1 ~ /^libc\.so/ { print $3 }')")

# Only the groups this suite makes, removed at exit whatever happened.
probe_groups $G embervl probe_nodbg probe_inl probe_pv4 probe_pvjp probe_pvji || exit 0
cd "$TMP" || exit 1
# pv_sum's offset right after its call of pv_bump (an instruction, in the loop,
# acc on the stack through the frame base, i in a register)
AFTER=$(objdump -d --no-show-raw-insn "$BIN" | awk '/<pv_sum>:/ { f = 1; next }
	f && /call.*<pv_bump>/ { c = 1; next }
	f && c { sub(":", "", $1); print $1; exit }')
START=$(objdump -d "$BIN" | awk '/<pv_sum>:/ { print $1; exit }')
AFTER=$((0x$AFTER - 0x$START))

# same_line NAME BINARY DEF (probe-lib's, with -x BINARY)
same_var_line() { same_line "$1" -x "$2" "$3"; }

# registers, members, arrays, strings, renames, casts
same_var_line params "$BIN" 'pv_record r scale'
same_var_line members "$BIN" 'pv_record r->id r->name:string r->at.y r->at.taps[2] r->kind r->weight'
same_var_line pointers "$BIN" 'pv_record r->label:string r->prev->id r->prev->prev->name l1=r->label[1]'
same_var_line renames "$BIN" 'pv_record foo=r->id bar=scale:x32 r->id:u8 scale:s r[0].weight'
same_var_line string "$BIN" 'pv_label label:string tag label:ustring xx=label:x'
same_var_line struct-cut "$BIN" 'pv_record r->at'
# @user: the dereferences members make read user memory (+u), as perf writes them
same_var_line user "$BIN" 'pv_record r->prev->id@user r->at.taps[2]@user l1=r->label[1]@user'
# a location list entry, the frame base through the CFA at entry and after the prologue
same_var_line loclist "$BIN" 'pv_sum n acc'
same_var_line frame-base "$BIN" 'pv_sum+20 n acc'
same_var_line loop "$BIN" "pv_sum+$AFTER \$vars"
same_var_line stack-array "$BIN" 'pvmain=main argc argv[0]:string recs[1].id recs[0].at.taps[3] recs[1]'
same_var_line vars "$BIN" 'pv_sum+20 $vars'
same_var_line params-only "$BIN" 'pv_link %ax $params'
same_var_line retval "$BIN" 'pv_label%return $retval'
same_var_line libc "$LIBC" 'embervl:genv=getenv name:string'
same_var_line libc-params "$LIBC" 'embervl:set=setlocale $params'

# same_dry NAME BINARY DEF: perf's and ember's -D lines with their messages, nothing written.
same_dry() {
	local pd ed
	pd=$(perf_probe -x "$2" -D "$3" 2>&1 | sed 's/perf/ember/g')
	ed=$("$EMBER" probe -x "$2" -D "$3" 2>&1)
	if [ -n "$pd" ] && [ "$ed" = "$pd" ]; then pass "dry-$1"; else fail "dry-$1" "perf: '$pd' ember: '$ed'"; fi
}
same_dry offset "$BIN" 'pv_record+3 r scale'
same_dry array-index "$BIN" 'pv_record r->name[3] r->name r->at.taps'
same_dry params-vars "$BIN" 'pv_sum+20 $params $vars n'
same_dry stack-members "$BIN" 'main recs[1].name recs[0].at.taps[3] argv[1]:string'
# a constant (DW_AT_const_value) is an immediate, a float in an SSE register perf's refusal
same_dry libc-const "$LIBC" 'embervl:shm=shmget __arg4 __arg1 _a1'
same_dry libc-sse "$LIBC" 'embervl:mf=__modff x iptr'
expect_eq "dry-writes-nothing" "$(ours)" ""

# Errors in perf's words, exit non-zero, nothing written (nor a half of a glob).
# (only this suite's groups are looked at: other suites may add probes meanwhile)
same_error() { # NAME BINARY DEF
	local pe ee rc
	pe=$(perf_probe -x "$2" "$3" 2>&1 >/dev/null | sed 's/perf/ember/g')
	cleanup
	ee=$("$EMBER" probe -x "$2" "$3" 2>&1 >/dev/null)
	rc=$?
	if [ $rc -ne 0 ] && [ -n "$ee" ] && [ "$ee" = "$pe" ] && [ -z "$(ours)" ]; then
		pass "error-$1"
	else
		fail "error-$1" "rc=$rc perf: '$pe' ember: '$ee'"
	fi
}
same_error not-found "$BIN" 'pv_record nosuch'
same_error optimized-out "$BIN" 'pv_record local'
same_error no-member "$BIN" 'pv_record r->nope'
same_error arrow "$BIN" 'pv_record r.id'
same_error dot "$BIN" 'pv_record r->at->x'
same_error not-struct "$BIN" 'pv_record scale->x'
same_error not-string "$BIN" 'pv_record scale:string'
same_error not-char "$BIN" 'pv_record r->prev:string'
same_error register-struct "$BIN" 'pv_byvalue bias p.x'
same_error bitfield "$BIN" 'pv_record r->flags'
same_error no-dwarf-function "$BIN" '_start x'
same_error params-none "$LIBC" 'abort $params $vars'
same_dry params-none-but "$LIBC" '__libc_fork $params %di'
# a return probe's $vars: perf writes it as typed and the kernel refuses it; ember refuses first
"$EMBER" probe -x "$BIN" 'pv_sum%return $vars' >/dev/null 2>err.txt
expect_eq "error-return-vars" "$?|$(grep -c 'cannot be defined' err.txt)|$(ours)" "1|1|"
# A variable some places of a glob lack: an immediate there, typed as where it is found
# (perf writes \deade12d, which the kernel refuses; ember \0xdeade12d, which it takes;
# the places in DWARF's order, as perf's)
pd=$(perf_probe -x "$BIN" -D 'pv_* r scale' 2>&1 | sed 's/\\deade12d/\\0xdeade12d/g')
ed=$("$EMBER" probe -x "$BIN" -D 'pv_* r scale' 2>&1)
if grep -q 'r=\\0xdeade12d:x64 scale=\\0xdeade12d:s32$' <<<"$ed" && [ "$ed" = "$pd" ]; then
	pass "dry-glob-empty"
else
	fail "dry-glob-empty" "perf: '$pd' ember: '$ed'"
fi
objcopy --strip-debug "$BIN" nodbg 2>/dev/null && same_error no-dwarf "$TMP/nodbg" 'pv_record r'

# -V: perf's layout, byte for byte.
same_vars() { # NAME BINARY POINT [OPTIONS]
	local name=$1 bin=$2 pt=$3 pv ev
	shift 3
	pv=$(perf_probe -x "$bin" -V "$pt" "$@" 2>&1 | sed 's/perf/ember/g')
	ev=$("$EMBER" probe -x "$bin" -V "$pt" "$@" 2>&1)
	if [ -n "$pv" ] && [ "$ev" = "$pv" ]; then pass "vars-$name"; else fail "vars-$name" "perf:
$pv
ember:
$ev"; fi
}
for f in pv_record pv_byvalue pv_label pv_sum pv_globals pv_link pv_bump main; do
	same_vars "$f" "$BIN" "$f"
done
same_vars offset "$BIN" pv_sum+20
same_vars block "$BIN" main+200
same_vars return "$BIN" 'pv_sum%return'
same_vars externs "$BIN" pv_globals --externs
same_vars libc "$LIBC" malloc
same_vars libc-stack "$LIBC" qsort_r
same_vars libc-void "$LIBC" free
same_vars libc-asm "$LIBC" __memmove_avx_unaligned_erms
same_vars no-function "$BIN" nosuch
same_vars no-dwarf-function "$BIN" _start
# --range: [VAL]/[INV]/[EXT] and where each has a place (location lists, scopes)
same_vars range "$BIN" pv_sum+20 --range
same_vars range-externs "$BIN" main+200 --range --externs
same_vars range-libc "$LIBC" setlocale --range
same_vars range-inv "$LIBC" qsort_r --range
[ -e nodbg ] && same_vars no-dwarf "$TMP/nodbg" pv_record

# -q: not a word, even on failure (perf's), and a non-zero exit
out=$("$EMBER" probe -q -x "$BIN" 'pv_record r->nope' 2>&1)
expect_eq "quiet-error" "$?|$out|$(ours)" "1||"
out=$("$EMBER" probe -q -x "$BIN" -D 'pv_record r->at' 2>&1 >/dev/null)
expect_eq "quiet-note" "$out" ""

# DWARF 4 bitfields: perf's b<width>@<offset>/<size> types (DWARF 5 has no byte offset)
if cc -O1 -g -gdwarf-4 -fno-omit-frame-pointer -fno-inline -o pv4 "$TOP/tests/workloads/probevars.c" 2>/dev/null; then
	same_dry bitfield-dwarf4 "$TMP/pv4" 'pv_record r->flags r->level r->kind'
	same_vars dwarf4 "$TMP/pv4" main+200 --range
else
	skip bitfield-dwarf4 "cannot build the workload with -gdwarf-4"
fi

# Inlined calls: the variables of a copy inlined in the probed function, at every
# offset of it (a scope of libdw's chain ends at the abstract copy: perf's does not)
cat >inl.c <<'EOF_C'
#include <stdio.h>
#include <stdlib.h>
struct s { int a; long b; };
static inline long twice(struct s *p, int k)
{
	long r = p->b * k;
	if (r > 1000)
		r -= p->a;
	return r;
}
__attribute__((noinline)) long outer(struct s *q, int n)
{
	long t = 0;
	for (int i = 0; i < n; i++)
		t += twice(q, i);
	return t;
}
int main(int argc, char **argv)
{
	struct s v = { atoi(argv[0]), argc * 100 };
	printf("%ld\n", outer(&v, argc + 20));
	return 0;
}
EOF_C
if cc -O2 -g -o inl inl.c 2>/dev/null; then
	bad=
	for off in 0 4 8 12 16 20 24 28 32; do
		pv=$(perf_probe -x "$TMP/inl" -V "outer+$off" 2>&1 | sed 's/perf/ember/g')
		ev=$("$EMBER" probe -x "$TMP/inl" -V "outer+$off" 2>&1)
		[ "$pv" = "$ev" ] || bad="$bad +$off"
	done
	expect_eq "vars-inlined" "$bad" ""
	same_dry inlined "$TMP/inl" 'outer+24 $vars'
else
	skip vars-inlined "cannot build an inlining program"
fi

# A sweep: -V --range --externs and $vars's line at every third byte of each function
# but main (its blocks are compared above)
# (perf's words where perf refuses; the static's and filler's forms as documented)
bad=
for f in pv_record pv_byvalue pv_label pv_bump pv_sum pv_globals pv_link; do
	size=$((0x$(nm -S "$BIN" | awk -v f="$f" '$4 == f { print $2 }')))
	for ((off = 0; off < size; off += 3)); do
		pv=$(perf_probe -x "$BIN" -V "$f+$off" --range --externs 2>&1 | sed 's/perf/ember/g')
		ev=$("$EMBER" probe -x "$BIN" -V "$f+$off" --range --externs 2>&1)
		pd=$(perf_probe -x "$BIN" -D "$f+$off \$vars" 2>&1 | sed 's/perf/ember/g
			s/\\deade12d/\\0xdeade12d/g; s/@[A-Za-z_][A-Za-z0-9_.]*+[0-9]*/@STATIC/g')
		ed=$("$EMBER" probe -x "$BIN" -D "$f+$off \$vars" 2>&1 | sed 's/@+0x[0-9a-f]*/@STATIC/g')
		[ "$pv" = "$ev" ] && [ "$pd" = "$ed" ] || bad="$bad $f+$off"
	done
done
expect_eq "sweep" "$bad" ""

# Memcheck on the DWARF readers (libc's separate debug information, the
# workload's lists, blocks and statics, DWARF's places): no memory error,
# no definite leak
memcheck() { # ARGS...: ember probe ARGS under memcheck; 99 on an error or a leak
	timeout 600 valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite --show-leak-kinds=definite \
		"$EMBER" probe "$@" >/dev/null 2>vg.err
}
if command -v valgrind >/dev/null && ! ember_sanitized; then
	bad=
	memcheck -x "$LIBC" -D 'setlocale $vars' -D '__libc_malloc $vars'
	[ $? -eq 99 ] && bad="$bad libc($(head -3 vg.err))"
	memcheck -x "$BIN" -V main+200 --range --externs
	[ $? -eq 99 ] && bad="$bad -V($(head -3 vg.err))"
	memcheck -x "$BIN" -D 'pv_* r scale' -D 'pv_record r->prev->name:string r->at.taps[1]'
	[ $? -eq 99 ] && bad="$bad -D($(head -3 vg.err))"
	# variables and -V at DWARF's places: lines, patterns, inlined copies
	memcheck -x "$WL/probelines" -D 'probelines.c:17 v $vars' -D 'probelines.c;sink* v' \
		-D 'probe_first:4 r v'
	[ $? -eq 99 ] && bad="$bad join($(head -3 vg.err))"
	memcheck -x "$WL/probelines" -V 'probe_*' -V probelines.c:17 --filter 'v*'
	[ $? -eq 99 ] && bad="$bad join-V($(head -3 vg.err))"
	expect_eq "memcheck" "$bad" ""
else
	skip memcheck "no valgrind, or an ASan build"
fi

# A static: perf writes @pv_total+0, which uprobe_events refuses; ember writes the
# address uprobes take, and reads the right values.
perf_probe -x "$BIN" -D 'pv_globals pv_total' >perf.line 2>&1
"$EMBER" probe -x "$BIN" -D 'pv_globals pv_total' >ember.line 2>&1
if grep -q ' pv_total=@pv_total+0:s32$' perf.line && grep -q ' pv_total=@+0x[0-9a-f]*:s32$' ember.line; then
	pass "static-address-form"
else
	fail "static-address-form" "perf: $(cat perf.line) ember: $(cat ember.line)"
fi

# At work: recorded by ember record, printed by ember script as perf script prints them.
"$EMBER" probe -q -x "$BIN" -a 'pv_record r->name:string r->id s=scale r->at.taps[2]' \
	-a 'pv_label%return $retval' -a 'pv_globals which pv_total pv_motto:string' \
	-a "pv_sum+$AFTER \$vars" -a 'pvfill=pv_l* r'
"$EMBER" probe -q -x "$LIBC" 'embervl:genv=getenv name:string'
PROBEVARS_TAG=blue "$EMBER" record -q -e "$G:*" -e 'embervl:genv' -o v.data -- "$BIN" 4 \
	>/dev/null 2>&1
expect_eq "record-exit" "$?" 0
"$EMBER" script -i v.data >e.txt 2>&1
"$PERF" script -i v.data >p.txt 2>&1
if [ -s e.txt ] && [ "$(cat e.txt)" = "$(cat p.txt)" ]; then pass "script-as-perf"; else
	fail "script-as-perf" "$(diff p.txt e.txt | head -5)"; fi
expect_eq "script-struct" "$(grep -c "$G:pv_record: ([0-9a-f]*) name=\"rec-[0-3]\" id=[0-3] s=3 taps=2[0-3]$" e.txt)" 4
expect_eq "script-retval" "$(grep -o "$G:pv_label__return: ([0-9a-f]* <- [0-9a-f]*) arg1=0x[0-9a-f]*$" e.txt |
	sed 's/.*arg1=//' | tr '\n' ' ')" "0x3 0x5 0x4 0x3 "
expect_eq "script-static" "$(grep -o "pv_globals: ([0-9a-f]*) .*" e.txt | sed 's/^[^)]*) //' | tr '\n' '|')" \
	'which=0 pv_total=0 pv_motto_string="probe me"|which=1 pv_total=0 pv_motto_string="probe me"|which=2 pv_total=1 pv_motto_string="probe me"|which=3 pv_total=3 pv_motto_string="probe me"|'
# pv_sum(3): acc on the stack after each pv_bump(&acc, i)
expect_eq "script-stack-local" "$(grep "$G:pv_sum: ([0-9a-f]*) n=3 " e.txt | grep -o 'acc=[0-9-]*' |
	tr '\n' ' ')" "acc=0 acc=1 acc=3 "
expect_eq "script-glob-empty" "$(grep -c "$G:pvfill\(_1\)\?: ([0-9a-f]*) r=0xdeade12d$" e.txt)|$(grep -c "$G:pvfill\(_1\)\?: ([0-9a-f]*) r=0x[0-9a-f]*[0-9a-f]$" e.txt)" "4|8"
expect_eq "script-libc-string" "$(grep -c 'embervl:genv: ([0-9a-f]*) name_string="PROBEVARS_TAG"$' e.txt)" 1
cleanup

# Variables at DWARF's places (FUNC:RLN, SRC:ALN, patterns, globs, inlined
# copies), on copies of probed and probelines under names of their own.
JP=$TMP/pvjp
JI=$TMP/pvji
if [ -x "$WL/probed" ] && [ -x "$WL/probelines" ] && cp "$WL/probed" "$JP" &&
	cp "$WL/probelines" "$JI"; then
	same_var_line join-rel-line "$JP" 'probed_add:3 a b'
	same_var_line join-abs-line "$JP" 'probed.c:30 s:string'
	same_var_line join-lazy "$JP" 'probed_name;sink* s:string'
	same_var_line join-lazy-members "$JP" 'probed_take;return* it->id it->name:string'
	same_var_line join-src-func "$JP" 'probed_add@probed.c a'
	same_var_line join-glob "$JP" 'probed_* $params'
	same_var_line join-inline "$JI" 'probe_twice v'
	# the copy's v and its caller's v both: perf's -D lines (tracefs refuses the repeated name)
	same_dry join-inline-abs "$JI" 'probelines.c:17 v $vars'
	same_var_line join-inline-lazy "$JI" 'probelines.c;sink* v'
	same_var_line join-caller-line "$JI" 'probe_first:4 r v'
	same_dry join-glob-vars "$JI" 'probe_* $vars'
	same_dry join-glob-params "$JI" 'probe_* $params'
	# with arguments, perf retries no place DWARF lacks: the symbol table's, or nothing
	same_var_line join-no-dwarf-reg "$JP" '_start %di'
	same_var_line join-no-dwarf-offset "$JP" 'frame_dummy+1 %di'
	same_error join-no-line "$JP" 'probed_add:10 a'
	same_error join-no-line-reg "$JP" 'probed_add:10 %di'
	same_error join-no-dwarf-var "$JP" '_start x'
	same_error join-lazy-nomatch "$JP" 'probed_add;nomatch* a'
	same_error join-shared-line "$JP" 'probed_add:1 a'
	# -V at DWARF's places, perf's order for globs, its words when there is none
	same_vars join-rel-line "$JP" probed_add:3
	same_vars join-abs-line "$JP" probed.c:30
	same_vars join-lazy "$JP" 'probed_name;sink*'
	same_vars join-glob "$JP" 'probed_*'
	same_vars join-inline "$JI" probe_twice
	same_vars join-inline-abs "$JI" probelines.c:17
	same_vars join-inline-glob "$JI" 'probe_*' --no-inlines
	same_vars join-no-line "$JP" probed_add:10
	same_vars join-shared-line "$JP" probed_add:1
	same_vars join-no-file "$JP" nosuch.c:3
	same_vars join-no-dwarf "$JP" _start
	# --filter in place of -V's default: one name, its negation, two ORed
	same_vars filter "$JP" probed_add --filter a
	same_vars filter-not "$JP" probed_add --filter '!a'
	same_vars filter-two "$JP" probed_add --filter a --filter b
	same_vars filter-externs "$BIN" pv_globals --externs --filter 'pv_*'

	# At work: recorded by ember record, printed by ember script as perf script prints them.
	"$EMBER" probe -q -x "$JP" -a 'probed_add:3 a b' -a 'probed.c:30 s:string' \
		-a 'probed_take;return* it->id it->name:string'
	"$EMBER" probe -q -x "$JI" -a 'probe_twice v' -a 'probe_first:4 r v'
	"$EMBER" record -q -e 'probe_pvjp:*' -e 'probe_pvji:*' -o j.data -- \
		sh -c "'$JP' 3 && '$JI' 4" >/dev/null 2>&1
	expect_eq "join-record-exit" "$?" 0
	"$EMBER" script -i j.data >e.txt 2>&1
	"$PERF" script -i j.data >p.txt 2>&1
	if [ -s e.txt ] && [ "$(cat e.txt)" = "$(cat p.txt)" ]; then pass "join-script-as-perf"; else
		fail "join-script-as-perf" "$(diff p.txt e.txt | head -5)"; fi
	expect_eq "join-script-line" "$(grep -o 'probed_add_L3: ([0-9a-f]*) .*' e.txt | sed 's/^[^)]*) //' | xargs)" \
		"a=0 b=0 a=1 b=2 a=2 b=4"
	expect_eq "join-script-abs-line" "$(grep -o 'probe_pvjp:probed_name: ([0-9a-f]*) .*' e.txt |
		sed 's/^[^)]*) //' | xargs)" "s_string=alpha s_string=beta s_string=gamma"
	expect_eq "join-script-lazy" "$(grep -o 'probe_pvjp:probed_take: ([0-9a-f]*) .*' e.txt |
		sed 's/^[^)]*) //' | xargs)" "id=0 name=alpha id=1 name=beta id=2 name=gamma"
	# probe_loop(4): probe_second(0), probe_first(1), probe_second(2), probe_first(3)
	expect_eq "join-script-inline" "$(grep -o 'probe_pvji:probe_twice[_0-9]*: ([0-9a-f]*) .*' e.txt |
		sed 's/^[^)]*) //' | xargs)" "v=1 v=1 v=3 v=3"
	expect_eq "join-script-inline-copies" "$(grep -o 'probe_pvji:probe_twice[_0-9]*: ([0-9a-f]*)' e.txt |
		sort -u | wc -l)" 2
	expect_eq "join-script-caller-line" "$(grep -o 'probe_first_L4: ([0-9a-f]*) .*' e.txt |
		sed 's/^[^)]*) //' | xargs)" "r=2 v=1 r=6 v=3"
	cleanup
else
	skip join "no $WL/probed or $WL/probelines to copy; build first"
fi
expect_eq "cleaned-up" "$(ours)" ""
