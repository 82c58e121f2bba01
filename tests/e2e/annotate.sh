#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember annotate against perf annotate 6.1 on the same files: a workload
# of several shapes (tests/workloads/mixwork.c) built -O0 PIE, -O2 PIE and
# -O2 fixed-address calling a shared library of its own, and hotloop.
# For every symbol perf annotates, the addresses and the percentages (and
# -n's samples, --show-total-period's periods, each --percent-type) must
# be perf's; the whole text of the symbols of the programs built here
# must be perf's too (the system libraries' text is compared and any
# difference reported, not failed: see same()).
# Bad input: one clear line and a non-zero exit.
. "$(dirname "$0")/../lib/e2e.sh"
. "$(dirname "$0")/../lib/report-lib.bash"

if ! have_perf; then
	skip setup "perf is not installed"
	exit 0
fi
if ! command -v objdump >/dev/null; then
	skip setup "objdump (binutils) is not installed: perf annotate cannot run"
	exit 0
fi
cd "$TMP" || exit 1

CC=${CC:-cc}
src=$TOP/tests/workloads/mixwork.c

# the numbers: percent (or samples, period) and address of each instruction, and the headers
numbers() {
	awk '/^ Percent|^ Samples|^ Period|^Sorted summary|^ +[0-9.]+ [^ :]+:[0-9]+$/ { print; next }
	     /^ +[0-9.]+ : +[0-9a-f]+:/ { split($0, f, ":"); print f[1] ":" f[2] }'
}

# same NAME ARGS...: the numbers, then the whole text, of both
same() {
	local name=$1
	shift
	"$PERF" annotate --stdio "$@" 2>/dev/null | eval "${FILTER:-cat}" >"$name.perf"
	"$EMBER" annotate --stdio "$@" 2>"$name.err" | eval "${FILTER:-cat}" >"$name.ember"
	if ! grep -q '^ Percent\|^ Samples\|^ Period' "$name.perf"; then
		fail "$name" "perf annotated nothing"
		return
	fi
	numbers <"$name.perf" >"$name.perf.nr"
	numbers <"$name.ember" >"$name.ember.nr"
	if cmp -s "$name.perf.nr" "$name.ember.nr"; then
		pass "$name-numbers"
	else
		fail "$name-numbers" "$(diff "$name.perf.nr" "$name.ember.nr" | head -12; head -3 "$name.err")"
	fi
	own <"$name.perf" >"$name.perf.own"
	own <"$name.ember" >"$name.ember.own"
	if cmp -s "$name.perf.own" "$name.ember.own"; then
		pass "$name-text"
	else
		fail "$name-text" "$(diff "$name.perf.own" "$name.ember.own" | head -12)"
	fi
	# the system's libraries: which of their functions get a sample varies
	# from run to run, and with it which of objdump's ways of writing and
	# naming ember meets (see BUGS in doc/ember-annotate.1)
	if cmp -s "$name.perf" "$name.ember"; then
		pass "$name-text-all"
	else
		skip "$name-text-all" "$(diff "$name.perf" "$name.ember" | grep -c '^<') lines of libc/ld.so/vdso differ, e.g. $(diff "$name.perf" "$name.ember" | grep -m1 '^<')"
	fi
}

# the blocks of the binaries built here (and their library)
own() {
	awk '/^ (Percent|Samples|Period) / { keep = $0 ~ / of (o0|o2|o2-nopie|o2-prefix|libmixwork\.so|hotloop|mixwork) for / }
	     /^Sorted summary for file / { keep = 1 }
	     keep'
}

build() { # NAME CC-ARGS...
	local name=$1
	shift
	if ! $CC -g -o "$name" "$src" "$@" 2>"$name.cc"; then
		skip "$name" "cannot build: $(head -c 200 "$name.cc")"
		return 1
	fi
}

