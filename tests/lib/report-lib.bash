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
