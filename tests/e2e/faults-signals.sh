#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember record -g of a command, stopped by SIGINT, SIGTERM or SIGHUP at
# random moments, from right after it starts to the middle of the run: the
# file is finished (feature sections written), and ember report, ember
# script, perf report and perf script all read it without a word on stderr
# and see the same samples. The command is stopped with SIGTERM (status 143,
# as perf). A signal that lands before ember has set up leaves no file and
# 128+SIG, like any program killed at birth; nothing in between.
# Pipe mode (-o -) the same, once per signal. (record-signals.sh checks the
# fixed-moment case and the hot symbol.)
. "$(dirname "$0")/../lib/e2e.sh"
. "$(dirname "$0")/faults-lib.bash"

if ! have_perf; then
	skip setup "perf not installed"
	exit 0
fi
if [ ! -x "$EMBER" ] || [ ! -x "$WL/hotloop" ]; then
	skip setup "no $EMBER or $WL/hotloop; build first"
	exit 0
fi
cd "$TMP" || exit 1
faults_seed

# From right after the start (before ember has set up), through the synthesis
# of the command, to the middle of the run; one random moment in each band.
for sig in INT TERM HUP; do
	i=0
	for band in "0 8" "8 150" "150 600" "600 1500"; do
		# shellcheck disable=SC2086
		stop_at "$sig-$i" "$sig" "$(rand_delay $band)" 143 \
			-q -g -o "$sig-$i.data" -- "$WL/hotloop" 4000
		i=$((i + 1))
	done
	stop_at "$sig-pipe" "$sig" "$(rand_delay 100 1200)" 143 -q -g -o - -- "$WL/hotloop" 4000
done
