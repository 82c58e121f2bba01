#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# libember's ABI is what its headers say: every function declared EMBER_API
# in include/ember/*.h is listed in lib/libember.map and exported by
# libember.so, and libember.so exports nothing else. The ember_ prefix
# means exported: no other global symbol of libember.a carries it. Each
# public header compiles on its own, as C and as C++.
. "$(dirname "$0")/../lib/e2e.sh"
cd "$TOP" || exit 1
export LC_ALL=C

# The declared API: the name before the first '(' of each EMBER_API
# declaration, comments and preprocessor lines left out.
perl -0777 -ne 's{/\*.*?\*/}{}gs; s{//[^\n]*}{}g; s/^\s*#.*$//mg;
	while (/\bEMBER_API\b([^;]*);/g) {
		my $d = $1;
		print $d =~ /^[^(]*?\b(\w+)\s*\(/ ? "$1\n" : "?? $d\n";
	}' include/ember/*.h | sort >"$TMP/api"
if grep -q '^??' "$TMP/api" || ! grep -q . "$TMP/api"; then
	fail api-parsed "declarations not understood: $(grep '^??' "$TMP/api" | head -3)"
else
	pass api-parsed
fi
bad=$(grep -v '^ember_' "$TMP/api" | tr '\n' ' ')
[ -z "$bad" ] && pass api-has-prefix || fail api-has-prefix "without ember_: $bad"
bad=$(uniq -d "$TMP/api" | tr '\n' ' ')
[ -z "$bad" ] && pass api-declared-once || fail api-declared-once "twice: $bad"

# the map: an explicit list, no wildcard but the local catch-all
sed -n '/global:/,/local:/p' lib/libember.map | sed -n 's/^[[:space:]]*\([A-Za-z0-9_]*\);$/\1/p' |
	sort >"$TMP/map"
if grep -A1 'global:' lib/libember.map | grep -q '\*' ||
	sed -n '/global:/,/local:/p' lib/libember.map | grep -q '[*?]'; then
	fail map-explicit "lib/libember.map exports by pattern"
else
	pass map-explicit
fi
d=$(diff "$TMP/api" "$TMP/map" | sed -n 's/^< /not in the map: /p; s/^> /not declared: /p' | head -10)
[ -z "$d" ] && pass map-is-the-api || fail map-is-the-api "$d"

# the shared library exports exactly that
SO="$BUILD/libember.so"
if [ ! -e "$SO" ] || ! command -v nm >/dev/null; then
	skip so-exports-the-api "no $SO or no nm (build first)"
else
	nm -D --defined-only "$SO" | awk 'NF == 3 { sub("@.*", "", $3); print $3 }' |
		grep -v '^LIBEMBER_' | sort -u >"$TMP/so"
	d=$(diff "$TMP/api" "$TMP/so" | sed -n 's/^< /not exported: /p; s/^> /exported, not declared: /p' |
		head -10)
	[ -z "$d" ] && pass so-exports-the-api || fail so-exports-the-api "$d"
fi

# internal symbols of the static library do not carry the exported prefix
if [ ! -e "$BUILD/libember.a" ]; then
	skip prefix-means-exported "no $BUILD/libember.a (build first)"
else
	nm -g --defined-only "$BUILD/libember.a" 2>/dev/null | awk 'NF == 3 { print $3 }' |
		grep '^ember_' | sort -u | comm -23 - "$TMP/api" >"$TMP/internal"
	[ -s "$TMP/internal" ] && fail prefix-means-exported \
		"ember_ but not API: $(head -10 "$TMP/internal" | tr '\n' ' ')" ||
		pass prefix-means-exported
fi

# each public header stands alone
bad=
for h in include/ember/*.h; do
	n=${h#include/}
	echo "#include <$n>" | cc -std=gnu11 -Wall -Wextra -Werror -Iinclude -fsyntax-only -x c - \
		>/dev/null 2>&1 || bad+=" $n(C)"
	if command -v c++ >/dev/null; then
		echo "#include <$n>" | c++ -Wall -Werror -Iinclude -fsyntax-only -x c++ - \
			>/dev/null 2>&1 || bad+=" $n(C++)"
	fi
done
[ -z "$bad" ] && pass headers-stand-alone || fail headers-stand-alone "$bad"
