#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Hostile perf.data files made of a real recording: each copy changes one
size or count the file claims to a huge value (a feature section's nr, a
string's length, attr_size, an attr's ids, a record's nr, the bytes that
follow an AUXTRACE or TRACING_DATA record), so that a reader trusting the
claim allocates gigabytes. A reader must refuse or skip what is broken,
in bounded memory.

    make-hostile.py IN OUTDIR          IN: file mode, recorded with -g
    make-hostile.py --pipe IN OUTDIR   IN: pipe mode

Writes OUTDIR/NAME.data for every case and prints the names, one a line.
"""
import struct
import sys

HUGE32 = 0xffffffff
HUGE64 = 1 << 62

# feature bit -> (offset of the claim in its section, bytes of it)
FEAT_CLAIMS = {
    2: ("build-id", 6, 2),          # the first entry's record size
    3: ("hostname", 0, 4),          # a string's length
    4: ("osrelease", 0, 4),
    5: ("version", 0, 4),
    6: ("arch", 0, 4),
    7: ("nrcpus", 0, 4),            # cpus available: the topology's per-cpu ids
    8: ("cpudesc", 0, 4),
    9: ("cpuid", 0, 4),
    11: ("cmdline", 0, 4),
    12: ("event-desc", 0, 4),
    13: ("cpu-topology", 0, 4),
    14: ("numa", 0, 4),
    16: ("pmu-mappings", 0, 4),
    17: ("group-desc", 0, 4),
    20: ("cache", 4, 4),
    22: ("mem-topology", 16, 8),
    27: ("compressed", 16, 4),      # mmap_len
    28: ("cpu-pmu-caps", 0, 4),
    30: ("hybrid", 0, 4),
    31: ("pmu-caps", 0, 4),
}

PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME = 1 << 0, 1 << 1, 1 << 2
PERF_SAMPLE_ADDR, PERF_SAMPLE_READ, PERF_SAMPLE_CALLCHAIN = 1 << 3, 1 << 4, 1 << 5
PERF_SAMPLE_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_PERIOD = 1 << 6, 1 << 7, 1 << 8
PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_IDENTIFIER = 1 << 9, 1 << 16


def rec(rtype, body, misc=0):
    return struct.pack("<IHH", rtype, misc, 8 + len(body)) + body


# records appended to the data: each claims far more entries than it holds
HOSTILE_RECORDS = {
    "rec-id-index": rec(69, struct.pack("<Q", HUGE64) + struct.pack("<4Q", 1, 0, 0, 0)),
    "rec-thread-map": rec(73, struct.pack("<Q", HUGE64) + struct.pack("<Q16s", 1, b"x")),
    "rec-cpu-map": rec(74, struct.pack("<HH", 0, 0xffff) + struct.pack("<2H", 0, 1)),
    "rec-cpu-map-range": rec(74, struct.pack("<HBBHH", 2, 0, 0, 0, 0xffff)),
    "rec-stat-config": rec(75, struct.pack("<Q", HUGE64) + struct.pack("<2Q", 0, 1)),
    "rec-event-update": rec(78, struct.pack("<QQ", 2, 1) + b"x" * 4000),
    "rec-feature-cmdline": rec(80, struct.pack("<QI", 11, HUGE32) + b"\0" * 4),
    "rec-auxtrace": rec(71, struct.pack("<QQQIIII", HUGE64, 0, 0, 0, 0, 0, 0)),
    "rec-tracing-data": rec(66, struct.pack("<II", HUGE32, 0)),
}


def records(data):
    pos = 0
    while pos + 8 <= len(data):
        rtype, misc, size = struct.unpack_from("<IHH", data, pos)
        if size < 8:
            return
        yield pos, rtype, size
        pos += size


def callchain_offset(sample_type):
    """Bytes from a SAMPLE's start to its callchain nr, or None."""
    if not sample_type & PERF_SAMPLE_CALLCHAIN or sample_type & PERF_SAMPLE_READ:
        return None
    off = 8
    for bit in (PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME,
                PERF_SAMPLE_ADDR, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
                PERF_SAMPLE_PERIOD):
        if sample_type & bit:
            off += 8
    return off


