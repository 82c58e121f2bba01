#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""
Derives the broken perf.data corpus from two real files perf 6.1 recorded
here (src/file.data: file mode, src/pipe.data: pipe mode; both
`perf record -e cpu-clock -c 1000000 -g -- hotloop 60`, 19 samples).

    tests/broken/make-broken.py        (re)writes tests/broken/*.data and EXPECT

Each output is one fault: a cut at or between boundaries (header, ids,
attrs, data, each kind of record, feature table, feature sections), a size
or offset field set to 0, 1, huge or past the end, a record of size 0 or
smaller than its header, a sample_type that does not match the samples, a
bogus feature section, overlapping sections, sizes that would loop, flipped
bytes. The output is deterministic (fixed seed), so the corpus is stable;
it is committed together with this script.

EXPECT has one line per file: NAME CLASS WHAT, where CLASS is
    none  nothing usable is left: the tools must fail (exit 1, one message)
    part  some samples are intact: they must be shown
    any   either is right; only crashes, hangs and silent failures are wrong
"""
import os
import random
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
HUGE64 = 0x7FFFFFFFFFFFFFFF
ALL64 = 0xFFFFFFFFFFFFFFFF

PERF_RECORD_MMAP, PERF_RECORD_COMM, PERF_RECORD_SAMPLE, PERF_RECORD_MMAP2 = 1, 3, 9, 10
HEADER_ATTR, HEADER_FEATURE, HEADER_TRACING_DATA = 64, 80, 66
FINISHED_ROUND, ID_INDEX, EVENT_UPDATE, FINISHED_INIT = 68, 69, 78, 82

out = []        # (name, class, what)


def emit(name, cls, what, data):
    path = os.path.join(HERE, name + '.data')
    with open(path, 'wb') as f:
        f.write(bytes(data))
    out.append((name, cls, what))


def put(b, off, fmt, *v):
    b = bytearray(b)
    struct.pack_into(fmt, b, off, *v)
    return b


def get(b, off, fmt):
    return struct.unpack_from(fmt, b, off)[0]


# ---- file mode -------------------------------------------------------------

class FileLayout:
    def __init__(self, b):
        self.b = b
        (self.hsize, self.attr_size, self.attrs_off, self.attrs_size, self.data_off,
         self.data_size) = struct.unpack_from('<6Q', b, 8)
        self.feat_bits = [i for i in range(256) if b[72 + i // 8] >> (i % 8) & 1]
        self.data_end = self.data_off + self.data_size
        self.records = []           # (offset, type, size)
        off = self.data_off
        while off < self.data_end:
            typ, misc, size = struct.unpack_from('<IHH', b, off)
            self.records.append((off, typ, size))
            off += size
        self.sections = {}          # feature -> (offset, size, table entry offset)
        for k, feat in enumerate(self.feat_bits):
            ent = self.data_end + 16 * k
            self.sections[feat] = struct.unpack_from('<QQ', b, ent) + (ent,)
        # the first attr entry: the attr, then its ids section
        self.attr0 = self.attrs_off
        self.ids_off, self.ids_size = struct.unpack_from(
            '<QQ', b, self.attrs_off + self.attr_size - 16)

    def first(self, typ):
        return next(r for r in self.records if r[1] == typ)

    def samples_before(self, off):
        return sum(1 for r in self.records if r[1] == PERF_RECORD_SAMPLE and r[0] + r[2] <= off)


def with_feature(L, feat, content):
    """The file with feature `feat` (added or replaced) holding `content`, at the end."""
    b = bytearray(L.b)
    feats = sorted(set(L.feat_bits) | {feat})
    table = L.data_end
    body_start = len(b)
    sec_off = body_start
    b += content
    entries = []
    for f in feats:
        if f == feat:
            entries.append((sec_off, len(content)))
        else:
            entries.append(L.sections[f][:2])
    b[table:table + 16 * len(L.feat_bits)] = b'\0' * (16 * len(L.feat_bits))
    # the table grows by one entry if the feature is new: it overwrites the start
    # of the first section, which is then moved to the end too
    if feat not in L.sections:
        first = min(L.sections.values())
        moved = bytes(L.b[first[0]:first[0] + first[1]])
        new_off = len(b)
        b += moved
        entries = [(new_off, len(moved)) if e == first[:2] else e for e in entries]
    for k, e in enumerate(entries):
        struct.pack_into('<QQ', b, table + 16 * k, *e)
    bits = bytearray(32)
    for f in feats:
        bits[f // 8] |= 1 << (f % 8)
    b[72:104] = bits
    return b


def pstr(s, pad=64):
    """A perf_header_string: u32 length (NUL included, padded), the bytes."""
    s = s.encode() + b'\0'
    n = (len(s) + pad - 1) // pad * pad
    return struct.pack('<I', n) + s + b'\0' * (n - len(s))


def file_mode(b):
    L = FileLayout(b)
    size = len(b)
    samp = L.first(PERF_RECORD_SAMPLE)
    nsamp = L.samples_before(L.data_end)
    part_if = lambda off: 'part' if L.samples_before(off) else 'none'

    # -- cuts at and between boundaries
    cuts = [
        (0, 'empty file'), (4, 'half the magic'), (8, 'the magic only'),
        (40, 'inside the header (attrs section)'), (72, 'header without its feature bitmap'),
        (103, 'one byte short of the header'), (104, 'the header only'),
        (L.ids_off + 4, 'inside the ids section'), (L.attrs_off, 'at the attrs section'),
        (L.attrs_off + 60, 'inside the attr'),
        (L.attrs_off + L.attrs_size - 1, 'one byte short of the attrs section'),
        (L.data_off, 'at the data section: no records'),
        (L.data_off + 4, 'inside the first record header'),
    ]
    seen_types = set()
    for off, typ, rsize in L.records:
        if typ in seen_types:
            continue
        seen_types.add(typ)
        cuts.append((off + rsize // 2, 'inside the first record of type %d' % typ))
        cuts.append((off + rsize, 'after the first record of type %d' % typ))
    mid = L.records[len(L.records) // 2]
    cuts += [
        (mid[0], 'at a record boundary mid-data'),
        (mid[0] + 7, 'inside a record header mid-data'),
        (L.data_end - 1, 'one byte short of the data'),
        (L.data_end, 'at the end of data: no feature table'),
        (L.data_end + 8, 'inside the feature table'),
        (L.data_end + 16 * len(L.feat_bits) - 1, 'one byte short of the feature table'),
    ]
    for feat in (3, 11, 13, 12, 22):
        off, fsize, _ = L.sections[feat]
        cuts.append((off + fsize // 2, 'inside feature section %d' % feat))
    cuts.append((size - 1, 'the last byte missing'))
    done = set()
    for off, what in cuts:
        off = min(off, size)
        if off in done:
            continue
        done.add(off)
        if off < L.data_off + 8:
            cls = 'none'
        else:
            cls = part_if(min(off, L.data_end))
        emit('file-cut-%05d' % off, cls, 'cut at %d: %s' % (off, what), b[:off])

    # -- header fields: 0, 1, huge, past the end
    fields = [(8, 'header size'), (16, 'attr_size'), (24, 'attrs.offset'), (32, 'attrs.size'),
              (40, 'data.offset'), (48, 'data.size'), (56, 'event_types.offset'),
              (64, 'event_types.size')]
    for off, name in fields:
        for val, vname in ((0, '0'), (1, '1'), (HUGE64, 'huge'), (size + 8, 'past-end')):
            cls = 'any'
            if name == 'data.size' and val in (0, HUGE64, size + 8):
                cls = 'part'    # the whole data is still there
            if name in ('header size', 'data.offset') or (name == 'attr_size' and val < 2):
                cls = 'none'
            if name.startswith('event_types'):
                cls = 'part'    # unused by perf 6.1
            if name == 'data.size' and val == 1:
                cls = 'none'
            emit('file-hdr-%s-%s' % (name.replace('.', '-').replace(' ', '-'), vname), cls,
                 '%s set to %s' % (name, vname), put(b, off, '<Q', val))

    # -- overlapping sections
    emit('file-overlap-attrs-in-header', 'none', 'attrs.offset inside the header',
         put(b, 24, '<Q', 64))
    emit('file-overlap-attrs-data', 'none', 'attrs section overlapping the data',
         put(b, 24, '<Q', L.data_off + 16))
    emit('file-overlap-data-in-attrs', 'none', 'data section starting inside the attrs',
         put(b, 40, '<Q', L.attrs_off + 8))
    emit('file-overlap-ids-in-header', 'any', 'the ids section is the header',
         put(b, L.attrs_off + L.attr_size - 16, '<Q', 0))
    emit('file-overlap-ids-huge', 'any', 'ids section size huge',
         put(b, L.attrs_off + L.attr_size - 8, '<Q', HUGE64))
    emit('file-overlap-ids-past-end', 'any', 'ids section past the end',
         put(b, L.attrs_off + L.attr_size - 16, '<Q', size + 100))
    emit('file-overlap-features-in-data', 'part', 'a feature section pointing into the data',
         put(b, L.sections[3][2], '<Q', L.data_off))
    emit('file-overlap-feature-table-in-attrs', 'any',
         'data.size shrunk: the feature table read from inside the data',
         put(b, 48, '<Q', L.data_size // 2))

    # -- the attr: size field, sample_type, read_format, sample_id_all
    a = L.attr0
    for val, vname in ((0, '0'), (1, '1'), (0xFFFFFFFF, 'huge')):
        emit('file-attr-size-%s' % vname, 'any', 'attr.size set to %s' % vname,
             put(b, a + 4, '<I', val))
    st = get(b, a + 24, '<Q')
    for val, vname, what in ((0, 'zero', 'no fields'), (ALL64, 'all', 'every bit'),
                             (st & ~0x2, 'no-tid', 'TID removed'),
                             (st | 0x80, 'plus-read', 'READ added'),
                             (st & ~0x20, 'no-callchain', 'CALLCHAIN removed'),
                             (st | (1 << 10), 'plus-raw', 'RAW added'),
                             (st | (1 << 11) | (1 << 13), 'plus-stack', 'BRANCH_STACK, STACK_USER added')):
        emit('file-sample-type-%s' % vname, 'any', 'sample_type: %s' % what,
             put(b, a + 24, '<Q', val))
    emit('file-read-format-all', 'any', 'READ in sample_type, every read_format bit',
         put(put(b, a + 24, '<Q', st | 0x80), a + 32, '<Q', 0x1F))
    flags = get(b, a + 40, '<Q')
    emit('file-sample-id-all-off', 'part', 'sample_id_all cleared',
         put(b, a + 40, '<Q', flags & ~(1 << 18)))

    # -- records: sizes 0, 4, 7, 8, huge; types
    first = L.records[0]
    for val in (0, 4, 7):
        emit('file-rec-first-size-%d' % val, 'none', 'first record of size %d' % val,
             put(b, first[0] + 6, '<H', val))
    for val in (0, 4):
        emit('file-rec-sample-size-%d' % val, 'none',
             'the first sample of size %d' % val, put(b, samp[0] + 6, '<H', val))
    last_samp = [r for r in L.records if r[1] == PERF_RECORD_SAMPLE][-1]
    emit('file-rec-last-sample-size-0', 'part', 'the last sample of size 0: a loop if followed',
         put(b, last_samp[0] + 6, '<H', 0))
    emit('file-rec-last-sample-size-8', 'part', 'the last sample is just a header',
         put(b, last_samp[0] + 6, '<H', 8))
    emit('file-rec-sample-size-huge', 'any', 'a sample of size 0xffff, past the data',
         put(b, samp[0] + 6, '<H', 0xFFFF))
    emit('file-rec-sample-type-unknown', 'part', 'a sample of record type 0xffff',
         put(b, samp[0], '<I', 0xFFFF))
    emit('file-rec-sample-type-0', 'part', 'a sample of record type 0',
         put(b, samp[0], '<I', 0))
    emit('file-rec-sample-type-attr', 'part', 'a sample turned into a HEADER_ATTR record',
         put(b, last_samp[0], '<I', HEADER_ATTR))
    emit('file-rec-sample-type-tracing', 'part',
         'a sample turned into a TRACING_DATA record claiming 4 GB after it',
         put(put(b, last_samp[0], '<I', HEADER_TRACING_DATA), last_samp[0] + 8, '<I', 0xFFFFFFFF))
    emit('file-rec-sample-type-auxtrace', 'part',
         'a sample turned into an AUXTRACE record claiming 2^63 bytes after it',
         put(put(b, last_samp[0], '<I', 71), last_samp[0] + 8, '<Q', HUGE64))
    emit('file-rec-sample-type-compressed', 'part', 'a sample turned into a COMPRESSED record',
         put(b, last_samp[0], '<I', 81))
    # the callchain nr of the first sample (IP, TID, TIME?, ... then nr): find it from the layout
    cc = samp[0] + 8 + 8 * sum(1 for bit in (0, 1, 2, 3, 6, 7, 8) if st >> bit & 1)
    for val, vname in ((HUGE64, 'huge'), (0x1FFFFFFF, 'large'), (0, 'zero')):
        emit('file-rec-callchain-nr-%s' % vname, 'part' if val == 0 else 'any',
             'callchain nr of the first sample set to %s' % vname, put(b, cc, '<Q', val))
    mm = L.first(PERF_RECORD_MMAP2)
    emit('file-rec-mmap2-short', 'any', 'an MMAP2 record of size 16',
         put(b, mm[0] + 6, '<H', 16))
    emit('file-rec-mmap2-no-nul', 'part', 'an MMAP2 file name without its NUL',
         bytes(b[:mm[0] + mm[2] - 8]) + b'X' * 8 + bytes(b[mm[0] + mm[2]:]))
    cm = L.first(PERF_RECORD_COMM)
    emit('file-rec-comm-short', 'any', 'a COMM record of size 8 (no pid, tid, name)',
         put(b, cm[0] + 6, '<H', 8))
    ix = L.first(ID_INDEX)
    emit('file-rec-id-index-nr-huge', 'part', 'ID_INDEX with nr 2^63',
         put(b, ix[0] + 8, '<Q', HUGE64))
    ev = L.first(EVENT_UPDATE)
    emit('file-rec-event-update-huge-type', 'part', 'EVENT_UPDATE of unknown type',
         put(b, ev[0] + 8, '<Q', ALL64))
    emit('file-rec-misc-cpumode-all', 'part', 'every record misc 0xffff',
         _every_record(b, L, lambda r, o: put(r, o + 4, '<H', 0xFFFF)))
    emit('file-rec-all-size-8', 'none', 'every record of size 8',
         put(b, first[0] + 6, '<H', 8)[:L.data_off] + b'\x09\0\0\0\0\0\x08\0' * (L.data_size // 8)
         + bytes(b[L.data_end:]))

    # -- feature sections: bogus bitmap, table entries, contents
    emit('file-feat-bitmap-all', 'part', 'every feature bit set: the table runs past the end',
         put(b, 72, '<4Q', ALL64, ALL64, ALL64, ALL64))
    emit('file-feat-bitmap-extra', 'part', 'GROUP_DESC bit set with no table entry: every '
         'later section read as the wrong feature', bytes(put(b, 72 + 2, '<B', b[74] | 2)))
    emit('file-feat-bitmap-unknown', 'part', 'feature 200 set: an unknown feature',
         put(b, 72 + 25, '<B', 1))
    for feat, name in ((3, 'hostname'), (12, 'event-desc'), (13, 'cpu-topology')):
        ent = L.sections[feat][2]
        emit('file-feat-%s-offset-0' % name, 'part', '%s section at offset 0' % name,
             put(b, ent, '<Q', 0))
        emit('file-feat-%s-size-huge' % name, 'part', '%s section size huge' % name,
             put(b, ent + 8, '<Q', HUGE64))
        emit('file-feat-%s-past-end' % name, 'part', '%s section past the end' % name,
             put(b, ent, '<Q', size + 64))
    hn = L.sections[3]
    emit('file-feat-hostname-len-huge', 'part', 'hostname string length 4G',
         put(b, hn[0], '<I', 0xFFFFFFFF))
    emit('file-feat-hostname-no-nul', 'part', 'hostname without a NUL in its length',
         bytes(b[:hn[0] + 4]) + b'h' * (hn[1] - 4) + bytes(b[hn[0] + hn[1]:]))
    contents = [
        (11, 'cmdline-nr-huge', struct.pack('<I', 0xFFFFFFFF) + pstr('perf')),
        (11, 'cmdline-len-huge', struct.pack('<II', 1, 0xFFFFFF00) + b'perf'),
        (12, 'event-desc-nr-huge', struct.pack('<II', 0xFFFFFFFF, 128) + b'\0' * 128),
        (12, 'event-desc-attr-size-0', struct.pack('<II', 1, 0) + b'\0' * 64),
        (12, 'event-desc-attr-size-huge', struct.pack('<II', 1, 0xFFFFFFFF) + b'\0' * 64),
        (12, 'event-desc-ids-huge', struct.pack('<II', 1, 64) + b'\0' * 64
         + struct.pack('<I', 0xFFFFFFFF) + pstr('cpu-clock')),
        (13, 'cpu-topology-nr-huge', struct.pack('<I', 0xFFFFFFFF) + pstr('0-1')),
        (14, 'numa-nr-huge', struct.pack('<I', 0xFFFFFFFF) + b'\0' * 20),
        (16, 'pmu-mappings-nr-huge', struct.pack('<I', 0xFFFFFFFF) + struct.pack('<I', 1) + pstr('cpu')),
        (17, 'group-desc-members-huge', struct.pack('<I', 1) + pstr('{anon_group}')
         + struct.pack('<II', 0, 0xFFFFFFFF)),
        (17, 'group-desc-leader-huge', struct.pack('<I', 1) + pstr('g')
         + struct.pack('<II', 0xFFFFFFFF, 3)),
        (20, 'cache-version-2', struct.pack('<II', 2, 1) + b'\0' * 40),
        (20, 'cache-nr-huge', struct.pack('<II', 1, 0xFFFFFFFF) + b'\0' * 40),
        (21, 'sample-time-short', struct.pack('<I', 7)),
        (22, 'mem-topology-bits-huge', struct.pack('<QQQ', 1, 0x8000000, 1)
         + struct.pack('<QQQ', 0, 1, ALL64) + b'\xff' * 8),
        (22, 'mem-topology-nr-huge', struct.pack('<QQQ', 1, 0x8000000, ALL64)),
        (2, 'build-id-record-size-0', struct.pack('<IHH', 0, 0, 0) + b'\0' * 40),
        (2, 'build-id-record-size-huge', struct.pack('<IHH', 0, 0, 0xFFFF) + b'\0' * 40),
        (1, 'tracing-data-garbage', b'\x17\x08\x44tracing0.5\0' + b'\xff' * 64),
        (1, 'tracing-data-empty', b''),
        (27, 'compressed-short', struct.pack('<I', 1)),
        (29, 'clock-data-version-9', struct.pack('<IIQQ', 9, 1, 1, 1)),
        (30, 'hybrid-nr-huge', struct.pack('<I', 0xFFFFFFFF) + pstr('cpu_core')),
        (31, 'pmu-caps-nr-huge', struct.pack('<I', 0xFFFFFFFF) + b'\0' * 16),
        (28, 'cpu-pmu-caps-nr-huge', struct.pack('<I', 0xFFFFFFFF) + pstr('a') + pstr('b')),
    ]
    for feat, name, content in contents:
        emit('file-feat-%s' % name, 'part', 'feature %d: %s' % (feat, name.replace('-', ' ')),
             with_feature(L, feat, content))

    # -- flipped bytes, fixed seed
    rnd = random.Random(5)
    for i in range(12):
        off = rnd.randrange(0, size)
        c = bytearray(b)
        c[off] ^= 1 << rnd.randrange(8)
        region = ('header' if off < 104 else 'attrs' if off < L.data_off else
                  'data' if off < L.data_end else 'features')
        emit('file-flip-%05d' % off, 'any', 'one bit flipped at %d (%s)' % (off, region), c)
    for i in range(4):
        c = bytearray(b)
        for _ in range(40):
            c[rnd.randrange(L.data_off, L.data_end)] = rnd.randrange(256)
        emit('file-flip-many-%d' % i, 'any', '40 random bytes in the data', c)


def _every_record(b, L, fn):
    c = bytearray(b)
    for off, typ, size in L.records:
        c = fn(c, off)
    return c


# ---- pipe mode -------------------------------------------------------------

def pipe_records(b):
    recs, off = [], 16
    while off + 8 <= len(b):
        typ, misc, size = struct.unpack_from('<IHH', b, off)
        extra = get(b, off + 8, '<I') if typ == HEADER_TRACING_DATA else 0
        recs.append((off, typ, size))
        if size < 8:
            break
        off += size + extra
    return recs


def pipe_mode(b):
    recs = pipe_records(b)
    size = len(b)
    samples = [r for r in recs if r[1] == PERF_RECORD_SAMPLE]
    attr = next(r for r in recs if r[1] == HEADER_ATTR)
    feats = [r for r in recs if r[1] == HEADER_FEATURE]
    part_if = lambda off: 'part' if any(r[0] + r[2] <= off for r in samples) else 'none'

    cuts = [(8, 'the magic only'), (15, 'one byte short of the pipe header'),
            (16, 'the pipe header only'), (attr[0] + 20, 'inside the ATTR record'),
            (attr[0] + attr[2], 'after the ATTR record'),
            (feats[0][0] + feats[0][2] // 2, 'inside the first FEATURE record'),
            (feats[-1][0] + feats[-1][2], 'after the last FEATURE record')]
    seen = set()
    for off, typ, rsize in recs:
        if typ in seen or typ in (HEADER_ATTR, HEADER_FEATURE):
            continue
        seen.add(typ)
        cuts.append((off + rsize // 2, 'inside the first record of type %d' % typ))
        cuts.append((off + rsize, 'after the first record of type %d' % typ))
    cuts += [(samples[len(samples) // 2][0] + 5, 'inside a sample header mid-stream'),
             (size - 1, 'the last byte missing')]
    done = set()
    for off, what in cuts:
        if off in done:
            continue
        done.add(off)
        cls = part_if(off)
        # A stream that ends on FINISHED_INIT is also what a whole recording
        # of a quiet target looks like (perf record -o - -p PID of an idle
        # process): no tool can tell it was cut, so either answer is right.
        if cls == 'none' and any(r[0] + r[2] == off and r[1] == FINISHED_INIT for r in recs):
            cls = 'any'
            what += ' (as a whole recording of an idle target ends)'
        emit('pipe-cut-%05d' % off, cls, 'cut at %d: %s' % (off, what), b[:off])

    emit('pipe-hdr-size-0', 'none', 'pipe header size 0', put(b, 8, '<Q', 0))
    emit('pipe-hdr-size-huge', 'none', 'pipe header size huge: read as a file-mode header',
         put(b, 8, '<Q', HUGE64))
    emit('pipe-hdr-size-104', 'none', 'pipe header size 104: read as a file-mode header',
         put(b, 8, '<Q', 104))
    emit('pipe-magic-swapped', 'none', 'the other endianness',
         b'2ELIFREP' + bytes(b[8:]))
    emit('pipe-magic-v1', 'none', 'a version 1 (PERFFILE) magic', b'PERFFILE' + bytes(b[8:]))

    emit('pipe-attr-size-0', 'none', 'the ATTR record of size 0', put(b, attr[0] + 6, '<H', 0))
    emit('pipe-attr-size-12', 'none', 'the ATTR record of size 12 (no attr in it)',
         put(b, attr[0] + 6, '<H', 12))
    emit('pipe-attr-attr-size-huge', 'any', 'attr.size 4G in the ATTR record',
         put(b, attr[0] + 8 + 4, '<I', 0xFFFFFFFF))
    emit('pipe-attr-attr-size-0', 'any', 'attr.size 0 in the ATTR record',
         put(b, attr[0] + 8 + 4, '<I', 0))
    st = get(b, attr[0] + 8 + 24, '<Q')
    emit('pipe-sample-type-all', 'any', 'sample_type every bit',
         put(b, attr[0] + 8 + 24, '<Q', ALL64))
    emit('pipe-sample-type-no-tid', 'any', 'sample_type without TID',
         put(b, attr[0] + 8 + 24, '<Q', st & ~2))
    emit('pipe-no-attr', 'none', 'the ATTR record turned into an unknown type',
         put(b, attr[0], '<I', 0xFFFF))
    f = feats[0]
    emit('pipe-feature-size-0', 'none', 'a FEATURE record of size 0', put(b, f[0] + 6, '<H', 0))
    emit('pipe-feature-size-12', 'any', 'a FEATURE record of size 12 (no feature id)',
         put(b, f[0] + 6, '<H', 12))
    emit('pipe-feature-id-huge', 'part', 'a FEATURE record of feature 2^63',
         put(b, f[0] + 8, '<Q', HUGE64))
    emit('pipe-feature-id-0', 'part', 'a FEATURE record of feature 0',
         put(b, f[0] + 8, '<Q', 0))
    for r in feats:
        fid = get(b, r[0] + 8, '<Q')
        if fid in (3, 11, 12, 13):
            emit('pipe-feature-%d-len-huge' % fid, 'part',
                 'FEATURE %d with a string length or count of 4G' % fid,
                 put(b, r[0] + 16, '<I', 0xFFFFFFFF))
    s0, sl = samples[0], samples[-1]
    emit('pipe-sample-size-0', 'none', 'the first sample of size 0', put(b, s0[0] + 6, '<H', 0))
    emit('pipe-last-sample-size-0', 'part', 'the last sample of size 0',
         put(b, sl[0] + 6, '<H', 0))
    emit('pipe-last-sample-size-4', 'part', 'the last sample of size 4',
         put(b, sl[0] + 6, '<H', 4))
    emit('pipe-sample-size-huge', 'part', 'the last sample of size 0xffff (past the end)',
         put(b, sl[0] + 6, '<H', 0xFFFF))
    emit('pipe-tracing-data-huge', 'part',
         'the last sample turned into TRACING_DATA claiming 4 GB after it',
         put(put(b, sl[0], '<I', HEADER_TRACING_DATA), sl[0] + 8, '<I', 0xFFFFFFFF))
    emit('pipe-tracing-data-garbage', 'part',
         'the last sample turned into TRACING_DATA whose blob is the rest of the stream',
         put(put(b, sl[0], '<I', HEADER_TRACING_DATA), sl[0] + 8, '<I', size - sl[0] - sl[2]))
    emit('pipe-auxtrace-huge', 'part',
         'the last sample turned into AUXTRACE claiming 2^63 bytes after it',
         put(put(b, sl[0], '<I', 71), sl[0] + 8, '<Q', HUGE64))
    emit('pipe-compressed-garbage', 'part', 'the last sample turned into a COMPRESSED record',
         put(b, sl[0], '<I', 81))
    cc = s0[0] + 8 + 8 * sum(1 for bit in (0, 1, 2, 3, 6, 7, 8) if st >> bit & 1)
    emit('pipe-callchain-nr-huge', 'any', 'callchain nr of the first sample 2^63',
         put(b, cc, '<Q', HUGE64))
    rnd = random.Random(7)
    for i in range(6):
        off = rnd.randrange(16, size)
        c = bytearray(b)
        c[off] ^= 1 << rnd.randrange(8)
        emit('pipe-flip-%05d' % off, 'any', 'one bit flipped at %d' % off, c)


def main():
    for name in os.listdir(HERE):
        if name.endswith('.data'):
            os.unlink(os.path.join(HERE, name))
    with open(os.path.join(HERE, 'src', 'file.data'), 'rb') as f:
        file_mode(f.read())
    with open(os.path.join(HERE, 'src', 'pipe.data'), 'rb') as f:
        pipe_mode(f.read())
    names = [n for n, _, _ in out]
    if len(set(names)) != len(names):
        sys.exit('make-broken: duplicate names')
    with open(os.path.join(HERE, 'EXPECT'), 'w') as f:
        f.write('# NAME CLASS WHAT (written by make-broken.py; see there)\n')
        for n, c, w in out:
            f.write('%s %s %s\n' % (n, c, w))
    print('%d files' % len(out))


if __name__ == '__main__':
    main()
