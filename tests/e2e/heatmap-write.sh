#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember heatmap's output path: a write that fails says why with the real
# errno (ENOSPC on a full disk, not EIO), exits 1, leaves no half-written
# file behind, and never removes what it did not create (/dev/full).
. "$(dirname "$0")/../lib/e2e.sh"

if [ ! -x "$EMBER" ]; then
	skip setup "no $EMBER: build first"
	exit 0
fi
cd "$TMP" || exit 1
awk 'BEGIN { for (i = 0; i < 3000; i++) printf "%d.%03d %d\n", i / 100, i % 100, (i * 37) % 900 }' \
	>lat.txt

if [ -c /dev/full ]; then
	for how in file stdout; do
		if [ $how = file ]; then
			"$EMBER" heatmap lat.txt -o /dev/full 2>err
		else
			"$EMBER" heatmap lat.txt >/dev/full 2>err
		fi
		rc=$?
		if [ $rc = 1 ] && [ "$(wc -l <err)" = 1 ] && grep -q "No space left on device" err; then
			pass "dev-full-$how"
		else
			fail "dev-full-$how" "status $rc: $(head -c 200 err)"
		fi
		[ -c /dev/full ] && pass "dev-full-$how-kept" || {
			fail "dev-full-$how-kept" "/dev/full is no longer a character device"
			rm -f /dev/full && mknod -m 666 /dev/full c 1 7
		}
	done
else
	skip dev-full "/dev/full is not a character device here"
fi

# A full disk: a small tmpfs, as the faults suites make one.
if is_root && mkdir -p mnt && mount -t tmpfs -o size=16k tmpfs mnt 2>/dev/null; then
	"$EMBER" heatmap lat.txt -o mnt/map.svg 2>err
	rc=$?
	if [ $rc = 1 ] && grep -q "cannot write mnt/map.svg: No space left on device" err &&
		[ ! -e mnt/map.svg ]; then
		pass full-disk
	else
		fail full-disk "status $rc, $(ls mnt), $(head -c 200 err)"
	fi
	umount mnt
else
	skip full-disk "needs root to mount a small tmpfs"
fi

"$EMBER" heatmap lat.txt -o ok.svg 2>err && [ -s ok.svg ] && ! [ -s err ] && pass writes-when-room ||
	fail writes-when-room "$(head -c 200 err)"
