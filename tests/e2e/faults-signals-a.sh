#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember record -a -g (the whole system, until a signal: no command) stopped
# by SIGINT, SIGTERM or SIGHUP at random moments, from right after its start
# (while it describes every process from /proc) to a second and a half in:
# status 128+SIG as perf, a finished file, and ember report, ember script,
# perf report and perf script read it without a word on stderr and see the
# same samples. See faults-signals.sh for the command case.
. "$(dirname "$0")/../lib/e2e.sh"
. "$(dirname "$0")/faults-lib.bash"

if ! have_perf; then
	skip setup "perf not installed"
	exit 0
fi
if ! is_root; then
	skip setup "system-wide recording needs root"
	exit 0
fi
if [ ! -x "$EMBER" ]; then
	skip setup "no $EMBER; build first"
	exit 0
fi
cd "$TMP" || exit 1
faults_seed

for sig in INT TERM HUP; do
	i=0
	for band in "0 8" "8 200" "200 700" "700 1500"; do
		# shellcheck disable=SC2086
		stop_at "$sig-$i" "$sig" "$(rand_delay $band)" $((128 + $(sig_num $sig))) \
			-q -a -g -o "$sig-$i.data"
		i=$((i + 1))
	done
done
