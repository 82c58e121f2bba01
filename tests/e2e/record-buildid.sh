# SPDX-License-Identifier: GPL-2.0-only
# ember record's BUILD_ID section against perf record 6.1: as perf's, it
# lists the dsos the file's samples hit and [vdso] (perf script of the same
# file names the dsos), with the ids perf's own recording of the same
# command gives them; --buildid-all lists the same set as perf's
# --buildid-all; -B, --buildid-mmap and pipe mode write none, as perf;
# perf's tools read the section without a word.
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

"$PERF" record -q -o p.data -- "$WL/hotloop" 200 >/dev/null 2>&1
"$EMBER" record -q -o e.data -- "$WL/hotloop" 200 >/dev/null 2>&1
ids p.data >p.ids
ids e.data >e.ids
# with_id: the dso names read on stdin that have a build-id to list (the kernel,
# [vdso], files with a GNU build-id note; not [unknown], //anon, JIT maps)
with_id() {
	local name
	while IFS= read -r name; do
		case "$name" in
		'[kernel.kallsyms]' | '[vdso]') echo "$name" ;;
		/*) readelf -n "$name" 2>/dev/null | grep -q 'Build ID' && echo "$name" ;;
		esac
	done
}
# hit-only DATA NAME: the names DATA lists are its samples' dsos and [vdso], each once
hit_only() {
	local listed hit
	listed=$(ids "$1" | sed 's/^[0-9a-f]* //' | sort)
	hit=$({ "$PERF" script -i "$1" -F ip,dso --hide-call-graph 2>/dev/null |
		sed -n 's/.*(\(.*\))$/\1/p' | sort -u | with_id; echo '[vdso]'; } | sort -u)
	if [ "$listed" = "$hit" ]; then
		pass "$2"
	else
		fail "$2" "listed: $(echo $listed); samples' dsos: $(echo $hit)"
	fi
}
hit_only e.data hit-only
# with call chains: the callers' dsos (libc's __libc_start_call_main) are not hits, as perf's
"$EMBER" record -q -g -o eg.data -- "$WL/hotloop" 100 >/dev/null 2>&1
hit_only eg.data hit-only-g
# the entries both list carry the same ids: the same files, read the same way
m=$(comm -12 <(sed 's/^[0-9a-f]* //' p.ids | sort) <(sed 's/^[0-9a-f]* //' e.ids | sort) |
	while read -r name; do
		[ "$(grep -F " $name" p.ids)" = "$(grep -F " $name" e.ids)" ] || echo "$name"
	done)
[ -z "$m" ] && pass same-ids || fail same-ids "ids differ for: $m"
grep -q " $WL/hotloop\$" e.ids && pass workload-listed || fail workload-listed "$(cat e.ids)"
want=$(readelf -n "$WL/hotloop" 2>/dev/null | sed -n 's/.*Build ID: //p')
got=$(sed -n "s| $WL/hotloop\$||p" e.ids)
expect_eq workload-id "$got" "$want"
# The kernel is listed when a sample hit it: a command that spends its time there
# (dd copies zeroes in the kernel) has kernel samples under either tool.
KWORK="dd if=/dev/zero of=/dev/null bs=1M count=3000"
"$PERF" record -q -o pk.data -- $KWORK >/dev/null 2>&1
"$EMBER" record -q -o ek.data -- $KWORK >/dev/null 2>&1
if ids pk.data | grep -q '\[kernel.kallsyms\]'; then
	expect_eq kernel-id "$(ids ek.data | grep '\[kernel.kallsyms\]')" \
		"$(ids pk.data | grep '\[kernel.kallsyms\]')"
else
	skip kernel-id "perf's recording of dd has no kernel sample"
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
hit_only s.data system-wide-hit-only
