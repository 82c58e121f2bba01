#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember report --sort srcline / srcfile against perf report 6.1 on the same
# files: a workload built with -g (its lines from DWARF), the same program
# built without debug info (binutils' symbol-table answer "file.c:0") and
# as a fixed-address executable; each with and without callchains, where
# perf's --children entries look lines up at the raw return addresses and
# mostly print "sym+OFFSET". Alone and with other keys: perf computes
# these strings only when a comparison needs them and sizes the column by
# those, which the column widths show.
. "$(dirname "$0")/../lib/e2e.sh"
. "$(dirname "$0")/../lib/report-lib.bash"

if ! have_perf; then
	skip setup "perf is not installed"
	exit 0
fi
if ! command -v addr2line >/dev/null; then
	# perf 6.1 without libbfd runs addr2line: without it perf has no lines
	skip setup "addr2line (binutils) is not installed: perf shows no source lines"
	exit 0
fi
cd "$TMP" || exit 1

CC=${CC:-cc}
# countloop, not hotloop: no libc call in the loop, so no sample whose line
# perf's addr2line might have stopped looking for (see countloop.c)
src=$TOP/tests/workloads/countloop.c

rec dbg -F 999 -- "$WL/countloop" 1000 || exit 0
rec dbg-g -g -F 999 -- "$WL/countloop" 1000 || exit 0
keys="srcline srcfile srcline,srcfile sym,srcline srcfile,sym dso,srcline comm,srcfile pid,srcline"
for k in $keys; do
	same "srcline-$k" -i dbg.data --sort "$k"
	same "srcline-g-$k" -i dbg-g.data --sort "$k"
	same "srcline-g-self-$k" -i dbg-g.data --no-children --sort "$k"
done
# -g ...,address: each chain entry's source line after its name (libc's
# __libc_start_call_main too: binutils names libc-start.c for its lines)
same "srcline-chain-address" -i dbg-g.data -g caller,address
same "srcline-chain-address-self" -i dbg-g.data --no-children -g callee,address
same "srcline-chain-address-folded" -i dbg-g.data --no-children -g folded,address
same "srcline-n" -i dbg.data --sort srcline -n
same "srcline-t" -i dbg.data --sort srcline,srcfile -t ,
same "srcline-F" -i dbg.data -F overhead,srcline,sym

if $CC -O1 -fno-omit-frame-pointer -fno-inline -o nodebug "$src" 2>cc.err; then
	rec nodebug -g -F 999 -- ./nodebug 1000 &&
		for k in srcline srcfile sym,srcline; do
			same "srcline-nodebug-$k" -i nodebug.data --sort "$k"
			same "srcline-nodebug-self-$k" -i nodebug.data --no-children --sort "$k"
		done &&
		same "srcline-nodebug-chain-address" -i nodebug.data -g caller,address
else
	skip srcline-nodebug "cannot build the workload: $(head -c 200 cc.err)"
fi
if $CC -O1 -g -fno-omit-frame-pointer -fno-inline -no-pie -o nopie "$src" 2>cc.err; then
	rec nopie -g -F 999 -- ./nopie 1000 &&
		for k in srcline srcfile dso,srcline; do
			same "srcline-nopie-$k" -i nopie.data --sort "$k"
			same "srcline-nopie-self-$k" -i nopie.data --no-children --sort "$k"
		done &&
		same "srcline-nopie-chain-address" -i nopie.data -g caller,address
else
	skip srcline-nopie "cannot build the workload: $(head -c 200 cc.err)"
fi
