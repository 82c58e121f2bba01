#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember probe against perf probe 6.1 on uprobes without DWARF (a copy of the
# probed workload with its debug information stripped, and libc): the same
# uprobe_events line for the same command (perf adds, the line is read, perf
# deletes; then ember), the same messages, the same -D, -l and -d; a
# definition refused before it reaches tracefs, a failure that leaves
# nothing behind, kernel probes without kprobes; and the probes at work in
# ember record, script and stat. Every probe added is removed at exit.
. "$(dirname "$0")/../lib/e2e.sh"
. "$(dirname "$0")/../lib/probe-lib.bash"

probe_suite_needs || exit 0
if ! command -v objcopy >/dev/null; then
	skip setup "no objcopy (binutils) to strip the workload's debug information"
	exit 0
fi
if [ ! -x "$EMBER" ] || [ ! -x "$WL/probed" ]; then
	skip setup "no $EMBER or $WL/probed; build first"
	exit 0
fi
BIN=$TMP/probed_nodbg
G=probe_probed_nodbg
LIBC=$(ldd "$WL/probed" | awk '$1 ~ /^libc\.so/ { print $3 }')
LIBC=$(realpath "$LIBC")

# Only the groups this suite makes, removed at exit whatever happened.
# (libc's are only shown, -D and -n: other suites record probe_libc:malloc to see it fail)
probe_groups $G embert probe_probed probe_probed_gone || exit 0
objcopy --strip-debug "$WL/probed" "$BIN" || exit 1
cd "$TMP" || exit 1

same_line func -x "$BIN" probed_add
same_line return -x "$BIN" 'probed_add%return $retval'
same_line offset -x "$BIN" probed_name+4
same_line named-args -x "$BIN" 'embert:ev=probed_add %di:s32 %si:u64 +0(%di):x8'
same_line string -x "$BIN" 'probed_take name=+16(%di):string id=+0(%di):s32'
same_line ret-type -x "$BIN" 'probed_take%return $retval:s64'
same_line glob -x "$BIN" 'probed_*'
same_line adds -x "$BIN" -a probed_add -a 'probed_name%return $retval' -a 'embert:x=probed_take+1'
same_line address -x "$BIN" '0x1159%return $retval'
# the workload as built (-g): perf finds these through DWARF, at the same places
same_line dwarf-func -x "$WL/probed" probed_add
same_line dwarf-return -x "$WL/probed" 'probed_take%return $retval:s64'
same_line dwarf-offset -x "$WL/probed" probed_name+4

# same_dry NAME BINARY DEF: perf's and ember's -D lines and -n messages, nothing written.
same_dry() {
	local pd ed
	pd=$(perf_probe -x "$2" -D "$3" 2>&1)
	ed=$("$EMBER" probe -x "$2" -D "$3" 2>&1)
	if [ -n "$pd" ] && [ "$ed" = "$pd" ]; then pass "line-$1"; else fail "line-$1" "perf: '$pd' ember: '$ed'"; fi
	pd=$(perf_probe -x "$2" -n "$3" 2>&1 | sed 's/perf/ember/g')
	ed=$("$EMBER" probe -x "$2" -n "$3" 2>&1)
	expect_eq "messages-$1" "$ed" "$pd"
}
same_dry libc "$LIBC" malloc
same_dry libc-return "$LIBC" 'free%return'
same_dry libc-args "$LIBC" 'malloc size=%di:u64'

# -f: a second probe on one function takes _1, and so on; without -f, an error.
perf_probe -q -x "$BIN" probed_add
perf_probe -q -f -x "$BIN" probed_add
pl=$(ours)
cleanup
"$EMBER" probe -q -x "$BIN" probed_add
"$EMBER" probe -q -f -x "$BIN" probed_add
el=$(ours)
expect_eq "force-suffix" "$el" "$pl"
before=$(ours)
"$EMBER" probe -x "$BIN" probed_add 2>err.txt
rc=$?
if [ $rc -ne 0 ] && [ "$(ours)" = "$before" ] && grep -q 'already exists' err.txt; then
	pass "exists-refused"
else
	fail "exists-refused" "rc=$rc $(cat err.txt)"
fi
cleanup

# -D shows the lines perf would write, writing nothing.
pd=$(perf_probe -x "$BIN" -D probed_add -D 'embert:r=probed_take%return $retval' 2>&1)
ed=$("$EMBER" probe -x "$BIN" -D probed_add -D 'embert:r=probed_take%return $retval' 2>&1)
expect_eq "definition" "$ed" "$pd"
expect_eq "definition-writes-nothing" "$(ours)" ""

# --max-probes: more places than that is an error, not a cut (perf's rule; perf itself
# counts each symbol twice here and crashes at the boundary, so ember is checked alone)
out=$("$EMBER" probe -x "$BIN" --max-probes 3 -D 'probed_*' 2>&1 | wc -l)
"$EMBER" probe -x "$BIN" --max-probes 2 -D 'probed_*' >/dev/null 2>err.txt
expect_eq "max-probes" "$out|$?|$(grep -c 'too many functions matched' err.txt)" "3|1|1"
out=$("$EMBER" probe -x "$LIBC" --max-probes 1 -D malloc 2>&1 | wc -l)
expect_eq "max-probes-one-place" "$out" 1

