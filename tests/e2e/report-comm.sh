#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# perf's comm override: a thread sampled before its first COMM is known as
# ":TID" until then, and perf report shows those samples under the comm
# the COMM gives it (perf renames the placeholder in place); perf script,
# printing as it goes, keeps ":TID" for them. The case is made from a
# real recording: its workload's COMM records are moved (the synthesized
# one to another thread, the exec one after half the samples, as a plain
# COMM), as when `perf record -a` catches a thread before its name.
. "$(dirname "$0")/../lib/e2e.sh"
. "$(dirname "$0")/../lib/report-lib.bash"

if ! have_perf; then
	skip setup "perf is not installed"
	exit 0
fi
if ! command -v python3 >/dev/null; then
	skip setup "python3 is needed to rewrite the recording"
	exit 0
fi
cd "$TMP" || exit 1

cat >latecomm.py <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
(hsize, attr_size, attrs_off, attrs_size, data_off, data_size) = struct.unpack_from('<6Q', b, 8)
st = struct.unpack_from('<Q', b, attrs_off + 24)[0]
IP, TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER = 1, 2, 4, 64, 512, 128, 1 << 16
if not st & TIME:
    sys.exit('no time in the samples')
tlen = sum(8 for bit in (TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER) if st & bit)
recs, off = [], data_off
while off < data_off + data_size:
    typ, misc, size = struct.unpack_from('<IHH', b, off)
    recs.append((off, typ, misc, size))
    off += size
samples = [r for r in recs if r[1] == 9]
if len(samples) < 4:
    sys.exit('too few samples')
mid = samples[len(samples) // 2][0]
t_mid = struct.unpack_from('<Q', b, mid + 8 + 8 * bool(st & IDENTIFIER) + 8 * bool(st & IP) +
                           8 * bool(st & TID))[0]
for off, typ, misc, size in recs:
    if typ != 3:
        continue
    trailer = off + size - tlen
    comm = bytes(b[off + 16:trailer]).split(b'\0')[0]
    if not misc & 0x2000:
        struct.pack_into('<II', b, off + 8, 999999, 999999)
    else:
        struct.pack_into('<H', b, off + 4, misc & ~0x2000)
        struct.pack_into('<Q', b, trailer + 8 * bool(st & IDENTIFIER) + 8 * bool(st & TID),
                         t_mid + 1)
open(sys.argv[2], 'wb').write(b)
PY

rec c -F 999 -- "$WL/hotloop" 100 || exit 0
rec cg -g -F 999 -- "$WL/hotloop" 100 || exit 0
for f in c cg; do
	if ! python3 latecomm.py $f.data late-$f.data 2>py.err; then
		skip "rewrite-$f" "cannot rewrite the recording: $(head -c 200 py.err)"
		continue
	fi
	if ! "$PERF" script -i late-$f.data 2>/dev/null | grep -q '^ *:[0-9]'; then
		skip "late-$f" "perf sees no sample before the COMM in the rewritten file"
		continue
	fi
	same "late-$f" -i late-$f.data
	for k in comm pid comm,sym sym,comm dso; do
		same "late-$f-$k" -i late-$f.data --sort "$k" -n
	done
	same "late-$f-filter" -i late-$f.data --comms hotloop
	# perf script keeps the placeholder: it prints each sample as it comes
	"$PERF" script -i late-$f.data -F comm,tid,ip >script-$f.perf 2>/dev/null
	"$EMBER" script -i late-$f.data -F comm,tid,ip >script-$f.ember 2>script-$f.err
	if cmp -s script-$f.perf script-$f.ember; then
		pass "late-$f-script"
	else
		fail "late-$f-script" "$(diff script-$f.perf script-$f.ember | head -6)"
	fi
done
