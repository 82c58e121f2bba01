#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember report --stdio against perf report --stdio on the same files: files
# recorded by perf (file, pipe, -z, several events, a tracepoint, the whole
# system with kernel stacks) and by ember record. Every case must print the
# same text as perf, once perf's random "# (Tip: ...)" footer is dropped.
. "$(dirname "$0")/../lib/e2e.sh"
. "$(dirname "$0")/../lib/report-lib.bash"

if ! have_perf; then
	skip setup "perf is not installed"
	exit 0
fi
if ! is_root; then
	skip setup "recording the whole system needs root"
	exit 0
fi
cd "$TMP" || exit 1

FILTER=cat
# Rows of PLT stubs: libember names some PLT entries differently from perf
# (perf "__memcpy_chk@plt" where ember says "_init", for binaries that
# happen to run during a system-wide recording); reported, left out here.
no_plt() { grep -Ev '\[\.\] (_init|[^ ]+@plt) *$'; }
no_plt_unresolved() { no_plt | no_unresolved; }

# same_pipe NAME FILE ARGS...: both read the file from a pipe
same_pipe() {
	local name=$1 file=$2
	shift 2
	perf_report -i - "$@" <"$file" >"$name.perf"
	"$EMBER" report --stdio -i - "$@" <"$file" >"$name.ember" 2>"$name.err"
	if [ -s "$name.perf" ] && cmp -s "$name.perf" "$name.ember"; then
		pass "$name"
	else
		fail "$name" "$(diff "$name.perf" "$name.ember" | head -12; head -3 "$name.err")"
	fi
}

# 1. perf record -g of a workload with two hot functions
if rec g -g -- "$WL/hotloop" 300; then
	same children -i g.data
	same no-children -i g.data --no-children
	same nr-period -i g.data -n --show-total-period
	same nr-period-self -i g.data --no-children -n --show-total-period -g none
	for s in comm pid dso sym dso,sym cpu pid,sym parent overhead_sys,dso; do
		same "sort-$s" -i g.data --sort "$s"
		same "sort-$s-self" -i g.data --no-children --sort "$s"
	done
	same fields -i g.data -F overhead,comm,dso -g none
	for g in caller callee flat folded fractal "graph,0,caller,function,period" \
		"fractal,0.5,callee,function,count" "graph,2" none; do
		same "g-$g" -i g.data -g "$g"
		same "g-$g-self" -i g.data --no-children -g "$g"
	done
	same inverted -i g.data --no-children -G
	same percent-limit -i g.data --percent-limit 5
	same percent-limit-self -i g.data --no-children --percent-limit 1
	same symbols-filter -i g.data --symbols hot_a
	same dsos-filter -i g.data --no-children --dsos hotloop
	same quiet -i g.data -q --no-children
	# -D: every record, each sample with the thread and dso perf resolves it to
	same dump -i g.data -D
	same stats -i g.data --stats
fi

# 2. the whole system, kernel stacks, many processes
if rec sys -a -g -- sh -c "$WL/hotloop 400 & for i in \$(seq 50); do ls / >/dev/null; done; wait"; then
	FILTER=no_plt_unresolved
	same sys-children -i sys.data
	same sys-no-children -i sys.data --no-children
	same sys-sort-pid -i sys.data --no-children --sort pid
	same sys-sort-dso-sym -i sys.data --sort dso,sym -g none
	same sys-cpu -i sys.data --no-children --sort cpu,comm
	same sys-cpu-filter -i sys.data --no-children --cpu 0
	same sys-comm-filter -i sys.data --no-children --comms hotloop,ls
	same sys-pid-filter -i sys.data --no-children --pid 1
	# --max-stack: the first N addresses perf walks, leaf first (callee) or root first (caller)
	same sys-max-stack -i sys.data --max-stack 3
	same sys-max-stack-self -i sys.data --max-stack 4 --no-children
	same sys-max-stack-caller -i sys.data --max-stack 2 --no-children -g caller
	same sys-max-stack-0 -i sys.data --max-stack 0
	same sys-dump -i sys.data -D
	FILTER=cat
fi

# 3. pipe mode: perf report has no --children there
if "$PERF" record -q -g -o - -- "$WL/hotloop" 200 >pipe.data 2>pipe.err && [ -s pipe.data ]; then
	same_pipe pipe pipe.data
	same_pipe pipe-self pipe.data --no-children
else
	fail record-pipe "$(tail -3 pipe.err)"
fi

# 3b. lost samples: -D shows a LOST_SAMPLES record without an id as perf
# (id -1) and counts its samples per event for --stats only
if rec lost -F max -m 1 -- "$WL/hotloop" 100; then
	same lost-dump -i lost.data -D
	same lost-stats -i lost.data --stats
fi

# 4. zstd-compressed records
rec z -z -g -- "$WL/hotloop" 200 && same zstd -i z.data

# 5. two events: a section each
if rec multi -e cpu-clock,task-clock -g -- "$WL/hotloop" 200; then
	same multi -i multi.data
	same multi-self -i multi.data --no-children -n
fi

# 6. a tracepoint, system-wide
if have_tracefs && rec tp -e sched:sched_switch -a -- sleep 0.3; then
	same tracepoint -i tp.data
	same tracepoint-sort -i tp.data --sort comm,pid
fi

# 7. a file ember record wrote
if "$EMBER" record -q -g -o e.data -- "$WL/hotloop" 300 >/dev/null 2>e.err && [ -s e.data ]; then
	same ember-file -i e.data
	same ember-file-self -i e.data --no-children
else
	fail record-ember "$(tail -3 e.err)"
fi

# 8. what goes wrong: one clear line, exit 1
out=$("$EMBER" report --stdio -i missing.data 2>&1)
check missing-file [ $? -eq 1 ]
expect_eq missing-file-text "$out" \
	"failed to open missing.data: No such file or directory  (try 'ember record' first)"
: >empty.data
out=$("$EMBER" report --stdio -i empty.data 2>&1)
check empty-file [ $? -eq 1 ]
expect_eq empty-file-text "$out" "zero-sized data (empty.data), nothing to do!"
echo "not a profile" >junk.data
out=$("$EMBER" report --stdio -i junk.data 2>&1)
check junk-file [ $? -eq 1 ]
expect_eq junk-file-lines "$(printf '%s\n' "$out" | wc -l)" 1
if [ -s g.data ] && id nobody >/dev/null 2>&1; then
	cp g.data other.data && chown nobody other.data
	out=$("$EMBER" report --stdio -i other.data 2>&1)
	check not-owned [ $? -eq 1 ]
	expect_eq not-owned-text "$out" \
		"File other.data not owned by current user or root (use -f to override)"
	check force "$EMBER" report --stdio -f -i other.data
fi
"$EMBER" report --stdio -i g.data --sort nosuchkey >/dev/null 2>&1
expect_eq bad-sort-key-exit "$?" 2
