#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The BPF programs loaded while perf records, in the header: perf 6.1
# prints one "# bpf_prog_info ID: bpf_prog_TAG_NAME addr ... size ..."
# line per program (sub_prog lines for one of several functions, named
# from its BTF) and "# btf info of id N"; ember script/report --header
# print the same from perf's file. ember record writes them as perf
# record does: a KSYMBOL per function and a BPF_EVENT per program at the
# start, the programs' info and BTF in the header. Two programs of
# tests/bpf/progs.bpf.c (one calls a second function) are loaded, pinned
# in a bpffs of the suite's own, for the recordings, and removed after.
. "$(dirname "$0")/../lib/e2e.sh"

is_root || { skip all "needs root (loads BPF programs)"; exit 0; }
have_perf || { skip all "perf not installed"; exit 0; }
for t in clang bpftool; do
	command -v $t >/dev/null || { skip all "$t not installed (scripts/deps.sh)"; exit 0; }
done
mkdir "$TMP/bpffs"
if ! clang -O2 -g -target bpf -I/usr/include/"$(gcc -print-multiarch)" \
	-c "$TOP/tests/bpf/progs.bpf.c" -o "$TMP/progs.o" 2>"$TMP/cc.err"; then
	fail build "$(head -3 "$TMP/cc.err")"
	exit 0
fi
if ! mount -t bpf bpf "$TMP/bpffs" 2>/dev/null; then
	skip all "cannot mount a bpf filesystem here"
	exit 0
fi
if bpftool prog loadall "$TMP/progs.o" "$TMP/bpffs/p" 2>"$TMP/load.err"; then
	"$PERF" record -q -a -o "$TMP/perf.data" sleep 0.2 >/dev/null 2>&1
	"$EMBER" record -q -a -o "$TMP/ember.data" sleep 0.2 >/dev/null 2>&1
	rm -rf "$TMP/bpffs/p"
else
	skip all "the kernel refused the BPF programs: $(head -1 "$TMP/load.err")"
	umount "$TMP/bpffs"
	exit 0
fi
umount "$TMP/bpffs"

"$PERF" script --header-only -i "$TMP/perf.data" >"$TMP/p.hdr" 2>/dev/null
"$EMBER" script --header-only -i "$TMP/perf.data" >"$TMP/e.hdr" 2>/dev/null
check script-header-only cmp "$TMP/p.hdr" "$TMP/e.hdr"
"$PERF" report --header-only -i "$TMP/perf.data" >"$TMP/p.rhdr" 2>/dev/null
"$EMBER" report --header-only -i "$TMP/perf.data" >"$TMP/e.rhdr" 2>/dev/null
check report-header-only cmp "$TMP/p.rhdr" "$TMP/e.rhdr"
# the programs are there, the one of two functions as two sub_progs
if grep -q '^# bpf_prog_info [0-9]*: bpf_prog_[0-9a-f]\{16\}_ember_single addr 0x' "$TMP/e.hdr"; then
	pass single-function-program
else
	fail single-function-program "$(grep bpf_prog_info "$TMP/e.hdr" | head -3)"
fi
if grep -q "^# 	sub_prog 1: bpf_prog_[0-9a-f]\{16\}_ember_helper addr 0x" "$TMP/e.hdr"; then
	pass sub-programs-named-from-btf
else
	fail sub-programs-named-from-btf "$(grep -A2 'bpf_prog_info [0-9]*:$' "$TMP/e.hdr" | head -3)"
fi

# ember's file: the same synthesized records for the suite's programs (other
# programs may come and go between the two recordings), the same header
# lines for them, and perf and ember print that header alike
# the KSYMBOLs of the suite's programs and the BPF_EVENT after each one's last
ours() { grep -E 'PERF_RECORD_(KSYMBOL|BPF_EVENT)' | sed 's/^[0-9]* [0-9]* 0x[0-9a-f]* //' |
	awk '/ember_/ { print; mine = 1; next } /BPF_EVENT/ && mine { print } { mine = 0 }'; }
"$PERF" report -D -i "$TMP/perf.data" 2>/dev/null | ours >"$TMP/p.recs"
"$PERF" report -D -i "$TMP/ember.data" 2>/dev/null | ours >"$TMP/e.recs"
if [ "$(grep -c ember_ "$TMP/e.recs")" = 3 ] && [ "$(grep -c BPF_EVENT "$TMP/e.recs")" = 2 ] &&
	cmp -s "$TMP/p.recs" "$TMP/e.recs"; then
	pass record-synthesizes-programs
else
	fail record-synthesizes-programs "perf's: $(tr '\n' '|' <"$TMP/p.recs" | head -c 600)" \
		"ember's: $(tr '\n' '|' <"$TMP/e.recs" | head -c 600)"
fi
"$PERF" script --header-only -i "$TMP/ember.data" >"$TMP/pe.hdr" 2>/dev/null
"$EMBER" script --header-only -i "$TMP/ember.data" >"$TMP/ee.hdr" 2>/dev/null
check ember-file-header-as-perf cmp "$TMP/pe.hdr" "$TMP/ee.hdr"
if [ "$(grep -A2 'ember_' "$TMP/pe.hdr")" = "$(grep -A2 'ember_' "$TMP/p.hdr")" ] &&
	grep -q ember_helper "$TMP/pe.hdr"; then
	pass ember-file-header-programs
else
	fail ember-file-header-programs "$(grep -A2 ember_ "$TMP/pe.hdr" | head -4)"
fi
