#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The kallsyms cache (lib/symbol/kallsyms-cache.c) on a system-wide file
# with kernel stacks: the report made from the cache is the report made
# from /proc/kallsyms; a damaged, truncated, foreign or other user's file
# is not used but rebuilt; another key's file is replaced; a directory
# that cannot be written, or no directory at all, still gives the report;
# --kallsyms FILE goes around the cache. EMBER_KALLSYMS_CACHE_DIR points
# every run at a directory of this test's own.
. "$(dirname "$0")/../lib/e2e.sh"

if ! have_perf; then
	skip setup "perf is not installed"
	exit 0
fi
if ! is_root; then
	skip setup "recording the whole system needs root"
	exit 0
fi
if [ ! -r /proc/sys/kernel/random/boot_id ]; then
	skip setup "no /proc/sys/kernel/random/boot_id: no cache key"
	exit 0
fi
cd "$TMP" || exit 1
C="$TMP/cache"

"$PERF" record -q -a -g -F 999 -o sys.data -- sh -c \
	"$WL/hotloop 300 & ls -R /usr/include >/dev/null; wait" >/dev/null 2>&1
if ! "$PERF" report -i sys.data --stdio --sort dso 2>/dev/null | grep -q 'kernel.kallsyms'; then
	skip setup "no kernel samples in a system-wide recording"
	exit 0
fi

