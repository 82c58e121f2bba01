#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The flame graph's interactive parts in a real browser: headless Chromium
# (Debian's chromium) driven by playwright-core (tests/browser, installed
# with `npm ci` when missing) loads an SVG of ember flamegraph, hovers,
# searches (Ctrl-F, regex, case toggle), zooms, resets, reloads from the
# URL, and checks what the page shows (tests/browser/flamegraph.mjs).
. "$(dirname "$0")/../lib/e2e.sh"
. "$(dirname "$0")/../lib/browser-lib.bash"

browser_ready || exit 0

printf '%s\n' 'prog;main;parse;lex 50' 'prog;main;parse 10' 'prog;main;eval;add 25' \
	'prog;main;eval;mul 15' 'prog;main 5' 'other;start;work 15' >"$TMP/b.folded"
"$EMBER" flamegraph -q "$TMP/b.folded" -o "$TMP/b.svg"
browser_run svg flamegraph.mjs "$TMP/b.svg"