build o0 -O0 -fPIE -pie && rec o0 -F 2999 -- ./o0 400 && same o0 -i o0.data
build o2 -O2 -fPIE -pie && rec o2 -F 2999 -- ./o2 400 && same o2 -i o2.data
if build libmixwork.so -O2 -DMIXWORK_LIB -shared -fPIC &&
	build o2-nopie -O2 -no-pie -DMIXWORK_USE_LIB -L. -lmixwork -Wl,-rpath,"$TMP" &&
	rec nopie -F 2999 -- ./o2-nopie 400; then
	same nopie -i nopie.data
	if grep -q 'Disassembly of libmixwork.so' nopie.perf; then
		pass nopie-library-annotated
	else
		fail nopie-library-annotated "no symbol of libmixwork.so in perf's annotate"
	fi
	same nopie-n -i nopie.data -n
	same nopie-period -i nopie.data --show-total-period
	for t in global-period local-hits global-hits; do
		same "nopie-$t" -i nopie.data --percent-type "$t"
	done
	same nopie-symbol -i nopie.data int_work
	same nopie-s -i nopie.data -s switch_work
	same nopie-dsos -i nopie.data -d libmixwork.so
	same nopie-no-source -i nopie.data --no-source
	same nopie-P -i nopie.data -P int_work
	same nopie-asm-raw -i nopie.data --asm-raw int_work
	same nopie-intel -i nopie.data -M intel float_work
	same nopie-print-line -i nopie.data -l
	same nopie-verbose -i nopie.data -v -d o2-nopie
	same nopie-percent-limit -i nopie.data --percent-limit 10
	same nopie-percent-limit-dso -i nopie.data --percent-limit 30 -d libmixwork.so
	same nopie-tui -i nopie.data --tui int_work
	same nopie-source -i nopie.data --source int_work
	# objdump's --prefix: the source read from a copy, one directory of its path less
	mkdir -p "prefix/${TMP#/*/}"
	sed 's|x = x \* 2654435761u|&  /* the prefixed copy */|' "$src" >"prefix/${TMP#/*/}/$(basename "$src")"
	cp "$src" .
	if "$CC" -g -O2 -no-pie -DMIXWORK_USE_LIB -L. -lmixwork -Wl,-rpath,"$TMP" -o o2-prefix \
		"$(basename "$src")" 2>/dev/null && rec prefix -F 999 -- ./o2-prefix 200; then
		same prefix -i prefix.data --prefix "$TMP/prefix" --prefix-strip 1 int_work
		check prefix-copy-read grep -q 'the prefixed copy' prefix.ember
	fi
fi
rec hot -F 999 -- "$WL/hotloop" 300 && same hotloop -i hot.data
# two events: each its symbols
rec two -e cpu-clock,task-clock -F 999 -- ./o2 300 && same two-events -i two.data
# a group of events: a column each, ordered by the leader's then the members' periods;
# --group on a file without groups makes one of all its events
if rec group -e '{cpu-clock,task-clock}' -F 999 -- ./o2 300; then
	same group -i group.data
	same group-n -i group.data -n
	same group-period -i group.data --show-total-period
	same group-global -i group.data --percent-type global-period
	# -l: a percent per event in the summary (see hotloop-l below for the filter)
	FILTER="sed 's| // [^ ]*:[0-9]*$||'" same group-l -i group.data -l
	FILTER="sed 's| // [^ ]*:[0-9]*$||'" same group-l-hits -i group.data -l --percent-type local-hits
fi
[ -e two.data ] && same group-forced -i two.data --group
# a file ember recorded
if "$EMBER" record -q -F 2999 -o ember.data -- ./o2 300 >/dev/null 2>ember-rec.err; then
	same ember-recorded -i ember.data
else
	fail ember-record "$(tail -3 ember-rec.err)"
fi
# -l: perf now and then leaves out a symbol's first " // file.c:N" after an
# instruction (about one run in four here, not reproducible on the same
# file): the summary and numbers are compared as they are, the text
# without those trailers
[ -e hot.data ] && FILTER="sed 's| // [^ ]*:[0-9]*$||'" same hotloop-l -i hot.data -l

# source lines: the C text of the hot loop is there
if grep -q 'x = x \* 2654435761u' o2.ember 2>/dev/null; then
	pass source-lines
else
	fail source-lines "no source line of int_work in ember's annotate of o2"
fi

