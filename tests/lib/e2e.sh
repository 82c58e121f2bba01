# SPDX-License-Identifier: GPL-2.0-only
# Sourced by every tests/e2e/*.sh. Each check reports one line:
#   ok   NAME | FAIL NAME | skip NAME: REASON
# and appends it to $EMBER_RESULTS for tests/run.sh to count.

set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-build}
case "$BUILD" in /*) ;; *) BUILD="$TOP/$BUILD" ;; esac
EMBER="$BUILD/ember"
WL="$BUILD/workloads"
PERF=${PERF:-perf}
EMBER_RESULTS=${EMBER_RESULTS:-/dev/null}
SUITE=$(basename "$0" .sh)
TMP=$(mktemp -d /tmp/ember-e2e.XXXXXX)
# EMBER_E2E_KEEP=1 keeps the scratch directory, to look at after a failure
if [ -n "${EMBER_E2E_KEEP:-}" ]; then
	trap 'echo "kept $TMP" >&2' EXIT
else
	trap 'rm -rf "$TMP"' EXIT
fi

_report() { # status name [reason]
	local line
	case "$1" in
	ok) line="ok   $SUITE/$2" ;;
	fail) line="FAIL $SUITE/$2" ;;
	skip) line="skip $SUITE/$2: $3" ;;
	esac
	echo "$line"
	echo "$line" >>"$EMBER_RESULTS"
}

pass() { _report ok "$1"; }
fail() { _report fail "$1"; shift; [ $# -gt 0 ] && echo "     $*"; return 0; }
skip() { _report skip "$1" "$2"; }

# check NAME CMD...: passes when CMD succeeds; on failure shows its output.
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		pass "$name"
	else
		fail "$name"
		printf '%s\n' "$out" | head -20 | sed 's/^/     /'
	fi
}

is_root() { [ "$(id -u)" = 0 ]; }
have_perf() { command -v "$PERF" >/dev/null 2>&1; }
# True when the kernel lets us open tracepoints (root and tracefs present).
have_tracefs() {
	[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
	[ -d /sys/kernel/tracing/events ]
}
# True when $EMBER is built with AddressSanitizer (make check SANITIZE=1).
ember_sanitized() { ldd "$EMBER" 2>/dev/null | grep -q libasan; }
have_hw_pmu() { [ -e /sys/bus/event_source/devices/cpu ] || [ -e /sys/bus/event_source/devices/cpu_core ]; }

# expect_eq NAME GOT WANT
expect_eq() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "got '$2', want '$3'"; fi
}

# dwarf_suite_needs TOOL...: a --call-graph dwarf suite's setup: perf, an
# x86_64 machine (the only one ember unwinds) and the tools named; returns
# 1 after a skip line when one is missing (the caller exits 0).
dwarf_suite_needs() {
	if ! have_perf; then
		skip setup "perf is not installed"
		return 1
	fi
	if [ "$(uname -m)" != x86_64 ]; then
		skip setup "ember unwinds x86_64 stack copies only"
		return 1
	fi
	for tool in "$@"; do
		if ! command -v "$tool" >/dev/null; then
			skip setup "$tool is not installed"
			return 1
		fi
	done
}
