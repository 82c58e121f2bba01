#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""
Rewrites the callchains of a one-event `perf record -g` file (file mode)
so that some hold context markers perf 6.1 does not know, as a frame-pointer
walk through a program built without frame pointers produces (a user stack
word of 0xfffffffffffff600 reads as PERF_CONTEXT_GUEST_USER): the last ip of
every 3rd sample with at least three entries becomes, in turn,
PERF_CONTEXT_GUEST_USER, PERF_CONTEXT_GUEST_KERNEL, PERF_CONTEXT_GUEST and
PERF_CONTEXT_MAX + 1. perf discards such a chain whole.

    tests/broken/callchain-markers.py IN OUT
"""
import struct
import sys

IP, TID, TIME, ADDR, READ, CALLCHAIN, ID, CPU, PERIOD, STREAM_ID = \
    1, 2, 4, 8, 16, 32, 64, 128, 256, 512
IDENTIFIER = 1 << 16
SAMPLE = 9
MARKERS = [2**64 - 2560, 2**64 - 2176, 2**64 - 2048, 2**64 - 4095 + 1]

b = bytearray(open(sys.argv[1], 'rb').read())
(hsize, attr_size, attrs_off, attrs_size, data_off, data_size) = struct.unpack_from('<6Q', b, 8)
if attrs_size // attr_size != 1:
    sys.exit('want one event')
st = struct.unpack_from('<Q', b, attrs_off + 24)[0]
if not st & CALLCHAIN or st & READ:
    sys.exit('sample_type %#x: want CALLCHAIN and no READ' % st)
skip = 8 * sum(1 for bit in (IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD)
               if st & bit)

off, end, n, changed = data_off, data_off + data_size, 0, 0
while off < end:
    typ, misc, size = struct.unpack_from('<IHH', b, off)
    if size < 8:
        sys.exit('bad record size at %#x' % off)
    if typ == SAMPLE:
        nr_at = off + 8 + skip
        nr = struct.unpack_from('<Q', b, nr_at)[0]
        if nr >= 3:
            n += 1
            if n % 3 == 0:
                struct.pack_into('<Q', b, nr_at + 8 * nr, MARKERS[changed % len(MARKERS)])
                changed += 1
    off += size
if not changed:
    sys.exit('no sample with a callchain of 3 or more')
open(sys.argv[2], 'wb').write(b)
print('%d callchains changed' % changed)
