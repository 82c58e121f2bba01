#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember report --sort KEY against perf report --sort KEY on the same perf
# record -g file, for the keys beyond the common ones: symbol_size and
# dso_size, alone and with others, with and without --children; and a
# --sort naming "symbol", to which perf appends its "IPC [IPC Coverage]"
# columns (ipc_null, compared as the symbol).
# Not compared: dso_size of the kernel (perf sizes the kernel's map from
# /proc/kcore's text segment, through init text and bss; ember from the
# kernel's MMAP record), so those rows are filtered from both outputs.
. "$(dirname "$0")/../lib/e2e.sh"
. "$(dirname "$0")/../lib/report-lib.bash"

if ! have_perf; then
	skip setup "perf is not installed"
	exit 0
fi
cd "$TMP" || exit 1

# same_after NAME FILTER ARGS...: same, once FILTER ran on both reports
same_after() {
	local name=$1 FILTER=$2
	shift 2
	same "$name" "$@"
}

# the kernel's rows (and the callchains under them) out
no_kernel() {
	awk '/^ +[0-9.]+%/ { skip = /\[kernel\.kallsyms\]/ } !skip'
}

if ! "$PERF" record -q -g -o g.data -- "$WL/hotloop" 300 >/dev/null 2>g.err || [ ! -s g.data ]; then
	fail record "$(tail -3 g.err)"
	exit 0
fi

for s in symbol_size symbol symbol_size,comm comm,symbol dso,symbol_size symbol_size,sym \
	+symbol_size; do
	same_after "sort-$s" cat -i g.data --sort "$s"
	same_after "sort-$s-self" cat -i g.data --no-children --sort "$s"
done
# (each with dso, to know the kernel's rows)
for s in dso_size,dso dso,dso_size comm,dso_size,dso pid,dso,dso_size dso_size,cpu,dso; do
	same_after "sort-$s" no_kernel -i g.data --sort "$s" -g none
	same_after "sort-$s-self" no_kernel -i g.data --no-children --sort "$s" -g none
done
# keys given by a prefix, as perf takes them
same_after "sort-prefix" no_kernel -i g.data --no-children --sort dso_s,com,dso -g none
same_after "sort-prefix-symbol" cat -i g.data --sort symbol_s,co
