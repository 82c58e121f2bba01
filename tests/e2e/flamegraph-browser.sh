#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The flame graph's interactive parts in a real browser: headless Chromium
# (Debian's chromium) driven by playwright-core (tests/browser, installed
# with `npm ci` when missing) loads an SVG of ember flamegraph, hovers,
# searches (Ctrl-F, regex, case toggle), zooms, resets, reloads from the
# URL, and checks what the page shows (tests/browser/flamegraph.mjs).
. "$(dirname "$0")/../lib/e2e.sh"

CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	skip browser "node and npm are not installed (scripts/deps.sh installs nodejs and npm)"
	exit 0
fi
if [ ! -x "$CHROMIUM" ]; then
	skip browser "no Chromium at $CHROMIUM (scripts/deps.sh installs Debian's chromium)"
	exit 0
fi
BROWSER_DIR="$TOP/tests/browser"
if [ ! -d "$BROWSER_DIR/node_modules/playwright-core" ]; then
	if ! PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --prefix "$BROWSER_DIR" --no-audit --no-fund \
		>"$TMP/npm.log" 2>&1; then
		fail npm-ci "$(tail -3 "$TMP/npm.log")"
		exit 0
	fi
fi

# run_page NAME SVG: each line the page script prints becomes a result
run_page() {
	local name=$1 svg=$2 line
	CHROMIUM=$CHROMIUM timeout 180 node "$BROWSER_DIR/flamegraph.mjs" "$svg" >"$TMP/out" 2>&1
	local st=$?
	while IFS= read -r line; do
		case "$line" in
		"ok   "*) pass "$name/${line#ok   }" ;;
		"FAIL "*) fail "$name/$(echo "${line#FAIL }" | cut -d: -f1)" "${line#*: }" ;;
		esac
	done <"$TMP/out"
	if [ "$st" != 0 ] && ! grep -q '^FAIL ' "$TMP/out"; then
		fail "$name" "node exited $st: $(tail -3 "$TMP/out")"
	fi
}

printf '%s\n' 'prog;main;parse;lex 50' 'prog;main;parse 10' 'prog;main;eval;add 25' \
	'prog;main;eval;mul 15' 'prog;main 5' 'other;start;work 15' >"$TMP/b.folded"
"$EMBER" flamegraph -q "$TMP/b.folded" -o "$TMP/b.svg"
run_page svg "$TMP/b.svg"
