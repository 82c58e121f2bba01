# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the browser suites (after e2e.sh): headless Chromium (Debian's
# chromium) driven by playwright-core from tests/browser, whose page
# scripts print one "ok NAME" or "FAIL NAME: why" line per check.

# browser_ready: sets CHROMIUM and BROWSER_DIR, installing playwright-core
# with `npm ci` when missing; false, after a skip or fail line saying why,
# when the browser cannot be driven here.
browser_ready() {
	CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
	BROWSER_DIR="$TOP/tests/browser"
	if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
		skip browser "node and npm are not installed (scripts/deps.sh installs nodejs and npm)"
		return 1
	fi
	if [ ! -x "$CHROMIUM" ]; then
		skip browser "no Chromium at $CHROMIUM (scripts/deps.sh installs Debian's chromium)"
		return 1
	fi
	[ -d "$BROWSER_DIR/node_modules/playwright-core" ] && return 0
	if ! PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --prefix "$BROWSER_DIR" --no-audit --no-fund \
		>"$TMP/npm.log" 2>&1; then
		fail npm-ci "$(tail -3 "$TMP/npm.log")"
		return 1
	fi
}

# browser_run PREFIX SCRIPT ARGS...: runs tests/browser/SCRIPT; each line it
# prints becomes a result, named PREFIX/NAME (NAME alone when PREFIX is
# empty); node failing without a FAIL line fails PREFIX (or "node").
browser_run() {
	local prefix=$1 script=$2 line st
	shift 2
	CHROMIUM=$CHROMIUM timeout 180 node "$BROWSER_DIR/$script" "$@" >"$TMP/out" 2>&1
	st=$?
	while IFS= read -r line; do
		case "$line" in
		"ok   "*) pass "${prefix:+$prefix/}${line#ok   }" ;;
		"FAIL "*) fail "${prefix:+$prefix/}$(echo "${line#FAIL }" | cut -d: -f1)" "${line#*: }" ;;
		esac
	done <"$TMP/out"
	if [ "$st" != 0 ] && ! grep -q '^FAIL ' "$TMP/out"; then
		fail "${prefix:-node}" "node exited $st: $(tail -3 "$TMP/out")"
	fi
}
