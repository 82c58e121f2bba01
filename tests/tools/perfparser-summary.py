#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Summarise what hotspot-perfparser made of a perf.data file.

perfparser writes "QPERFSTREAM\\0", a little-endian qint32 (its QDataStream
version), then one message per event: a little-endian quint32 size and a
QDataStream buffer (big-endian) whose first byte is the event type (the
EventType enum of perfparser's perfunwind.h, ThreadStart = 0 ...). We count
the messages by type, decode the FeaturesDefinition strings (hostname, os
release, perf version, arch: QByteArrays, a big-endian quint32 length then
the bytes) and each Sample's frame count. Prints one "key value" per line:

    stream ok | stream bad: WHY
    type NAME COUNT           (one per type seen, sorted by name)
    samples N
    samples-without-frames N
    version STRING            (the perf version perfparser read, or "-")
"""
import struct
import sys

TYPES = [
    "ThreadStart", "ThreadEnd", "Command", "LocationDefinition", "SymbolDefinition",
    "StringDefinition", "LostDefinition", "FeaturesDefinition", "Error", "Progress",
    "TracePointFormat", "AttributesDefinition", "ContextSwitchDefinition", "Sample",
    "TracePointSample",
]
MAGIC = b"QPERFSTREAM\0"


def qbytearray(buf, pos):
    (n,) = struct.unpack_from(">I", buf, pos)
    pos += 4
    if n == 0xFFFFFFFF:
        return None, pos
    if pos + n > len(buf):
        raise ValueError("byte array past the message")
    return buf[pos:pos + n], pos + n


def sample_frames(msg):
    # type u8, pid u32, tid u32, time u64, cpu u32, frames: QVector<qint32>
    (n,) = struct.unpack_from(">I", msg, 1 + 4 + 4 + 8 + 4)
    return n


def summarise(data):
    out, counts = [], {}
    samples = no_frames = 0
    version = "-"
    if not data.startswith(MAGIC) or len(data) < len(MAGIC) + 4:
        return ["stream bad: no QPERFSTREAM header"]
    pos = len(MAGIC) + 4
    status = "stream ok"
    while pos < len(data):
        if pos + 4 > len(data):
            status = "stream bad: cut inside a size"
            break
        (size,) = struct.unpack_from("<I", data, pos)
        pos += 4
        msg = data[pos:pos + size]
        pos += size
        if len(msg) != size or not size:
            status = "stream bad: cut inside a message"
            break
        kind = TYPES[msg[0]] if msg[0] < len(TYPES) else "type%d" % msg[0]
        counts[kind] = counts.get(kind, 0) + 1
        try:
            if kind == "FeaturesDefinition":
                p = 1
                for field in ("hostname", "osrelease", "version"):
                    value, p = qbytearray(msg, p)
                    if field == "version":
                        version = value.decode("latin-1") if value is not None else "-"
            elif kind == "Sample":
                samples += 1
                no_frames += sample_frames(msg) == 0
        except (struct.error, ValueError) as e:
            status = "stream bad: %s message: %s" % (kind, e)
            break
    out.append(status)
    out += ["type %s %d" % (k, counts[k]) for k in sorted(counts)]
    out += ["samples %d" % samples, "samples-without-frames %d" % no_frames,
            "version %s" % version]
    return out


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: perfparser-summary.py OUTPUT-OF-PERFPARSER\n")
        return 2
    with open(sys.argv[1], "rb") as f:
        print("\n".join(summarise(f.read())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