# bad input: one line, non-zero
bad() { # NAME WANT-IN-MESSAGE ARGS...
	local name=$1 want=$2 rc
	shift 2
	"$EMBER" annotate --stdio "$@" >"$name.out" 2>"$name.err"
	rc=$?
	if [ $rc -ne 0 ] && [ "$(wc -l <"$name.err")" -eq 1 ] && grep -q -- "$want" "$name.err"; then
		pass "$name"
	else
		fail "$name" "rc $rc, stderr: $(head -3 "$name.err")"
	fi
}
# as perf: what it prints on stderr and its exit status (0: perf annotate
# exits 0 whatever it could or could not annotate; a failure is non-zero),
# and stdout unless STDERR_ONLY
as_perf() { # NAME ARGS...
	local name=$1 erc prc
	shift
	"$PERF" annotate --stdio "$@" >"$name.perf" 2>"$name.perf.err"
	prc=$?
	"$EMBER" annotate --stdio "$@" >"$name.ember" 2>"$name.ember.err"
	erc=$?
	# a failure is 1 for ember (a runtime failure), 255 for perf
	if [ $erc != $prc ] && { [ $erc = 0 ] || [ $prc = 0 ]; }; then
		fail "$name" "ember exits $erc, perf $prc: $(head -3 "$name.ember.err")"
	elif ! cmp -s "$name.perf.err" "$name.ember.err"; then
		fail "$name" "stderr: $(diff "$name.perf.err" "$name.ember.err" | head -8)"
	elif [ -z "${STDERR_ONLY:-}" ] && ! cmp -s "$name.perf" "$name.ember"; then
		fail "$name" "stdout: $(diff "$name.perf" "$name.ember" | head -8)"
	else
		pass "$name"
	fi
}
if [ -e hot.data ]; then
	as_perf no-samples-of-symbol -i hot.data no_such_symbol
	as_perf no-samples-of-dso -i hot.data -d no_such.so
	as_perf no-samples-of-symbol-quiet -q -i hot.data no_such_symbol
	head -c 4096 /dev/urandom >garbage.data
	bad bad-not-perf-data "garbage.data" -i garbage.data
	bad bad-no-file "nosuch.data" -i nosuch.data
	bad bad-intel "-M takes" -i hot.data -M nasm
	bad bad-percent-type "percent-type" -i hot.data --percent-type all
	# perf 6.1's options ember does not do: a line saying so, a usage error
	bad bad-stdio2 "--stdio2 is not supported" -i hot.data --stdio2
	bad bad-dump "-D/--dump-raw-trace is not supported" -i hot.data -D
	bad bad-itrace "--itrace is not supported" -i hot.data --itrace
	bad bad-no-demangle "--no-demangle is not supported" -i hot.data --no-demangle
	bad bad-color "--stdio-color=always is not supported" -i hot.data --stdio-color always
	bad bad-prefix-strip "--prefix-strip requires --prefix" -i hot.data --prefix-strip 1
	# perf 6.1 is built without GTK here: it does not know --gtk
	bad bad-gtk "unknown option '--gtk'" -i hot.data --gtk
	as_perf no-cpu-field -i hot.data -C 0
fi
# a binary gone since the recording, and one stripped of its symbols: one line each
# and, as perf, exit status 0 (-N: perf record keeps no copy of it in the build-id cache)
if build gone -O2 && rec gone -N -F 999 -- ./gone 200; then
	rm -f gone
	"$EMBER" annotate --stdio -i gone.data int_work >gone.out 2>gone.err
	rc=$?
	if [ $rc -eq 0 ] && [ "$(wc -l <gone.err)" -eq 1 ] && grep -q 'gone.*not found' gone.err; then
		pass bad-missing-binary
	else
		fail bad-missing-binary "rc $rc: $(head -3 gone.err)"
	fi
fi
if build stripped -O2 && strip stripped && rec stripped -N -F 999 -- ./stripped 200; then
	"$EMBER" annotate --stdio -i stripped.data -d stripped >stripped.out 2>stripped.err
	rc=$?
	if [ $rc -eq 0 ] && [ "$(wc -l <stripped.err)" -eq 1 ] && grep -q 'no symbols' stripped.err; then
		pass bad-stripped
	else
		fail bad-stripped "rc $rc: $(head -3 stripped.err)"
	fi
fi

# a file without samples: perf's two lines, status 0
if rec empty -e sched:sched_kthread_stop -- true; then
	as_perf no-samples -i empty.data
fi
# kernel symbols: without /proc/kcore and a vmlinux, perf's lines (once for
# the kernel), status 0; the user symbols of the same file still annotated
if [ -r /proc/kcore ] || ls /boot/vmlinux-"$(uname -r)" \
	/usr/lib/debug/boot/vmlinux-"$(uname -r)" /lib/modules/"$(uname -r)"/build/vmlinux \
	/usr/lib/debug/lib/modules/"$(uname -r)"/vmlinux >/dev/null 2>&1; then
	skip kernel-no-vmlinux "this machine has /proc/kcore or a vmlinux"
elif rec kern -e cpu-clock -F 999 -- "$WL/writes" 1000000; then
	# the system libraries' text may differ (see same()): stdout is compared kernel only
	STDERR_ONLY=1 as_perf kernel-no-vmlinux -i kern.data
	as_perf kernel-no-vmlinux-dso -i kern.data -d '[kernel.kallsyms]'
	sym=$("$PERF" report --stdio -i kern.data --sort sym 2>/dev/null | awk '$2 == "[k]" { print $3; exit }')
	if [ -n "$sym" ]; then
		as_perf kernel-no-vmlinux-symbol -i kern.data "$sym"
	else
		fail kernel-no-vmlinux-symbol "no kernel symbol sampled"
	fi
fi
# -C: the samples of these cpus (perf's words for a cpu the recording machine lacks)
if ! command -v taskset >/dev/null; then
	skip cpus "no taskset here"
elif rec cpus -a -F 999 -- taskset -c 0 ./o2 300; then
	same cpus-0 -i cpus.data -C 0 -d o2
	as_perf cpus-1-none -i cpus.data -C 1 -d o2
	as_perf cpus-bad-list -i cpus.data -C x
	as_perf cpus-too-large -i cpus.data -C "0,$(nproc --all)"
fi
