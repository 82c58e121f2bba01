#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Code under a symbol typed STT_OBJECT (tests/workloads/objcode.c: blobs
# in .text, as assemblers and JITs make): perf report 6.1 prints such a
# symbol as "name+0xOFFSET", the entry's ip less the symbol's start; for
# a sample's own entry that ip is a dso address, for a callchain's a raw
# one, so only the latter offset is the real one. ember prints the same.
. "$(dirname "$0")/../lib/e2e.sh"
. "$(dirname "$0")/../lib/report-lib.bash"

if ! have_perf; then
	skip setup "perf is not installed"
	exit 0
fi
if [ "$(uname -m)" != x86_64 ]; then
	skip setup "objcode's object-typed code is x86-64 assembly"
	exit 0
fi
cd "$TMP" || exit 1

rec obj -g -F 999 -- "$WL/objcode" 3000 || exit 0
# the chain-only blob is shown at its return address, 9 bytes in
check objsym-perf-offset grep -q 'objcode_tramp+0x9$' <(perf_report -i obj.data --children)
for o in "--no-children" "--children" "--children -g caller" "--no-children --sort dso,sym" \
	"--children -g none --sort pid,sym" "--children -t ,"; do
	# shellcheck disable=SC2086
	same "objsym$(echo "$o" | tr -d ' ,')" -i obj.data $o
done
