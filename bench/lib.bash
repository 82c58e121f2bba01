# SPDX-License-Identifier: GPL-2.0-only
# Sourced by bench/*.sh (named .bash so bench/run.sh does not run it):
#   . "$(dirname "$0")/lib.bash"; bench_init NAME
# sets BUILD, EMBER and PERF, cds to the top, and exits the benchmark when
# perf is missing (skipped, 0) or ember is not built (1).

bench_init() {
	cd "$(dirname "$0")/.." || exit 1
	BUILD=${BUILD:-build}
	EMBER="$BUILD/ember"
	PERF=${PERF:-perf}
	if ! command -v "$PERF" >/dev/null; then
		echo "$1 bench: perf is not installed, skipped"
		exit 0
	fi
	if [ ! -x "$EMBER" ]; then
		echo "$1 bench: $EMBER is missing (make first)"
		exit 1
	fi
}

now_ns() { date +%s%N; }
# median N...: the middle value (the upper one of an even count).
median() { printf '%s\n' "$@" | sort -g | sed -n "$(( ($# + 1) / 2 ))p"; }