# rep OUT [ARGS...]: ember report of sys.data into OUT, its stderr into OUT.err
rep() {
	local out=$1
	shift
	EMBER_KALLSYMS_CACHE_DIR=$C "$EMBER" report --stdio -i sys.data "$@" >"$out" 2>"$out.err"
}
# the cache file, and its inode (a rewrite is a rename: a new inode)
file() { ls "$C"/*.ksyms 2>/dev/null; }
inode() { stat -c %i "$(file)" 2>/dev/null; }
# same NAME A B: the two reports are the same text
same() {
	if [ -s "$2" ] && cmp -s "$2" "$3"; then
		pass "$1"
	else
		fail "$1" "$(diff "$2" "$3" | head -12; head -3 "$3.err")"
	fi
}

# 1. no cache at all: the reference
EMBER_KALLSYMS_CACHE_DIR= "$EMBER" report --stdio -i sys.data >ref 2>ref.err
EMBER_KALLSYMS_CACHE_DIR= "$EMBER" report --stdio --no-children -i sys.data >ref-self 2>ref-self.err
if grep -q '\[k\] [a-z_]' ref; then
	pass reference-has-kernel-symbols
else
	fail reference-has-kernel-symbols "$(head -20 ref; cat ref.err)"
fi
if [ -e "$C" ]; then
	fail disabled-writes-nothing "$(ls -la "$C")"
else
	pass disabled-writes-nothing
fi

# 2. the first run writes the cache, the second reads it: the same report
rep cold
same cold-same-as-uncached ref cold
if [ "$(ls "$C" | wc -l)" = 1 ] && [ -n "$(file)" ]; then
	pass cold-writes-one-file
else
	fail cold-writes-one-file "$(ls -la "$C" 2>&1)"
fi
expect_eq cache-file-private "$(stat -c %a "$(file)" 2>/dev/null) $(stat -c %a "$C")" "600 700"
ino=$(inode)
rep warm
same warm-same-as-uncached ref warm
rep warm-self --no-children
same warm-no-children-same ref-self warm-self
expect_eq warm-reads-not-rewrites "$(inode)" "$ino"
if [ -s warm.err ]; then
	fail warm-quiet "$(head -3 warm.err)"
else
	pass warm-quiet
fi

# 3. damaged files: not used, rebuilt, and then used again
# damage NAME CMD...: CMD spoils $(file); the next run gives the same report and a new file
damage() {
	local name=$1
	shift
	ino=$(inode)
	"$@"
	rep "$name"
	same "$name-same" ref "$name"
	if [ -n "$(inode)" ] && [ "$(inode)" != "$ino" ]; then
		pass "$name-rebuilt"
	else
		fail "$name-rebuilt" "inode $ino before, $(inode) after"
	fi
	ino=$(inode)
	rep "$name-again"
	same "$name-again-same" ref "$name-again"
	expect_eq "$name-again-used" "$(inode)" "$ino"
}
f=$(file)
size=$(stat -c %s "$f")
flip() { # flip FILE OFFSET: one byte changed in place
	printf "$(printf '\\%03o' $(( $(od -An -tu1 -j "$2" -N1 "$1") ^ 0x41 )))" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
damage flipped-symbol flip "$f" $((size / 3))
damage flipped-name flip "$(file)" $((size - 100))
damage truncated truncate -s $((size / 2)) "$(file)"
damage truncated-header truncate -s 16 "$(file)"
damage empty truncate -s 0 "$(file)"
damage foreign-garbage sh -c "head -c $size /dev/urandom >'$(file)'"
# another key: the boot_id stored in the header (offset 120) no longer matches
damage other-boot flip "$(file)" 125
damage other-version flip "$(file)" 8

# 4. another user's file is not trusted, even when it is whole
if id nobody >/dev/null 2>&1; then
	damage other-owner chown nobody "$(file)"
	expect_eq rebuilt-owner "$(stat -c %U "$(file)")" root
else
	skip other-owner "no user nobody"
fi

# 5. a stale key's file (an earlier boot's) is removed when a new one is written
cp "$(file)" "$C/0123456789abcdef.ksyms"
rm -f "$(ls "$C"/*.ksyms | grep -v 0123456789abcdef)"
rep stale
same stale-same ref stale
if [ -e "$C/0123456789abcdef.ksyms" ] || [ "$(ls "$C" | wc -l)" != 1 ]; then
	fail stale-removed "$(ls -la "$C")"
else
	pass stale-removed
fi

# 6. nowhere to write: the report all the same, and nothing said about it
for case in unwritable:/proc/ember-no-such-dir file-in-the-way:$TMP/ref; do
	name=${case%%:*}
	EMBER_KALLSYMS_CACHE_DIR=${case#*:} "$EMBER" report --stdio -i sys.data >"$name" 2>"$name.err"
	same "$name-same" ref "$name"
	expect_eq "$name-quiet" "$(cat "$name.err")" ""
done
env -u EMBER_KALLSYMS_CACHE_DIR -u XDG_CACHE_HOME -u HOME "$EMBER" report --stdio -i sys.data \
	>nohome 2>nohome.err
same no-home-same ref nohome
# root with a user's HOME (sudo): nothing written into that home
if id nobody >/dev/null 2>&1; then
	mkdir -p userhome && chown nobody userhome
	env -u EMBER_KALLSYMS_CACHE_DIR -u XDG_CACHE_HOME HOME="$TMP/userhome" "$EMBER" report --stdio \
		-i sys.data >userhome.out 2>userhome.err
	same others-home-same ref userhome.out
	expect_eq others-home-untouched "$(ls -A userhome)" ""
fi
mkdir -p ro && chmod 555 ro
if [ -w ro ] && is_root; then
	# root writes anyway; a read-only home is unwritable for its user only
	skip read-only-dir "root can write a 555 directory"
else
	EMBER_KALLSYMS_CACHE_DIR=$TMP/ro/k "$EMBER" report --stdio -i sys.data >ro.out 2>ro.err
	same read-only-dir ref ro.out
fi

# 7. --kallsyms FILE (even /proc/kallsyms) is read as given: no cache used or written
rm -rf "$C"
rep given --kallsyms /proc/kallsyms
same given-kallsyms-same ref given
if [ -e "$C" ]; then
	fail given-kallsyms-no-cache "$(ls -la "$C")"
else
	pass given-kallsyms-no-cache
fi
