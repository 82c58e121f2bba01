# SPDX-License-Identifier: GPL-2.0-only
# ember record's BUILD_ID section against perf record 6.1: perf buildid-list
# on ember's file lists (at least) every build-id perf's own recording of the
# same command lists, with the same names and ids; --buildid-all lists the
# same set as perf's --buildid-all; -B, --buildid-mmap and pipe mode write
# none, as perf; perf's tools read the section without a word.
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

ids() { "$PERF" buildid-list -i "$1" 2>/dev/null | sort; }
# missing LIST: lines of the first sorted list absent from the second
missing() { comm -23 "$1" "$2"; }

"$PERF" record -q -o p.data -- "$WL/hotloop" 200 >/dev/null 2>&1
"$EMBER" record -q -o e.data -- "$WL/hotloop" 200 >/dev/null 2>&1
ids p.data >p.ids
ids e.data >e.ids
if [ ! -s p.ids ]; then
	skip superset "perf wrote no build-ids"
else
	m=$(missing p.ids e.ids)
	if [ -z "$m" ]; then pass superset; else fail superset "missing from ember's: $m"; fi
fi
grep -q " $WL/hotloop\$" e.ids && pass workload-listed || fail workload-listed "$(cat e.ids)"
want=$(readelf -n "$WL/hotloop" 2>/dev/null | sed -n 's/.*Build ID: //p')
got=$(sed -n "s| $WL/hotloop\$||p" e.ids)
expect_eq workload-id "$got" "$want"
if grep -q '\[kernel.kallsyms\]' p.ids; then
	expect_eq kernel-id "$(grep '\[kernel.kallsyms\]' e.ids)" "$(grep '\[kernel.kallsyms\]' p.ids)"
fi
if grep -q '\[vdso\]' p.ids; then
	expect_eq vdso-id "$(grep '\[vdso\]' e.ids)" "$(grep '\[vdso\]' p.ids)"
fi

# perf's readers take the section quietly.
err=$("$PERF" report --stdio -i e.data 2>&1 >/dev/null)
expect_eq report-quiet "$err" ""
err=$("$PERF" buildid-list -i e.data 2>&1 >/dev/null)
expect_eq buildid-list-quiet "$err" ""

# --buildid-all: every dso mapped, the same set as perf's.
"$PERF" record -q --buildid-all -o pa.data -- "$WL/hotloop" 50 >/dev/null 2>&1
"$EMBER" record -q --buildid-all -o ea.data -- "$WL/hotloop" 50 >/dev/null 2>&1
expect_eq buildid-all "$(ids ea.data)" "$(ids pa.data)"

# -B / --no-buildid, and --buildid-mmap: no section at all, as perf.
feat_missing() { "$PERF" report --header-only -i "$1" 2>/dev/null | grep -c '^# missing features:.* BUILD_ID '; }
"$PERF" record -q -B -o pb.data -- true >/dev/null 2>&1
"$EMBER" record -q -B -o eb.data -- true >/dev/null 2>&1
expect_eq no-buildid "$(feat_missing eb.data)" "$(feat_missing pb.data)"
# without the section perf buildid-list only names the dsos, with no id
expect_eq no-buildid-ids "$(ids eb.data | grep -c '^[0-9a-f]\{40\} ')" 0
"$EMBER" record -q --no-buildid -N -o eb.data -- true >/dev/null 2>&1
expect_eq no-buildid-long "$(feat_missing eb.data)" 1
"$PERF" record -q --buildid-mmap -o pm.data -- true >/dev/null 2>&1
"$EMBER" record -q --buildid-mmap -o em.data -- true >/dev/null 2>&1
expect_eq buildid-mmap "$(feat_missing em.data)" "$(feat_missing pm.data)"

# Pipe mode: perf 6.1 sends no HEADER_BUILD_ID records; neither does ember.
"$EMBER" record -q -o - -- "$WL/hotloop" 20 2>/dev/null >e.pipe
n=$("$PERF" report -D -i - <e.pipe 2>/dev/null | grep -c 'PERF_RECORD_HEADER_BUILD_ID')
expect_eq pipe-none "$n" 0

# -a: every process's files; perf buildid-list reads it and the kernel is there.
"$EMBER" record -q -a -o s.data -- "$WL/hotloop" 50 >/dev/null 2>&1
ids s.data >s.ids
if grep -q '\[kernel.kallsyms\]' s.ids && grep -q " $WL/hotloop\$" s.ids; then
	pass system-wide
else
	fail system-wide "$(head -5 s.ids)"
fi