# -n: perf's messages, nothing written; -q: nothing said.
pn=$(perf_probe -n -x "$BIN" 'probed_add %di' 2>&1 | sed 's/perf/ember/g')
en=$("$EMBER" probe -n -x "$BIN" 'probed_add %di' 2>&1)
expect_eq "dry-run-messages" "$en" "$pn"
expect_eq "dry-run-writes-nothing" "$(ours)" ""
# perf probe BIN FUNC: an absolute path before the definition is -x's
pn=$(perf_probe -n "$BIN" 'probed_add %di' 2>&1 | sed 's/perf/ember/g')
en=$("$EMBER" probe -n "$BIN" 'probed_add %di' 2>&1)
expect_eq "path-as-target" "$en" "$pn"
out=$("$EMBER" probe -q -x "$BIN" probed_add 2>&1)
expect_eq "quiet" "$out|$(ours | wc -l)" "|1"
cleanup
# -v: the line written, as perf -v shows it
pv=$(perf_probe -v -x "$BIN" 'probed_add %di' 2>&1 | grep '^Writing event:')
cleanup
ev=$("$EMBER" probe -v -x "$BIN" 'probed_add %di' 2>&1 | grep '^Writing event:')
cleanup
expect_eq "verbose-writes" "$ev" "$pv"

# -l: the same listing as perf's of probes made by both tools, args by name.
perf_probe -q -x "$BIN" -a 'probed_add %di:s32' -a 'probed_name+4' \
	-a 'embert:t=probed_take%return $retval'
"$EMBER" probe -q -x "$BIN" -a 'probed_take x=%di' -a 'probed_*%return'
list_ours() { grep -E "^  ($G|embert):"; }
pl=$(perf_probe -l 2>&1 | list_ours)
el=$("$EMBER" probe -l 2>&1 | list_ours)
if [ -n "$pl" ] && [ "$el" = "$pl" ]; then pass "list"; else fail "list" "perf:
$pl
ember:
$el"; fi
pl=$(perf_probe -l "$G:*return" 2>&1)
el=$("$EMBER" probe -l "$G:*return" 2>&1)
expect_eq "list-filter" "$el" "$pl"

# A probe whose binary is gone is listed by its address, as perf lists it.
cp "$BIN" probed_gone
perf_probe -q -x "$TMP/probed_gone" -a gone_a=probed_add+2 -a 'gone_t=probed_take%return'
rm probed_gone
pl=$(perf_probe -l 'probe_probed_gone:*' 2>&1)
el=$("$EMBER" probe -l 'probe_probed_gone:*' 2>&1)
if [ -n "$pl" ] && [ "$el" = "$pl" ]; then pass "list-binary-gone"; else fail "list-binary-gone" "perf: '$pl' ember: '$el'"; fi
perf_probe -q -d 'probe_probed_gone:*'

# -d: removes what it names, only that, with perf's messages.
before=$(ours)
"$EMBER" probe -d "$G:probed_take*" -d 't__return' 2>del.txt
after=$(ours)
want=$(printf '%s\n' "$before" | grep -v -E "^[pr]:($G/probed_take|embert/t__return )")
expect_eq "del-removes-only-named" "$after" "$want"
expect_eq "del-messages" "$(cat del.txt)" "$(printf 'Removed event: embert:t__return\nRemoved event: %s:probed_take\nRemoved event: %s:probed_take__return' "$G" "$G")"
"$EMBER" probe -d 'nosuch_*' 2>err.txt
expect_eq "del-nothing" "$?|$(cat err.txt)" '1|ember probe: "nosuch_*" does not hit any event'
"$EMBER" probe -q -d "$G:*" -d 'embert:*'
expect_eq "del-glob-all" "$(ours)" ""

