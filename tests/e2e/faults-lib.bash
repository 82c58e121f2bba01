# SPDX-License-Identifier: GPL-2.0-only
# Helpers shared by tests/e2e/faults-*.sh (sourced after tests/lib/e2e.sh,
# never run on its own: run.sh only runs *.sh).

# Random moments, reproducible: the seed is printed, and EMBER_FAULTS_SEED
# replays a failing run.
faults_seed() {
	FAULTS_SEED=${EMBER_FAULTS_SEED:-$(($(date +%s%N) % 32768))}
	RANDOM=$FAULTS_SEED
	echo "     (random delays from seed $FAULTS_SEED; EMBER_FAULTS_SEED=$FAULTS_SEED replays them)"
}

# A background job of a script starts with SIGINT ignored (POSIX), and a
# signal ignored at birth is dropped until ember blocks it: run ember through
# $DFL so that an early ^C finds the default action, as at a terminal (and
# a hang-up too: a runner that ignores SIGHUP, as nohup, is obeyed), and
# count the delay from ember's exec (wait_exec), since a ^C that reaches the
# job before then is dropped by the shell's fork, not by ember.
DFL="env --default-signal=INT,HUP"
EMBER_EXE=$(readlink -f "$EMBER")

# wait_exec PID: until PID runs ember (at most ~5 s).
wait_exec() {
	local i
	for i in $(seq 5000); do
		[ "$(readlink "/proc/$1/exe" 2>/dev/null)" = "$EMBER_EXE" ] && return 0
		[ -e "/proc/$1" ] || return 1
		[ $i -gt 100 ] && sleep 0.001
	done
	return 1
}

# rand_ms LO_MS HI_MS: a random number of ms in [LO, HI].
rand_ms() { echo $(($1 + RANDOM % ($2 - $1 + 1))); }

# rand_delay LO_MS HI_MS: a random number of seconds in [LO, HI] ms, for sleep.
rand_delay() {
	local ms
	ms=$(rand_ms "$1" "$2")
	printf '%d.%03d\n' $((ms / 1000)) $((ms % 1000))
}

# sig_num NAME: the number of a signal name (INT -> 2).
sig_num() { kill -l "$1"; }

# finished FILE: true when FILE's header lists feature sections, which ember
# record writes only when it finishes the file (not when it is killed).
finished() {
	[ -n "$(od -An -v -t x1 -j 72 -N 32 "$1" | tr -d ' 0\n')" ]
}

# unexpected [WARN_RE]: ember's stderr on stdin, less (when WARN_RE is
# given) the warning lines it matches and the blank lines and "Warning:"
# headers around them.
unexpected() {
	if [ -n "${1:-}" ]; then
		grep -vE "$1|^Warning:$|^$"
	else
		cat
	fi
}

# nsamples: the number of sample lines in perf script's default output on
# stdin (callchain lines start with a tab; samples are separated by blanks).
nsamples() { awk '!/^\t/ && NF' | wc -l; }

# readers_ok NAME FILE [WARN_RE]: ember report, ember script, perf report
# and perf script read FILE with status 0 and nothing on stderr (but the
# "has no samples" both print for a file stopped before its first sample,
# and a warning matching WARN_RE when given: perf's count of samples the
# kernel dropped is one, which perf prints for the file as ember does);
# ember script and perf script see the same number of samples. One check each:
# NAME-ember, NAME-perf, NAME-same-samples. Sets RD_SAMPLES (perf's count).
readers_ok() {
	local name=$1 f=$2 warn=${3:-} bad="" rc n_e n_p
	RD_SAMPLES=0
	"$EMBER" report --stdio -i "$f" >"$TMP/rd.out" 2>"$TMP/rd.err"
	rc=$?
	[ $rc = 0 ] && [ -z "$(grep -vE '^Error:$|data has no samples!$' "$TMP/rd.err" |
		unexpected "$warn")" ] ||
		bad="ember report: status $rc: $(head -c 300 "$TMP/rd.err")"
	"$EMBER" script -i "$f" >"$TMP/rd.es" 2>"$TMP/rd.err"
	rc=$?
	[ $rc = 0 ] && [ -z "$(unexpected "$warn" <"$TMP/rd.err")" ] ||
		bad="$bad${bad:+; }ember script: status $rc: $(head -c 300 "$TMP/rd.err")"
	[ -z "$bad" ] && pass "$name-ember" || fail "$name-ember" "$bad"

	bad=""
	"$PERF" report --stdio -i "$f" >"$TMP/rd.out" 2>"$TMP/rd.err"
	rc=$?
	grep -vE '^Error:$|data has no samples!$' "$TMP/rd.err" | unexpected "$warn" >"$TMP/rd.err2"
	[ $rc = 0 ] && [ ! -s "$TMP/rd.err2" ] || bad="perf report: status $rc: $(head -c 300 "$TMP/rd.err")"
	"$PERF" script -i "$f" >"$TMP/rd.ps" 2>"$TMP/rd.err"
	rc=$?
	[ $rc = 0 ] && [ -z "$(unexpected "$warn" <"$TMP/rd.err")" ] ||
		bad="$bad${bad:+; }perf script: status $rc: $(head -c 300 "$TMP/rd.err")"
	[ -z "$bad" ] && pass "$name-perf" || fail "$name-perf" "$bad"

	n_e=$(nsamples <"$TMP/rd.es")
	n_p=$(nsamples <"$TMP/rd.ps")
	RD_SAMPLES=$n_p
	expect_eq "$name-same-samples" "$n_e" "$n_p"
}

# stop_at NAME SIG DELAY WANT_STATUS RECORD_ARGS...: ember record RECORD_ARGS
# (with -o NAME.data or -o -, then NAME.data is the pipe's output), sent SIG
# DELAY seconds after its exec: exits WANT_STATUS with nothing on stderr, the
# file is finished and every reader takes it (readers_ok). When the signal
# came before ember took signals over there is no file, and the status is
# the signal's own (128+SIG), like any program killed at birth.
stop_at() {
	local name=$1 sig=$2 delay=$3 want=$4 p rc f=$1.data pipe=""
	shift 4
	case " $* " in *" -o - "*) pipe=1 ;; esac
	rm -f "$f"
	if [ -n "$pipe" ]; then
		$DFL "$EMBER" record "$@" >"$f" 2>"$name.err" &
	else
		$DFL "$EMBER" record "$@" 2>"$name.err" &
	fi
	p=$!
	wait_exec "$p"
	[ "$delay" = 0.000 ] || sleep "$delay"
	kill -"$sig" "$p"
	wait "$p"
	rc=$?
	if [ ! -s "$f" ]; then
		expect_eq "$name-early-status (after ${delay}s)" "$rc" $((128 + $(sig_num "$sig")))
		return
	fi
	expect_eq "$name-status (after ${delay}s)" "$rc" "$want"
	if [ -s "$name.err" ]; then fail "$name-quiet" "$(head -3 "$name.err")"; else pass "$name-quiet"; fi
	if [ -z "$pipe" ]; then
		if finished "$f"; then pass "$name-finished"; else
			fail "$name-finished" "no feature sections: the file was not finished"; fi
	fi
	readers_ok "$name" "$f"
}
