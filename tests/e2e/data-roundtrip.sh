#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# libember's perf.data writer: files perf records are read and written again
# (file mode, pipe mode, zstd-compressed), and real perf must see the same
# records (perf script), the same features (perf report --header-only -I)
# and print no warning. Also: this machine's env as perf describes it, and
# a file left behind by a writer that was killed after a sync.
. "$(dirname "$0")/../lib/e2e.sh"

DT="$TMP/data-tool"
if ! cc -O2 -Wall -Werror -I"$TOP/include" -o "$DT" "$TOP/tests/tools/data-tool.c" \
	"$BUILD/libember.a" -lbpf 2>"$TMP/cc.err"; then
	fail build-data-tool "$(head -5 "$TMP/cc.err")"
	exit 0
fi
if ! have_perf; then
	skip roundtrip "perf is not installed"
	exit 0
fi

cd "$TMP" || exit 1
inputs=()
rec() { # NAME PERF-RECORD-ARGS...
	local name=$1
	shift
	if "$PERF" record "$@" >"$name.out" 2>"$name.err"; then
		[ -s "$name.out" ] && mv "$name.out" "$name.data"
		inputs+=("$name")
	else
		fail "record-$name" "$(tail -3 "$name.err")"
	fi
}
rec file -e cpu-clock -F 999 -g -o file.data -- "$WL/hotloop" 200
rec pipe -e cpu-clock -F 999 -g -o - -- "$WL/hotloop" 200
rec zstd -z -e cpu-clock -F 999 -g -o zstd.data -- "$WL/hotloop" 200
if is_root && have_tracefs; then
	rec tp -e sched:sched_switch -a -o tp.data -- sleep 0.2
else
	skip record-tp "tracepoints need root and tracefs"
fi

# Header lines that must survive a copy: not the file layout, not what
# compression adds or removes, and not CACHE, which perf does not send in pipe mode.
features() { # FILE OUT-IS-PIPE
	local drop='captured on|data offset|data size|feat offset|^# ========|^#$'
	drop+='|missing features|compressed :'
	"$PERF" report -i "$1" --header-only -I 2>&1 | grep -Ev "$drop" |
		if [ "$2" = 1 ]; then sed '/^# CPU cache info:/,/^#  L/d' | grep -v '^#  L'; else cat; fi
}

for f in "${inputs[@]}"; do
	"$PERF" script -i "$f.data" >"$f.script" 2>/dev/null
	"$PERF" report -i "$f.data" -D 2>/dev/null | grep -c 'PERF_RECORD_SAMPLE(' >"$f.nsamples"
	for mode in file pipe file-z pipe-z; do
		args=()
		pipe_out=0
		case $mode in pipe*) args+=(--pipe); pipe_out=1 ;; esac
		case $mode in *-z) args+=(-z) ;; esac
		out="$f.copy-$mode.data"
		name="$f-to-$mode"
		if ! "$DT" copy "$f.data" "$out" "${args[@]}" 2>"$name.err"; then
			fail "$name-copy" "$(head -3 "$name.err")"
			continue
		fi
		"$PERF" script -i "$out" >"$name.script" 2>"$name.script-err"
		if cmp -s "$f.script" "$name.script" && [ ! -s "$name.script-err" ]; then
			pass "$name-script"
		else
			fail "$name-script" "$(diff "$f.script" "$name.script" | head -5; head -3 "$name.script-err")"
		fi
		n=$("$PERF" report -i "$out" -D 2>"$name.report-err" | grep -c 'PERF_RECORD_SAMPLE(')
		expect_eq "$name-D-samples" "$n" "$(cat "$f.nsamples")"
		if [ -s "$name.report-err" ]; then
			fail "$name-no-warnings" "$(head -3 "$name.report-err")"
		else
			pass "$name-no-warnings"
		fi
		in_pipe=0
		[ "$f" = pipe ] && in_pipe=1
		if [ "$in_pipe" = 1 ] || [ "$pipe_out" = 1 ]; then
			features "$f.data" 1 >"$name.want-h"
		else
			features "$f.data" 0 >"$name.want-h"
		fi
		features "$out" "$pipe_out" >"$name.got-h"
		if diff -u "$name.want-h" "$name.got-h" >"$name.hdiff"; then
			pass "$name-header"
		else
			fail "$name-header" "$(head -8 "$name.hdiff")"
		fi
		case $mode in
		*-z)
			if "$PERF" report -i "$out" --header-only 2>/dev/null | grep -q '^# compressed : Zstd'; then
				pass "$name-compressed-feature"
			else
				fail "$name-compressed-feature" "no '# compressed : Zstd' line"
			fi ;;
		esac
	done
done

# Writing to standard output, read by perf from its standard input.
if [ -f file.data ]; then
	"$DT" copy file.data - 2>stdout.err | "$PERF" script -i - >stdout.script 2>/dev/null
	if cmp -s file.script stdout.script && [ ! -s stdout.err ]; then
		pass write-stdout-pipe
	else
		fail write-stdout-pipe "$(diff file.script stdout.script | head -5)"
	fi

	# This machine described by ember_env__gather(), as perf record describes it.
	"$DT" copy file.data here.data --env-here
	# build ids are the recorder's business, not the env's
	drop='captured on|data offset|data size|feat offset|perf version|cmdline|meminfo'
	"$PERF" report -i file.data --header-only -I 2>&1 | grep -Ev "$drop" |
		sed 's/ BUILD_ID / /' >here.want
	"$PERF" report -i here.data --header-only -I 2>here.err | grep -Ev "$drop" |
		sed 's/ BUILD_ID / /' >here.got
	if diff -u here.want here.got >here.diff && [ ! -s here.err ]; then
		pass env-gather-like-perf
	else
		fail env-gather-like-perf "$(head -10 here.diff; head -3 here.err)"
	fi
	# a perf version first (hotspot's perfparser parses one there), then ember's
	if "$PERF" report -i here.data --header-only 2>/dev/null |
		grep -Eq '^# perf version : [0-9]+\.[0-9]+\.[0-9]+-ember-[0-9]'; then
		pass env-version-string
	else
		fail env-version-string "no '# perf version : X.Y.Z-ember-V' line"
	fi

	# A writer that synced and then died: perf reads it all, without features.
	"$DT" copy file.data synced.data --no-close
	"$PERF" script -i synced.data >synced.script 2>synced.err
	if cmp -s file.script synced.script; then
		pass killed-after-sync-readable-by-perf
	else
		fail killed-after-sync-readable-by-perf "$(diff file.script synced.script | head -5)"
	fi
fi

# A perf record killed before it finalised the header (data.size 0).
"$PERF" record -e cpu-clock -F 999 --no-buffering -o killed.data -- "$WL/hotloop" 3000 \
	>/dev/null 2>&1 &
pid=$!
sleep 1.5
{ kill -9 "$pid"; wait "$pid"; } 2>/dev/null
if [ -s killed.data ]; then
	out=$(timeout 5 "$DT" count killed.data)
	n=$(awk '$1 == "SAMPLE" { print $2 }' <<<"$out")
	if grep -q '^datasize0 1$' <<<"$out" && [ "${n:-0}" -gt 0 ]; then
		pass killed-perf-record-readable
	else
		fail killed-perf-record-readable "$out"
	fi
else
	skip killed-perf-record-readable "perf wrote nothing before it was killed"
fi
