#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# CFI that only the debuginfo has: a workload built without frame pointers
# and without unwind tables keeps its call frame information in
# .debug_frame, which goes with the debuginfo when the binary is stripped.
#
# - Unstripped, ember unwinds through .debug_frame to main (the call path
#   inner <- middle <- outer <- main is known). perf 6.1's unwinder
#   (libunwind, its choice when built with both) looks in .eh_frame only,
#   finds the crt files' entries there and none for these functions, and
#   stops after the sampled frame: where the two differ, the known call
#   path shows ember is right; where perf unwinds too, it must agree.
# - Stripped (-g) and the debuginfo nowhere on this machine: the walks stop
#   early, as they must.
# - The debuginfo served by a real debuginfod (elfutils' server, on
#   localhost): with DEBUGINFOD_URLS set, ember fetches it by build-id as
#   perf's libdw-based tools do, and prints what it printed unstripped.
. "$(dirname "$0")/../lib/e2e.sh"

dwarf_suite_needs cc objcopy strip readelf || exit 0
cd "$TMP" || exit 1

if ! cc -O2 -g -fomit-frame-pointer -fno-asynchronous-unwind-tables -fno-unwind-tables \
	-o dp "$TOP/tests/workloads/dwarfpaths.c" 2>cc.err; then
	fail build "$(head -1 cc.err)"
	exit 0
fi
if ! readelf -SW dp | grep -q '\.debug_frame'; then
	skip setup "the compiler put no .debug_frame in the workload"
	exit 0
fi
"$PERF" record -q --call-graph dwarf -F 999 -o d.data ./dp 300 >/dev/null 2>&1
"$PERF" script -i d.data >perf.script 2>/dev/null
"$EMBER" script -i d.data >full.script 2>full.err
"$EMBER" report --stdio -i d.data >full.report 2>/dev/null

# share USE: % of samples with user frames whose stack reaches main
share() {
	awk '/^[^\t]/ { if (n) { u++; m += hit } n = 0; hit = 0; next }
	     /^\t/ && $0 !~ /\[kernel\.kallsyms\]/ { n++ } / main\+0x/ { hit = 1 }
	     END { if (n) { u++; m += hit } print u ? int(100 * m / u) : 0 }' "$1"
}
s=$(share full.script)
if [ "$s" -ge 90 ]; then
	pass debug-frame-to-main
else
	fail debug-frame-to-main "$s % of the samples reach main"
fi
# samples in inner(): the whole known path under it, innermost first
path=$(awk '/inner\+0x/ { on = 1; p = "" } on && /\t/ { split($2, f, "+"); p = p " " f[1] }
	    on && / main\+0x/ { print p; exit }' full.script)
case "$path" in
" inner middle outer main") pass debug-frame-known-path ;;
*) fail debug-frame-known-path "inner's stack:$path" ;;
esac
p=$(share perf.script)
if [ "$p" -ge 90 ]; then
	check debug-frame-like-perf cmp perf.script full.script
else
	pass debug-frame-perf-stops-early
	echo "     ($p % of perf's samples reach main: its libunwind reads .eh_frame only)"
fi

objcopy --only-keep-debug dp dp.debug
strip -g dp
if readelf -SW dp | grep -q '\.debug_frame'; then
	fail strip ".debug_frame left in the stripped binary"
	exit 0
fi
mkdir srv && mv dp.debug srv/
env -u DEBUGINFOD_URLS "$EMBER" script -i d.data >stripped.script 2>/dev/null
s=$(share stripped.script)
if [ "$s" -lt 50 ]; then
	pass stripped-stops-early
else
	fail stripped-stops-early "$s % reach main without the debuginfo"
fi

if ! command -v debuginfod >/dev/null; then
	skip debuginfod "elfutils' debuginfod server is not installed (package debuginfod)"
	exit 0
fi
BID=$(readelf -n dp | awk '/Build ID/ { print $3 }')
port=
for try in 1 2 3 4 5; do
	cand=$((20000 + RANDOM % 20000))
	# (timeout: never outlives the suite, whatever stops it)
	timeout 300 debuginfod -F -p "$cand" -d "$TMP/db.sqlite" "$TMP/srv" >debuginfod.log 2>&1 &
	pid=$!
	# up when it answers for the build-id (into a cache of its own, emptied
	# each time: the client remembers a miss for ten minutes)
	for i in $(seq 100); do
		rm -rf "$TMP/probe"
		if DEBUGINFOD_URLS=http://127.0.0.1:$cand DEBUGINFOD_CACHE_PATH=$TMP/probe \
			debuginfod-find debuginfo "$BID" >/dev/null 2>&1; then
			port=$cand
			break
		fi
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.2
	done
	[ -n "$port" ] && break
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
done
if [ -z "$port" ]; then
	fail debuginfod-server "debuginfod did not serve the debuginfo: $(tail -2 debuginfod.log)"
	exit 0
fi
export DEBUGINFOD_URLS=http://127.0.0.1:$port DEBUGINFOD_CACHE_PATH=$TMP/cache
"$EMBER" script -i d.data >dgd.script 2>dgd.err
"$EMBER" report --stdio -i d.data >dgd.report 2>/dev/null
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
check debuginfod-script-as-unstripped cmp full.script dgd.script
check debuginfod-report-as-unstripped cmp full.report dgd.report
if [ -s "$TMP/cache/$BID/debuginfo" ]; then
	pass debuginfod-fetched-by-build-id
else
	fail debuginfod-fetched-by-build-id "nothing in the client cache for $BID"
fi