class PerfFile:
    def __init__(self, raw):
        self.raw = bytearray(raw)
        (self.attr_size, self.attrs_off, self.attrs_size, self.data_off,
         self.data_size) = struct.unpack_from("<QQQQQ", raw, 16)
        feats = struct.unpack_from("<4Q", raw, 72)
        self.feat_bits = [b for b in range(256) if feats[b // 64] >> (b % 64) & 1]
        self.index_off = self.data_off + self.data_size

    def section(self, bit):
        k = self.feat_bits.index(bit)
        return struct.unpack_from("<QQ", self.raw, self.index_off + 16 * k)

    def with_data(self, new_data):
        """The file with its data section replaced; the features move with it."""
        delta = len(new_data) - self.data_size
        head = bytearray(self.raw[:self.data_off])
        struct.pack_into("<Q", head, 48, len(new_data))
        index = bytearray(self.raw[self.index_off:self.index_off + 16 * len(self.feat_bits)])
        for k in range(len(self.feat_bits)):
            off, size = struct.unpack_from("<QQ", index, 16 * k)
            struct.pack_into("<Q", index, 16 * k, off + delta)
        rest = self.raw[self.index_off + 16 * len(self.feat_bits):]
        return bytes(head) + new_data + bytes(index) + bytes(rest)

    def data(self):
        return bytes(self.raw[self.data_off:self.data_off + self.data_size])


def file_cases(raw):
    f = PerfFile(raw)
    out = {}
    for bit, (name, off, nbytes) in FEAT_CLAIMS.items():
        if bit not in f.feat_bits:
            continue
        sec_off, sec_size = f.section(bit)
        if off + nbytes > sec_size:
            continue
        b = bytearray(f.raw)
        b[sec_off + off:sec_off + off + nbytes] = b"\xff" * nbytes
        out["feat-" + name] = bytes(b)
    if 12 in f.feat_bits:    # the first event's nr of ids
        sec_off, _ = f.section(12)
        sz = struct.unpack_from("<I", f.raw, sec_off + 4)[0]
        b = bytearray(f.raw)
        struct.pack_into("<I", b, sec_off + 8 + sz, HUGE32)
        out["feat-event-desc-ids"] = bytes(b)
    if f.feat_bits:          # a section beyond the end of the file
        b = bytearray(f.raw)
        struct.pack_into("<QQ", b, f.index_off, 4096, HUGE64)
        out["feat-section-size"] = bytes(b)

    b = bytearray(f.raw)
    struct.pack_into("<Q", b, 16, HUGE64)
    out["attr-size"] = bytes(b)
    b = bytearray(f.raw)
    struct.pack_into("<Q", b, f.attrs_off + f.attr_size - 8, HUGE64)
    out["attr-ids-size"] = bytes(b)
    # many attrs sharing one big ids section: each would copy all of it
    out["attr-ids-shared"] = more_attrs(f, 20000, shared=True)
    # many attrs of one id each: honest in size, a test of the time per attr
    out["attr-many"] = more_attrs(f, 100000, shared=False)

    data = f.data()
    st = struct.unpack_from("<Q", f.raw, f.attrs_off + 24)[0]
    cc = callchain_offset(st)
    if cc is not None:
        for pos, rtype, size in records(data):
            if rtype == 9 and pos + cc + 8 <= len(data):
                d = bytearray(data)
                struct.pack_into("<Q", d, pos + cc, HUGE64)
                out["rec-callchain"] = f.with_data(bytes(d))
                break
    for name, r in HOSTILE_RECORDS.items():
        out[name] = f.with_data(data + r)
    return out


def more_attrs(f, nr, shared):
    """The file with a new attrs section of nr copies of the first attr at its end."""
    attr = bytes(f.raw[f.attrs_off:f.attrs_off + f.attr_size - 16])
    end = len(f.raw)
    ids = b""
    entries = bytearray()
    if shared:
        for _ in range(nr):
            entries += attr + struct.pack("<QQ", f.data_off, f.data_size)
    else:
        ids_off = end + nr * f.attr_size
        for i in range(nr):
            entries += attr + struct.pack("<QQ", ids_off + 8 * i, 8)
        ids = b"".join(struct.pack("<Q", 1 << 40 | i) for i in range(nr))
    b = bytearray(f.raw)
    struct.pack_into("<QQ", b, 24, end, len(entries))
    return bytes(b) + bytes(entries) + ids


def pipe_cases(raw):
    head, body = raw[:16], raw[16:]
    out = {}
    for name in ("rec-tracing-data", "rec-auxtrace", "rec-feature-cmdline", "rec-id-index"):
        out["pipe-" + name] = head + body + HOSTILE_RECORDS[name]
    # a header record first that claims 4 GB of tracing data, and sends 64 KB
    out["pipe-tracing-first"] = head + HOSTILE_RECORDS["rec-tracing-data"] + b"\0" * 65536
    return out


def main():
    args = sys.argv[1:]
    pipe = args[0] == "--pipe"
    if pipe:
        args = args[1:]
    src, outdir = args
    raw = open(src, "rb").read()
    cases = pipe_cases(raw) if pipe else file_cases(raw)
    for name, content in cases.items():
        open("%s/%s.data" % (outdir, name), "wb").write(content)
        print(name)


if __name__ == "__main__":
    main()
