# SPDX-License-Identifier: GPL-2.0-only
# ember record's sampling and output options against perf record 6.1:
# -c (fixed period), -F and -F max, the warning when -F exceeds
# perf_event_max_sample_rate (word for word perf's), --strict-freq, -m and
# perf's rounding note, -z (zstd, read back by perf), --switch-events,
# -v's fallback note, and the usage errors.
. "$(dirname "$0")/../lib/e2e.sh"

if ! have_perf; then
	skip setup "perf not installed"
	exit 0
fi
if [ ! -x "$EMBER" ] || [ ! -x "$WL/hotloop" ]; then
	skip setup "no $EMBER or $WL/hotloop; build first"
	exit 0
fi
cd "$TMP" || exit 1

# stderr of both tools for the same options, "perf" and "ember" lines dropped,
# and the warning of what the kernel dropped: at -F max a loaded machine makes
# either tool lose chunks now and then, whatever the options say.
msgs() {
	"$1" record -o "$TMP/m.data" "${@:2}" -- true 2>&1 >/dev/null |
		grep -v -e '^\[ perf record:' -e '^\[ ember record:' |
		awk '/^Warning:$/ { held = $0; next }
		     /^Processed [0-9]+ (events|samples) and lost / { held = ""; skip = 1; next }
		     skip && (/^$/ || /^Check IO\/CPU overload!$/) { next }
		     { skip = 0; if (held != "") print held; held = ""; print }
		     END { if (held != "") print held }'
}
same_msgs() { # NAME ARGS...
	local name=$1
	shift
	expect_eq "$name" "$(msgs "$EMBER" "$@")" "$(msgs "$PERF" "$@")"
}

# -c: every sample has that period (cpu-clock counts ns).
"$EMBER" record -q -c 100000 -o c.data -- "$WL/hotloop" 100
periods=$("$PERF" report -D -i c.data 2>/dev/null | sed -n 's/.*PERF_RECORD_SAMPLE.* period: \([0-9]*\) .*/\1/p' | sort -u)
expect_eq "count-period" "$periods" 100000

# -F: the frequency in the attr, and about that many samples a second.
"$EMBER" record -q -F 1000 -o f.data -- "$WL/hotloop" 500
freq=$("$PERF" report --header-only -i f.data 2>/dev/null | sed -n 's/.*sample_freq } = \([0-9]*\),.*/\1/p')
expect_eq "freq-attr" "$freq" 1000
# The kernel adapts the period to the frequency: 1000 Hz of cpu-clock is about 1 ms of
# cpu time (1000000 ns) between samples, however busy the machine is.
med=$("$PERF" report -D -i f.data 2>/dev/null |
	sed -n 's/.*PERF_RECORD_SAMPLE.* period: \([0-9]*\) .*/\1/p' | sort -n |
	awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print 0 }')
if [ "$med" -ge 500000 ] && [ "$med" -le 2000000 ]; then
	pass "freq-period"
else
	fail "freq-period" "median period $med ns at 1000 Hz"
fi

max=$(cat /proc/sys/kernel/perf_event_max_sample_rate 2>/dev/null || echo 0)
if [ "$max" -gt 0 ]; then
	same_msgs "freq-max-message" -F max
	same_msgs "freq-over-max-warning" -F $((max * 2))
	same_msgs "freq-over-max-strict" --strict-freq -F $((max * 2))
	"$EMBER" record -q --strict-freq -F $((max * 2)) -o m.data -- true 2>/dev/null
	expect_eq "freq-over-max-strict-exit" "$?" 2
	"$EMBER" record -q -F $((max * 2)) -o m.data -- true 2>/dev/null
	freq=$("$PERF" report --header-only -i m.data 2>/dev/null | sed -n 's/.*sample_freq } = \([0-9]*\),.*/\1/p')
	expect_eq "freq-over-max-clamped" "$freq" "$max"
else
	skip "freq-max" "no /proc/sys/kernel/perf_event_max_sample_rate"
fi

# -m: perf's rounding note; a bad value is a usage error.
same_msgs "mmap-pages-rounding" -m 3
same_msgs "mmap-size-rounding" -m 100K
"$EMBER" record -q -m abc -o m.data -- true 2>/dev/null
expect_eq "mmap-pages-bad" "$?" 2
"$EMBER" record -q -m 1 -o m1.data -- "$WL/hotloop" 50
expect_eq "mmap-one-page" "$?" 0

