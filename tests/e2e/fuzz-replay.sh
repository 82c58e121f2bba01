#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Every saved fuzz input through its target, without libFuzzer: the corpora
# (fuzz/corpus/NAME) and the crashes found and fixed (fuzz/crashes/NAME), as
# regression tests. With `make check SANITIZE=1` the replays run under ASan
# and UBSan, so a read out of bounds fails even where it would not crash.
. "$(dirname "$0")/../lib/e2e.sh"

cd "$TOP" || exit 1
for src in fuzz/fuzz-*.c; do
	name=$(basename "$src" .c)
	name=${name#fuzz-}
	bin=$BUILD/fuzz-replay/$name
	if [ ! -x "$bin" ]; then
		fail "$name" "no $bin: make $bin"
		continue
	fi
	dirs=()
	for d in "fuzz/corpus/$name" "fuzz/crashes/$name"; do
		[ -d "$d" ] && dirs+=("$d")
	done
	if [ ${#dirs[@]} = 0 ]; then
		skip "$name" "no saved inputs"
		continue
	fi
	if out=$(timeout 600 "$bin" "${dirs[@]}" 2>&1); then
		pass "$name"
		echo "     $out"
		continue
	fi
	# name the input that fails
	culprit=""
	for f in $(find "${dirs[@]}" -type f | sort); do
		if ! timeout 60 "$bin" "$f" >/dev/null 2>&1; then
			culprit=$f
			break
		fi
	done
	fail "$name" "${culprit:-some input} fails: $(grep -m3 -E 'ERROR|SUMMARY|runtime error' <<<"$out")"
done
