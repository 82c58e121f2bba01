# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the script suites (after e2e.sh), which compare ember script
# with perf script on the same files.

# same NAME FILE [OPTIONS...]: ember script and perf script print the same
# bytes once $FILTER (a command reading the output on stdin; cat when
# unset) ran on both, and both exit 0; perf must have printed something.
same() {
	local name=$1 file=$2 pe ee
	shift 2
	"$PERF" script -i "$file" "$@" 2>"$TMP/$name.perf.err" | ${FILTER:-cat} >"$TMP/$name.perf"
	pe=${PIPESTATUS[0]}
	"$EMBER" script -i "$file" "$@" 2>"$TMP/$name.ember.err" | ${FILTER:-cat} >"$TMP/$name.ember"
	ee=${PIPESTATUS[0]}
	if [ "$pe" != 0 ] || [ "$ee" != 0 ]; then
		fail "$name" "exit status: ember $ee, perf $pe: $(head -2 "$TMP/$name.ember.err")"
	elif [ ! -s "$TMP/$name.perf" ]; then
		fail "$name" "perf script printed nothing: $(head -2 "$TMP/$name.perf.err")"
	elif cmp -s "$TMP/$name.perf" "$TMP/$name.ember"; then
		pass "$name"
	else
		fail "$name" "$(diff "$TMP/$name.perf" "$TMP/$name.ember" | head -8)"
	fi
}
