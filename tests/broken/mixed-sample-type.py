#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""
Rewrites a perf.data file of two events recorded with
`perf record -e cpu-clock -e page-faults --sample-cpu` (sample_type
IP|TID|TIME|ID|CPU|PERIOD, sample_id_all) into a valid file whose events
differ in sample_type: both get IDENTIFIER instead of ID, and the second
loses TID and CPU. Its samples and sample_id trailers then lack fields the
first event's carry, which is how `perf report -D` shows absent fields
(cpu 4294967295, pid/tid -1) can be checked.

    tests/broken/mixed-sample-type.py IN OUT
"""
import struct
import sys

IP, TID, TIME, ID, CPU, PERIOD, IDENTIFIER = 1, 2, 4, 64, 128, 256, 1 << 16
HEADER_FIRST = 64
SAMPLE = 9

b = bytearray(open(sys.argv[1], 'rb').read())
(hsize, attr_size, attrs_off, attrs_size, data_off, data_size) = struct.unpack_from('<6Q', b, 8)
nattr = attrs_size // attr_size
if nattr != 2:
    sys.exit('want 2 events, found %d' % nattr)
want = IP | TID | TIME | ID | CPU | PERIOD
ids = []
for i in range(nattr):
    a = attrs_off + i * attr_size
    st = struct.unpack_from('<Q', b, a + 24)[0]
    if st != want:
        sys.exit('event %d: sample_type %#x, want %#x' % (i, st, want))
    ids_off, ids_size = struct.unpack_from('<QQ', b, a + attr_size - 16)
    ids.append(set(struct.unpack_from('<%dQ' % (ids_size // 8), b, ids_off)))
# the attr's own bytes: sample_type at 24
struct.pack_into('<Q', b, attrs_off + 24, IP | TID | TIME | CPU | PERIOD | IDENTIFIER)
struct.pack_into('<Q', b, attrs_off + attr_size + 24, IP | TIME | PERIOD | IDENTIFIER)


def event_of(i):
    return 0 if i in ids[0] else 1 if i in ids[1] else None


out = bytearray()
off, end = data_off, data_off + data_size
while off < end:
    typ, misc, size = struct.unpack_from('<IHH', b, off)
    rec = b[off:off + size]
    body = rec[8:]
    if typ == SAMPLE:
        ip, pidtid, time, i, cpu, period = struct.unpack_from('<6Q', body, 0)
        rest = body[48:]
        if event_of(i) == 0:
            words = [i, ip, pidtid, time, cpu, period]
        else:
            words = [i, ip, time, period]
        body = struct.pack('<%dQ' % len(words), *words) + rest
    elif typ < HEADER_FIRST:
        pidtid, time, i, cpu = struct.unpack_from('<4Q', body, len(body) - 32)
        head = body[:len(body) - 32]
        words = [pidtid, time, cpu, i] if event_of(i) == 0 else [time, i]
        body = head + struct.pack('<%dQ' % len(words), *words)
    out += struct.pack('<IHH', typ, misc, 8 + len(body)) + body
    off += size
delta = data_size - len(out)
# the feature table follows the data; its sections move with it
feat_bits = sum(bin(x).count('1') for x in b[72:104])
table = bytearray(b[end:end + 16 * feat_bits])
for k in range(feat_bits):
    so, ss = struct.unpack_from('<QQ', table, 16 * k)
    struct.pack_into('<QQ', table, 16 * k, so - delta if so >= end else so, ss)
struct.pack_into('<Q', b, 8 + 40, len(out))
res = b[:data_off] + out + table + b[end + 16 * feat_bits:]
open(sys.argv[2], 'wb').write(res)