# -F and -c together, or zero: usage errors.
"$EMBER" record -q -F 100 -c 10 -o m.data -- true 2>/dev/null
expect_eq "freq-and-count" "$?" 2
"$EMBER" record -q -F 0 -o m.data -- true 2>/dev/null
expect_eq "freq-zero" "$?" 2

# -z: zstd COMPRESSED records perf decodes, and perf's summary wording.
out=$("$EMBER" record -z -g -o z.data -- "$WL/hotloop" 200 2>&1 >/dev/null)
if printf '%s\n' "$out" | grep -q ', compressed (original [0-9.]* MB, ratio is [0-9.]*) \]$'; then
	pass "compressed-summary"
else
	fail "compressed-summary" "$out"
fi
top=$("$PERF" report --stdio --no-children --sort sym -i z.data 2>z.err | awk '/^ +[0-9.]+%/ { print $NF; exit }')
expect_eq "compressed-report" "$top" "hot_a"
if [ -s z.err ]; then fail "compressed-no-warning" "$(head -3 z.err)"; else pass "compressed-no-warning"; fi
if "$PERF" report --header-only -i z.data 2>/dev/null | grep -q '^# compressed : Zstd'; then
	pass "compressed-feature"
else
	fail "compressed-feature" "no COMPRESSED section"
fi

# --switch-events: context switch records for the command.
"$EMBER" record -q --switch-events -o sw.data -- "$WL/sleeper" 20 1
n=$("$PERF" report -D -i sw.data 2>/dev/null | grep -c 'PERF_RECORD_SWITCH')
if [ "$n" -ge 20 ]; then pass "switch-events"; else fail "switch-events" "$n switch records"; fi

# -v says why cycles became cpu-clock, as perf -v does.
if have_hw_pmu; then
	skip "verbose-fallback" "a hardware PMU: cycles does not fall back"
else
	if "$EMBER" record -v -o v.data -- true 2>&1 | grep -q 'The cycles event is not supported, trying to fall back to cpu-clock-ticks'; then
		pass "verbose-fallback"
	else
		fail "verbose-fallback" "no fallback note with -v"
	fi
fi

# Without a command or a target: the whole system until ^C, as perf.
if is_root; then
	timeout --preserve-status -s INT 1 "$EMBER" record -q -o all.data
	expect_eq "no-target-exit" "$?" 130
	if "$PERF" report --header-only -i all.data 2>/dev/null | grep -q 'name = dummy:HG'; then
		pass "no-target-system-wide"
	else
		fail "no-target-system-wide" "no -a tracking event"
	fi
else
	skip "no-target" "system-wide recording needs root"
fi
# --call-graph values perf refuses: its one line (ember's prefix aside), a usage error.
for v in dwarf,0 dwarf,65536 dwarf,abc dwarf,-8 lbr,1; do
	want=$("$PERF" record -q --call-graph "$v" -o m.data -- true 2>&1 >/dev/null | head -1)
	got=$("$EMBER" record -q --call-graph "$v" -o m.data -- true 2>&1 >/dev/null)
	rc=$?
	expect_eq "call-graph-$v-message" "${got#ember record: }" "$want"
	expect_eq "call-graph-$v-exit" "$rc" 2
done
# --user-regs with a dwarf call graph: perf's warning that IP and SP are forced.
want=$("$PERF" record --user-regs=ip --call-graph dwarf -o m.data -- true 2>&1 >/dev/null | grep WARNING)
got=$("$EMBER" record --user-regs=ip --call-graph dwarf -o m.data -- true 2>&1 >/dev/null | grep WARNING)
if [ -n "$want" ]; then
	expect_eq "dwarf-user-regs-warning" "$got" "$want"
else
	fail "dwarf-user-regs-warning" "perf printed no warning"
fi

# An unknown option: usage error.
"$EMBER" record --no-such-option -- true 2>/dev/null
expect_eq "unknown-option" "$?" 2
"$EMBER" record --help >/dev/null
expect_eq "help" "$?" 0
