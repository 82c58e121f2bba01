#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The broken perf.data corpus (tests/broken/, made by make-broken.py from two
# real files) through every reader: libember's codec (data-tool, built with
# ASan and UBSan), `ember report`, `ember report -D` and `ember script`.
# For every file and tool: an end within 20 s with status 0 or 1 (never a
# crash, a hang or a sanitizer report); a failure says why on stderr; when
# EXPECT says nothing usable is left the commands fail; when it says some
# samples are intact they are shown.
. "$(dirname "$0")/../lib/e2e.sh"

CORPUS=$TOP/tests/broken
if [ ! -f "$CORPUS/EXPECT" ]; then
	skip corpus "no $CORPUS/EXPECT"
	exit 0
fi

DT="$TMP/data-tool"
export ASAN_OPTIONS=abort_on_error=0:exitcode=99 UBSAN_OPTIONS=halt_on_error=1:exitcode=99
if ! cc -O1 -g -std=gnu11 -D_GNU_SOURCE -DEMBER_VERSION='"0"' -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined -I"$TOP/include" -I"$TOP/lib" -o "$DT" \
	"$TOP/tests/tools/data-tool.c" "$TOP"/lib/data/*.c "$TOP"/lib/core/*.c -lbpf 2>"$TMP/cc.err"; then
	fail build-data-tool "$(head -5 "$TMP/cc.err")"
	DT=""
fi
have_ember=1
[ -x "$EMBER" ] || have_ember=0
# Symbols are not what is tested here: an empty kallsyms keeps each run short.
: >"$TMP/kallsyms"
K=(--kallsyms "$TMP/kallsyms")

declare -A bad		# check name -> offending files
note() { bad[$1]+="$2 "; }

# run CHECK-PREFIX CMD...: status in $rc, stdout in out, stderr in err
run() {
	local tag=$1
	shift
	timeout 20 "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if grep -qE 'Sanitizer|runtime error:' "$TMP/err"; then
		# the sanitizer's own summary says what: "SUMMARY: AddressSanitizer: 40 byte(s) leaked"
		note "$tag-no-crash-or-hang" "$name($(grep -m1 -oE 'SUMMARY: [A-Za-z]+: [^ ]+( [^ ]+)?' \
			"$TMP/err" | cut -d' ' -f2- | tr ' ' '-'))"
	elif [ $rc = 124 ]; then
		note "$tag-no-crash-or-hang" "$name(hang)"
	elif [ $rc != 0 ] && [ $rc != 1 ]; then
		note "$tag-no-crash-or-hang" "$name(status-$rc)"
	elif [ $rc = 1 ] && ! grep -q . "$TMP/err"; then
		note "$tag-fails-with-a-message" "$name"
	fi
}

n=0
while read -r name cls _; do
	case $name in "#"* | "") continue ;; esac
	f=$CORPUS/$name.data
	[ -f "$f" ] || { note corpus-complete "$name"; continue; }
	n=$((n + 1))
	if [ -n "$DT" ]; then
		run data-tool-check "$DT" check "$f"
		run data-tool-samples "$DT" samples "$f"
		got=$(sed -n 's/^samples //p' "$TMP/out")
		[ "$cls" = part ] && [ "${got:-0}" = 0 ] && note data-tool-usable-part-read "$name"
		[ "$cls" = none ] && [ "${got:-0}" != 0 ] && note data-tool-nothing-usable "$name"
	fi
	[ $have_ember = 1 ] || continue
	run report-dump "$EMBER" report -D "${K[@]}" -i "$f"
	[ "$cls" = part ] && [ $rc != 0 ] && note report-dump-usable-part-succeeds "$name"
	run report "$EMBER" report --stdio "${K[@]}" -i "$f"
	[ "$cls" = none ] && [ $rc = 0 ] && note report-nothing-usable-fails "$name"
	# nothing usable: one line that names the file and says why
	[ "$cls" = none ] && [ $rc = 1 ] && { [ "$(wc -l <"$TMP/err")" = 1 ] &&
		grep -qF "$f" "$TMP/err"; } || [ "$cls" != none ] || [ $rc != 1 ] ||
		note report-nothing-usable-one-line "$name"
	[ "$cls" = part ] && ! grep -q '%' "$TMP/out" && note report-usable-part-shown "$name"
	[ "$cls" = part ] && [ $rc != 0 ] && note report-usable-part-succeeds "$name"
	run script "$EMBER" script "${K[@]}" -i "$f"
	[ "$cls" = none ] && [ $rc = 0 ] && note script-nothing-usable-fails "$name"
	[ "$cls" = none ] && [ $rc = 1 ] && { [ "$(wc -l <"$TMP/err")" = 1 ] &&
		grep -qF "$f" "$TMP/err"; } || [ "$cls" != none ] || [ $rc != 1 ] ||
		note script-nothing-usable-one-line "$name"
	# a sample line starts with the comm; callchain lines are indented
	[ "$cls" = part ] && ! grep -q '^[^[:space:]]' "$TMP/out" && note script-usable-part-shown "$name"
done <"$CORPUS/EXPECT"

[ $n -ge 100 ] && pass corpus-has-100-files || fail corpus-has-100-files "only $n files"
checks=(corpus-complete)
[ -n "$DT" ] && checks+=(data-tool-check-no-crash-or-hang data-tool-check-fails-with-a-message
	data-tool-samples-no-crash-or-hang data-tool-usable-part-read data-tool-nothing-usable)
[ $have_ember = 1 ] && checks+=(report-dump-no-crash-or-hang report-dump-fails-with-a-message
	report-dump-usable-part-succeeds report-no-crash-or-hang report-fails-with-a-message
	report-nothing-usable-fails report-nothing-usable-one-line report-usable-part-shown
	report-usable-part-succeeds script-no-crash-or-hang script-fails-with-a-message
	script-nothing-usable-fails script-nothing-usable-one-line script-usable-part-shown)
[ $have_ember = 1 ] || skip ember-commands "no $EMBER: build first"
for c in "${checks[@]}"; do
	if [ -z "${bad[$c]:-}" ]; then
		pass "$c"
	else
		set -- ${bad[$c]}
		fail "$c" "$# of $n files, e.g. ${*:1:6}"
	fi
done

# Damage is not emptiness: a whole recording that holds no sample (a
# counter that never overflowed) is no error, for perf or for ember, in
# file and in pipe mode; perf says so on stderr and succeeds.
if [ $have_ember = 1 ] && have_perf; then
	for mode in file pipe; do
		e=$TMP/empty-$mode.data
		if [ $mode = file ]; then
			"$PERF" record -q -e page-faults -c 1000000000 -o "$e" -- true >/dev/null 2>&1
		else
			"$PERF" record -q -e page-faults -c 1000000000 -o - -- true 2>/dev/null >"$e"
		fi
		if [ ! -s "$e" ] || [ "$("$PERF" report --stdio -i "$e" 2>/dev/null | grep -c '%')" != 0 ]; then
			skip "whole-but-empty-$mode" "perf did not record an empty $mode file"
			continue
		fi
		"$PERF" report --stdio -i "$e" >"$TMP/perf.out" 2>"$TMP/perf.err"
		prc=$?
		"$EMBER" report --stdio "${K[@]}" -i "$e" >"$TMP/out" 2>"$TMP/err"
		rrc=$?
		"$EMBER" script "${K[@]}" -i "$e" >"$TMP/sout" 2>"$TMP/serr"
		src=$?
		if [ $rrc != $prc ] || [ $src != 0 ] || ! cmp -s "$TMP/perf.out" "$TMP/out" ||
			! grep -q "has no samples" "$TMP/err" || [ -s "$TMP/sout" ]; then
			fail "whole-but-empty-$mode" "perf report $prc, ember report $rrc ($(head -c 200 "$TMP/err")), script $src"
		else
			pass "whole-but-empty-$mode"
		fi
	done
fi

# Events whose sample_types differ (made from a real recording by
# mixed-sample-type.py): report -D shows the fields a record lacks as perf
# does, cpu 4294967295 and pid/tid -1, not 0, and closes with perf's
# counts. Its thread and dso lines are left out: perf puts a sample
# without TID on a thread of its own (":-1", nothing resolved), ember on
# swapper's; report.sh compares them on whole recordings.
if [ $have_ember = 1 ] && have_perf && [ -x "$WL/hotloop" ] && command -v python3 >/dev/null; then
	"$PERF" record -q -e cpu-clock -e page-faults --sample-cpu -o "$TMP/mix2.data" \
		-- "$WL/hotloop" 20 >/dev/null 2>&1
	if python3 "$CORPUS/mixed-sample-type.py" "$TMP/mix2.data" "$TMP/mixed.data" 2>"$TMP/err"; then
		dumpnorm() {
			sed -e '/^ \.\.\. thread:/d' -e '/^ \.\.\.\.\.\. dso:/d' -e '/^# To display/d' \
				-e '/^#$/d' "$1"
		}
		"$PERF" report -D -i "$TMP/mixed.data" >"$TMP/perf.D" 2>/dev/null
		"$EMBER" report -D "${K[@]}" -i "$TMP/mixed.data" >"$TMP/ember.D" 2>"$TMP/err"
		if ! grep -q ': PERF_RECORD_SAMPLE(IP, 0x[0-9a-f]*): -1/-1: ' "$TMP/perf.D"; then
			skip mixed-sample-type-dump "perf shows no sample without TID here"
		elif diff <(dumpnorm "$TMP/perf.D") <(dumpnorm "$TMP/ember.D") >"$TMP/diff"; then
			pass mixed-sample-type-dump
		else
			fail mixed-sample-type-dump "$(head -6 "$TMP/diff")"
		fi
	else
		skip mixed-sample-type-dump "cannot rewrite the recording: $(head -c 200 "$TMP/err")"
	fi
fi
