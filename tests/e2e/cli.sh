#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The command itself: help, version, unknown commands, install.
. "$(dirname "$0")/../lib/e2e.sh"

out=$("$EMBER" --help); rc=$?
if [ $rc = 0 ] && grep -q ' stat ' <<<"$out" && grep -q ' list ' <<<"$out"; then
	pass help-lists-commands
else
	fail help-lists-commands "rc=$rc"
fi

out=$("$EMBER" --version)
if grep -Eq '^ember version [0-9]+\.[0-9]+\.[0-9]+$' <<<"$out"; then pass version; else fail version "$out"; fi

# --build-options: perf's layout, a row per feature, on when the build has it.
out=$("$EMBER" version --build-options); rc=$?
rows=$(sed 1d <<<"$out")
if [ $rc = 0 ] && [ "$(head -1 <<<"$out")" = "$("$EMBER" version)" ] && [ -n "$rows" ] &&
   ! grep -Evq '^ {0,21}[a-z_-]+: \[ (on |OFF) \]  # HAVE_[A-Z_]+$' <<<"$rows" &&
   [ "$(awk '{ print index($0, ":") }' <<<"$rows" | sort -u)" = 23 ]; then
	pass version-build-options-layout
else
	fail version-build-options-layout "rc=$rc: $out"
fi
expect_eq version-vv "$("$EMBER" -vv)" "$out"
expect_eq version-dash-dash "$("$EMBER" --version --build-options)" "$out"
# ember cannot build without these: its code includes their headers
for f in dwarf libelf libtraceevent zstd; do
	expect_eq "version-build-$f" "$(awk -v f="$f:" '$1 == f { print $3 }' <<<"$rows")" on
done
# libiberty is optional: on exactly when the build found it (Makefile)
want=OFF
[ -f /usr/include/libiberty/demangle.h ] && want=on
expect_eq version-build-libiberty "$(awk '$1 == "libiberty:" { print $3 }' <<<"$rows")" "$want"
# the unwinder is libdwfl's (lib/unwind), built with the dwarf row
expect_eq version-build-unwind "$(awk '$1 == "libdw-dwarf-unwind:" { print $3 }' <<<"$rows")" on
# the rows perf has too read as perf's, character for character, where both have the feature
if have_perf; then
	bad=
	while IFS= read -r line; do
		name=$(awk '{ print $1 }' <<<"$line")
		theirs=$("$PERF" version --build-options 2>/dev/null | grep -F -- " $name [ on  ]" | head -1)
		[ -n "$theirs" ] && grep -q '\[ on  \]' <<<"$line" &&
			[ "${theirs%%#*}" != "${line%%#*}" ] && bad+="$line | $theirs; "
	done <<<"$rows"
	if [ -z "$bad" ]; then pass version-build-like-perf; else fail version-build-like-perf "$bad"; fi
else
	skip version-build-like-perf "perf is not installed"
fi

for c in list stat record report script collapse flamegraph heatmap; do
	a=$("$EMBER" help $c 2>&1); ra=$?
	b=$("$EMBER" $c --help 2>&1); rb=$?
	if [ $ra = 0 ] && [ $rb = 0 ] && [ "$a" = "$b" ] && grep -q "Usage: ember $c" <<<"$b"; then
		pass "help-$c"
	else
		fail "help-$c" "rc=$ra/$rb"
	fi
	[ -f "$TOP/doc/ember-$c.1" ] && pass "man-page-$c" || fail "man-page-$c" "doc/ember-$c.1 missing"
done

err=$("$EMBER" nosuchcmd 2>&1); rc=$?
if [ $rc = 2 ] && [ "$(wc -l <<<"$err")" = 1 ] && grep -q nosuchcmd <<<"$err"; then
	pass unknown-command
else
	fail unknown-command "rc=$rc: $err"
fi

err=$("$EMBER" stat --no-such-option true 2>&1); rc=$?
if [ $rc = 2 ] && [ "$(wc -l <<<"$err")" = 1 ] && grep -q no-such-option <<<"$err"; then
	pass unknown-option
else
	fail unknown-option "rc=$rc: $err"
fi

# make install honours PREFIX and DESTDIR.
dest="$TMP/dest"
if make -s -C "$TOP" BUILD="$BUILD" install PREFIX=/opt/em DESTDIR="$dest" >/dev/null 2>&1 &&
   [ -x "$dest/opt/em/bin/ember" ] && [ -f "$dest/opt/em/lib/libember.so.0" ] &&
   [ -f "$dest/opt/em/include/ember/event.h" ] && [ -f "$dest/opt/em/share/man/man1/ember-stat.1" ]; then
	pass install-destdir
else
	fail install-destdir
fi

# The shared library exports only ember_* and hides internals.
bad=$(nm -D --defined-only "$BUILD/libember.so.0" | awk '$2 ~ /[TDBR]/ {print $3}' | grep -v '^ember_' | grep -v '^LIBEMBER' || true)
if [ -z "$bad" ] && nm -D --defined-only "$BUILD/libember.so.0" | grep -q ' ember_evlist__new'; then
	pass libember-exports
else
	fail libember-exports "non-ember exports: $bad"
fi
# An SDK user: a program built against the installed headers and library only.
cat >"$TMP/sdk.c" <<'C'
#include <stdio.h>
#include <ember/ember.h>
int main(void)
{
	struct ember_evlist *evlist = ember_evlist__new();
	int err = ember_evlist__parse_events(evlist, "task-clock", NULL);
	printf("%s %d %d\n", ember_version(), err, ember_evlist__nr_entries(evlist));
	ember_evlist__delete(evlist);
	return 0;
}
C
if cc -I"$dest/opt/em/include" -o "$TMP/sdk" "$TMP/sdk.c" -L"$dest/opt/em/lib" -lember 2>"$TMP/cc.err" &&
   out=$(LD_LIBRARY_PATH="$dest/opt/em/lib" "$TMP/sdk") && grep -q ' 0 1$' <<<"$out"; then
	pass sdk-links-shared
else
	fail sdk-links-shared "$(head -3 "$TMP/cc.err") $out"
fi
