# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the report suites (after e2e.sh), which compare ember report
# with perf report on files perf records.

rec() { # NAME ARGS...: perf record into NAME.data
	local name=$1
	shift
	if "$PERF" record -q -o "$name.data" "$@" >/dev/null 2>"$name.err" && [ -s "$name.data" ]; then
		return 0
	fi
	fail "record-$name" "$(tail -3 "$name.err")"
	return 1
}

# perf's report without its footer: "#", "# (Tip: ...)", "#" after the last table
perf_report() {
	"$PERF" report --stdio "$@" 2>/dev/null | awk '
		{ line[NR] = $0 }
		END {
			n = NR
			if (n >= 3 && line[n - 1] ~ /^# \(Tip: / && line[n] == "#" && line[n - 2] == "#")
				n -= 3
			for (i = 1; i <= n; i++) {
				# its "[...]" line reads an uninitialised flag: " (inlined)" comes and goes
				sub(/--\[\.\.\.\] \(inlined\)$/, "--[...]", line[i])
				print line[i]
			}
		}'
}

# no_unresolved: the report without the entries of unresolved addresses
# ("[k] 0x...", "[.] 0x..." rows, with their callchain blocks). For files
# recorded system-wide: perf 6.1 files samples into a red-black tree whose
# comparison is not transitive there (two unresolved entries compare by
# address, a resolved one by dso and symbol), so depending on what else the
# machine ran, one address now and then gets two entries where ember has
# one (a known difference). Entries of symbols are still compared.
no_unresolved() {
	awk '
		function is_row(l) { return l ~ /^ *[0-9]+\.[0-9]+%/ }
		skip && $0 == "" { skip = 0; next }
		skip && !is_row($0) { next }
		{ skip = 0 }
		is_row($0) && $0 ~ /\[[^]]\] 0x[0-9a-f]+ *$/ { skip = 1; next }
		{ print }'
}

# same NAME ARGS...: ember and perf print the same report, once $FILTER (a
# command reading the report on stdin; cat when unset) ran on both
same() {
	local name=$1
	shift
	perf_report "$@" | ${FILTER:-cat} >"$name.perf"
	"$EMBER" report --stdio "$@" 2>"$name.err" | ${FILTER:-cat} >"$name.ember"
	if [ ! -s "$name.perf" ]; then
		fail "$name" "perf printed nothing"
	elif cmp -s "$name.perf" "$name.ember"; then
		pass "$name"
	else
		fail "$name" "$(diff "$name.perf" "$name.ember" | head -12; head -3 "$name.err")"
	fi
}
