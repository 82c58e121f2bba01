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