# Safety: nothing smuggled into tracefs, names within its limits, no half-made probe.
before=$(cat "$EVENTS")
refused() { # NAME EXPECTED-RC ARGS...
	local name=$1 want=$2 rc
	shift 2
	"$EMBER" probe "$@" >/dev/null 2>err.txt
	rc=$?
	if [ $rc -eq "$want" ] && [ "$(cat "$EVENTS")" = "$before" ] && [ "$(wc -l <err.txt)" = 1 ]; then
		pass "refused-$name"
	else
		fail "refused-$name" "rc=$rc (want $want) $(head -3 err.txt)"
	fi
}
refused newline-in-name 2 -x "$BIN" $'embert:ev\np:embert/evil=probed_add'
refused newline-in-arg 2 -x "$BIN" 'probed_add' $'%di\np:embert/evil' "$BIN:0x0"
refused second-def-in-arg 2 -x "$BIN" 'probed_add %di;p:embert/evil'
refused bad-type 2 -x "$BIN" 'probed_add %di:u128'
refused bad-fetch 1 -x "$BIN" 'probed_add @main'
refused retval-not-return 1 -x "$BIN" 'probed_add $retval'
refused long-event 1 -x "$BIN" "$(printf 'e%.0s' {1..64})=probed_add"
refused long-group 1 -x "$BIN" "$(printf 'g%.0s' {1..64}):ev=probed_add"
# refused_as_perf NAME ARGS...: refused (exit 1), nothing written, and perf's two lines
# for the same command (perf writes nothing either)
refused_as_perf() {
	local name=$1 rc
	shift
	perf_probe "$@" >/dev/null 2>perf.err
	"$EMBER" probe "$@" >/dev/null 2>err.txt
	rc=$?
	if [ $rc -eq 1 ] && [ "$(cat "$EVENTS")" = "$before" ] && [ "$(wc -l <err.txt)" = 2 ] &&
		cmp -s perf.err err.txt; then
		pass "refused-$name"
	else
		fail "refused-$name" "rc=$rc perf: '$(cat perf.err)' ember: '$(cat err.txt)'"
	fi
}
refused_as_perf no-symbol -x "$BIN" -a probed_add -a nosuch
refused_as_perf offset-past-end -x "$BIN" probed_add+4096
# a variable by name in a file without debug information: perf's words, nothing written
"$EMBER" probe -x "$BIN" 'probed_add a' >/dev/null 2>err.txt
rc=$?
perf_probe -x "$BIN" 'probed_add a' >/dev/null 2>perr.txt
if [ $rc -eq 1 ] && [ "$(cat "$EVENTS")" = "$before" ] && grep -q 'has no debug information' err.txt &&
	[ "$(cat err.txt)" = "$(sed 's/perf/ember/g' perr.txt)" ]; then
	pass "refused-needs-dwarf"
else
	fail "refused-needs-dwarf" "rc=$rc $(head -3 err.txt)"
fi
long_args=$(for i in {1..100}; do printf ' %s%03d=+0(+0(%%di)):u64' "$(printf 'n%.0s' {1..50})" "$i"; done)
refused line-too-long 1 -x "$BIN" "probed_add$long_args"
refused kernel-refuses 1 -x "$BIN" -a probed_add -a 'probed_name %nosuchreg'
"$EMBER" probe -q -x "$BIN" "$(printf 'e%.0s' {1..63})=probed_add"
expect_eq "name-63-fits" "$(ours | wc -l)" 1
cleanup

# Without root: one line saying what is needed, nothing added.
if command -v setpriv >/dev/null; then
	chmod 755 "$TMP" "$BIN"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$EMBER" probe -x "$BIN" probed_add \
		>/dev/null 2>err.txt
	rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l <err.txt)" = 1 ] && grep -q root err.txt &&
		[ "$(cat "$EVENTS")" = "$before" ]; then
		pass "unprivileged"
	else
		fail "unprivileged" "rc=$rc $(cat err.txt)"
	fi
else
	skip unprivileged "no setpriv"
fi

# Kernel probes write kprobe_events; without it, one line and a failure.
if [ -e /sys/kernel/tracing/kprobe_events ]; then
	skip kernel-no-kprobes "this kernel has kprobe_events (the kprobe suite is for a later part)"
else
	"$EMBER" probe do_sys_openat2 >/dev/null 2>err.txt
	rc=$?
	if [ $rc -ne 0 ] && [ "$(wc -l <err.txt)" = 1 ] && grep -q CONFIG_KPROBES err.txt; then
		pass "kernel-no-kprobes"
	else
		fail "kernel-no-kprobes" "rc=$rc $(cat err.txt)"
	fi
fi

# At work: record, script (as perf script prints the fields) and stat.
"$EMBER" probe -q -x "$BIN" -a 'probed_add a=%di:s32 b=%si:s32' -a 'probed_take%return $retval:s64' \
	-a 'nm=probed_name +0(%di):string'
"$EMBER" record -q -e "$G:*" -o p.data -- "$BIN" 6 >/dev/null 2>&1
expect_eq "record-exit" "$?" 0
"$EMBER" script -i p.data >e.txt 2>&1
"$PERF" script -i p.data >p.txt 2>&1
expect_eq "script-as-perf" "$(cat e.txt)" "$(cat p.txt)"
expect_eq "script-add" "$(grep -c "$G:probed_add: ([0-9a-f]*) a=[0-5] b=\(0\|2\|4\|6\|8\|10\)$" e.txt)" 6
expect_eq "script-return" "$(grep -c "$G:probed_take__return: ([0-9a-f]* <- [0-9a-f]*) arg1=1[01][0-9]$" e.txt)" 6
expect_eq "script-string" "$(grep -c "$G:nm: ([0-9a-f]*) arg1=\"\(alpha\|beta\|gamma\)\"$" e.txt)" 6
st=$("$EMBER" stat -x, -e "$G:probed_add" -e "$G:nm" -- "$BIN" 7 2>&1 >/dev/null | cut -d, -f1,3)
expect_eq "stat" "$st" "7,$G:probed_add
7,$G:nm"
cleanup
expect_eq "cleaned-up" "$(ours)" ""
