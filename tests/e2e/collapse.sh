#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember collapse: the folded stacks of stackcollapse-perf.pl, byte for byte.
#  - fixtures captured here with real perf (tests/collapse/*.txt) against the
#    outputs the script's rules give (tests/collapse/cases)
#  - the script's option spellings (Getopt::Long), files and stdin
#  - bad input: empty, noise, giant lines, missing files
#  - live: perf script of a fresh recording, counts add up to the periods
#    and samples, the workload's hot functions named
. "$(dirname "$0")/../lib/e2e.sh"
FIX="$TOP/tests/collapse"

# (1) every fixture and option set, byte for byte
n=0 bad=0
while IFS=$'\t' read -r input opts expected; do
	case "$input" in '#'* | '') continue ;; esac
	[ "$opts" = none ] && opts=
	n=$((n + 1))
	# shellcheck disable=SC2086
	if ! "$EMBER" collapse $opts <"$FIX/$input" >"$TMP/out" 2>"$TMP/err" ||
		! cmp -s "$TMP/out" "$FIX/$expected"; then
		bad=$((bad + 1))
		fail "fixture/$input${opts:+ $opts}" "differs from $expected"
		diff "$TMP/out" "$FIX/$expected" | head -5 | sed 's/^/     /'
	fi
done <"$FIX/cases"
[ "$bad" = 0 ] && pass "fixtures ($n cases byte for byte)"

# (2) inputs: files in turn are one stream; "-" is stdin
cat "$FIX/user.txt" "$FIX/kernel.txt" | "$EMBER" collapse --tid >"$TMP/cat.out"
"$EMBER" collapse --tid "$FIX/user.txt" - <"$FIX/kernel.txt" >"$TMP/files.out"
check files-are-one-stream cmp "$TMP/cat.out" "$TMP/files.out"
"$EMBER" collapse "$FIX/user.txt" "$TMP/missing" "$FIX/user.txt" >"$TMP/miss.out" 2>"$TMP/miss.err"
rc=$?
expect_eq missing-file-exit "$rc" 1
if grep -q "cannot open '$TMP/missing'" "$TMP/miss.err" && [ -s "$TMP/miss.out" ]; then
	pass missing-file-said-and-others-read
else
	fail missing-file-said-and-others-read "$(head -2 "$TMP/miss.err")"
fi

# (3) the script's option spellings: one dash, any case, abbreviations, separate values
want=$("$EMBER" collapse --pid --kernel --event-filter=cpu-clock:ppp <"$FIX/user.txt" | md5sum)
for spelling in "-pid -kernel -event-filter cpu-clock:ppp" "--PID --Kern --ev=cpu-clock:ppp" \
	"--pi --k --event cpu-clock:ppp"; do
	# shellcheck disable=SC2086
	got=$("$EMBER" collapse $spelling <"$FIX/user.txt" | md5sum)
	expect_eq "options '$spelling'" "$got" "$want"
done
"$EMBER" collapse --a </dev/null >/dev/null 2>"$TMP/err"
expect_eq ambiguous-abbrev-exit "$?" 2
"$EMBER" collapse --nosuch </dev/null >/dev/null 2>"$TMP/err"
expect_eq unknown-option-exit "$?" 2
"$EMBER" collapse --help >"$TMP/help" 2>&1
if [ $? = 0 ] && grep -q "Usage: ember collapse" "$TMP/help"; then pass help; else fail help; fi

# (4) bad input: clear behaviour, no crash
: >"$TMP/empty"
"$EMBER" collapse "$TMP/empty" >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc = 0 ] && [ ! -s "$TMP/out" ]; then pass empty-input; else fail empty-input "rc=$rc"; fi
head -c 4M /dev/urandom >"$TMP/noise"
"$EMBER" collapse --all --srcline "$TMP/noise" >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc = 0 ] && [ "$(grep -c '^Unrecognized line' "$TMP/err")" -le 10 ]; then
	pass noise-no-crash-few-warnings
else
	fail noise-no-crash-few-warnings "rc=$rc"
fi
# a 32 MB header line and a 32 MB frame line, then a sample with a huge period
{
	printf 'perf 1/1 [000] 1.0: 1 cpu-clock:ppp: '
	head -c 32M /dev/zero | tr '\0' 'x'
	printf '\n\t7f '
	head -c 32M /dev/zero | tr '\0' 'y'
	printf ' (/bin/x)\n\n'
	printf 'perf 1/1 [000] 1.0: 99999999999999999999999 cpu-clock:ppp: \n\t1 f (m)\n\n'
} >"$TMP/giant"
"$EMBER" collapse "$TMP/giant" >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_eq giant-lines-exit "$rc" 0
expect_eq giant-lines-stacks "$(wc -l <"$TMP/out")" 2
expect_eq huge-count "$(grep '^perf;f ' "$TMP/out")" "perf;f 1e+23"

# (5) live: a fresh recording of a workload with known hot functions
if ! is_root || ! have_perf; then
	skip live "needs root and perf"
	exit 0
fi
"$PERF" record -q -g -o "$TMP/hot.data" "$WL/hotloop" 600 >/dev/null 2>&1
"$PERF" script -i "$TMP/hot.data" >"$TMP/hot.txt" 2>/dev/null
"$EMBER" collapse <"$TMP/hot.txt" >"$TMP/hot.folded"
sum=$(awk '{ s += $NF } END { print s + 0 }' "$TMP/hot.folded")
periods=$("$PERF" script -i "$TMP/hot.data" -F period 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
expect_eq live-counts-are-periods "$sum" "$periods"
"$PERF" script -i "$TMP/hot.data" -F comm,tid,time,event,ip,sym,dso 2>/dev/null |
	"$EMBER" collapse >"$TMP/hot-nop.folded"
sum=$(awk '{ s += $NF } END { print s + 0 }' "$TMP/hot-nop.folded")
samples=$("$PERF" script -i "$TMP/hot.data" -F tid 2>/dev/null | grep -c .)
expect_eq live-counts-are-samples "$sum" "$samples"
a=$(awk '$1 ~ /;hot_a$/ { s += $NF } END { print s + 0 }' "$TMP/hot-nop.folded")
b=$(awk '$1 ~ /;hot_b$/ { s += $NF } END { print s + 0 }' "$TMP/hot-nop.folded")
if [ "$a" -gt "$b" ] && [ "$b" -gt 0 ] && [ $((a + b)) -gt $((samples / 2)) ]; then
	pass live-hot-functions
else
	fail live-hot-functions "hot_a $a hot_b $b of $samples"
fi
if awk '{ print $1 }' "$TMP/hot-nop.folded" | grep -qv '^hotloop\(;\|$\)'; then
	fail live-root-is-comm "$(awk '{ print $1 }' "$TMP/hot-nop.folded" | grep -v '^hotloop' | head -2)"
else
	pass live-root-is-comm
fi
# ember script's text folds as perf script's does
if "$EMBER" script -i "$TMP/hot.data" >"$TMP/ember-script.txt" 2>/dev/null &&
	[ -s "$TMP/ember-script.txt" ]; then
	"$EMBER" collapse <"$TMP/ember-script.txt" >"$TMP/es.folded"
	check live-ember-script-same cmp "$TMP/es.folded" "$TMP/hot.folded"
else
	skip live-ember-script-same "ember script cannot read the recording in this build"
fi
