#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Rebuilds the seed corpora in fuzz/corpus/ from files recorded here (root, perf and a
# built ember needed): small perf.data files in file and pipe mode, compressed, with
# tracepoints, several events, DWARF stacks and registers; the TRACING_DATA blobs of the
# tracepoint files with a real raw sample after them; and the event specs of the tests.
# The committed corpus is the output of this plus what `make fuzz-merge` added.
#   BUILD=build fuzz/make-seeds.sh
set -eu
cd "$(dirname "$0")/.."
TOP=$PWD
BUILD=${BUILD:-build}
E=$PWD/$BUILD/ember
W=$PWD/$BUILD/workloads
C=$PWD/fuzz/corpus
tmp=$(mktemp -d /tmp/ember-seeds.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

rec() { perf record -q "$@" >/dev/null 2>&1; }
rec -e cpu-clock -F 499 -g -o file.data -- "$W/hotloop" 60
perf record -q -e cpu-clock -F 499 -g -o - -- "$W/hotloop" 60 2>/dev/null >pipe.data
rec -z -e cpu-clock -F 499 -g -o zstd.data -- "$W/hotloop" 60
rec -e sched:sched_process_exec,syscalls:sys_enter_write -o tp.data -- "$W/writes" 5
perf record -q -e syscalls:sys_enter_write -o - -- "$W/writes" 5 2>/dev/null >tp-pipe.data
rec -e cpu-clock,task-clock -F 499 -d -T --sample-cpu --switch-events -o multi.data \
	-- "$W/hotloop" 40
rec -e cpu-clock -F 499 --call-graph dwarf,256 -o dwarf.data -- "$W/hotloop" 20
rec -e '{cpu-clock,task-clock}:S' -F 499 -o group.data -- "$W/hotloop" 20
rec -e cpu-clock -F 499 --user-regs=ip,sp -o regs.data -- "$W/hotloop" 20
"$E" record -e cpu-clock -F 499 -g -o ember-file.data -- "$W/hotloop" 60 >/dev/null 2>&1
"$E" record -e cpu-clock -F 499 -g -o - -- "$W/hotloop" 60 2>/dev/null >ember-pipe.data
"$E" record -z -e cpu-clock -F 499 -o ember-zstd.data -- "$W/hotloop" 60 >/dev/null 2>&1

mkdir -p "$C/data-file" "$C/data-pipe" "$C/trace" "$C/event-spec" "$C/session" "$C/collapse" \
	"$C/folded" "$C/heatmap"
for f in file pipe tp ember-file zstd; do
	cp $f.data "$C/session/seed-$f"
done
# text inputs: the first byte of each is the target's option bits
{ printf '\000'; perf script -i file.data 2>/dev/null | head -c 6000; } >"$C/collapse/seed-callchains"
{ printf '\037'; perf script -i tp.data 2>/dev/null | head -c 3000; } >"$C/collapse/seed-tracepoints"
{ printf '\003'; perf script -i multi.data -F comm,pid,tid,period,event,ip,sym,dso 2>/dev/null |
	head -c 4000; } >"$C/collapse/seed-multi"
{ printf '\000'; perf script -i file.data 2>/dev/null | "$E" collapse; } >"$C/folded/seed-plain"
{ printf '\005'; printf 'main;foo_[k];bar_[j] 10\nmain;foo;baz_[i] 3.5\nmain;x 1 2\nmain;y 5 0\n'
	printf ';; 3\nbad line\n'; } >"$C/folded/seed-annotated-diff"
{ printf '\000time latency\n'; for i in $(seq 1 40); do echo "$((i * 1000 + i * 37 % 500)) $((i * 997 % 2000))"; done; } \
	>"$C/heatmap/seed-us"
{ printf '\0451.5 2e3\n1.7 nan\n2.0 -3\n3 inf\n4 5 6\n\n'; } >"$C/heatmap/seed-odd"
for f in file zstd tp multi dwarf group regs ember-file ember-zstd pipe; do
	cp $f.data "$C/data-file/seed-$f"
done
for f in pipe tp-pipe ember-pipe file zstd; do
	cp $f.data "$C/data-pipe/seed-$f"
done
# decompression bombs (tests/tools/make-bomb.py): 2000 RLE blocks a record, 256 MB each
perf record -q -z -e cpu-clock -F 499 -g -o - -- "$W/hotloop" 60 2>/dev/null >zstd-pipe.data
python3 "$TOP/tests/tools/make-bomb.py" zstd.data "$C/data-file/seed-zstd-bomb" 2000
python3 "$TOP/tests/tools/make-bomb.py" zstd.data "$C/data-file/seed-zstd-bomb-first" 2000 first
python3 "$TOP/tests/tools/make-bomb.py" zstd-pipe.data "$C/data-pipe/seed-zstd-bomb" 2000
cp "$C/data-file/seed-zstd-bomb" "$C/session/seed-zstd-bomb"

# TRACING_DATA blob + the RAW part of the first tracepoint sample, from both modes
python3 - "$C/trace" tp.data tp-pipe.data <<'PY'
import struct, sys
out = sys.argv[1]
def records(b, off, end):
    while off + 8 <= end:
        typ, misc, size = struct.unpack_from('<IHH', b, off)
        if size < 8:
            return
        extra = 0
        if typ == 66:
            extra = struct.unpack_from('<I', b, off + 8)[0]
        yield typ, off, size, extra
        off += size + extra
def raw_of(b, off, size, st):
    p = off + 8
    for bit in (1 << 16, 1, 2, 4, 8, 1 << 6, 1 << 9, 1 << 7, 1 << 8):   # id..period
        if st & bit:
            p += 8
    if st & (1 << 5):                                    # CALLCHAIN
        p += 8 + 8 * struct.unpack_from('<Q', b, p)[0]
    n = struct.unpack_from('<I', b, p)[0]
    return b[p + 4:p + 4 + n]
for path in sys.argv[2:]:
    b = open(path, 'rb').read()
    blob = raw = None
    if struct.unpack_from('<Q', b, 8)[0] == 16:           # pipe mode
        st = None
        for typ, off, size, extra in records(b, 16, len(b)):
            if typ == 64 and st is None:
                st = struct.unpack_from('<Q', b, off + 8 + 24)[0]
            elif typ == 66:
                blob = b[off + size:off + size + extra]
            elif typ == 9 and raw is None:
                raw = raw_of(b, off, size, st)
    else:
        attr_off, data_off, data_size = (struct.unpack_from('<Q', b, o)[0] for o in (24, 40, 48))
        st = struct.unpack_from('<Q', b, attr_off + 24)[0]
        for typ, off, size, extra in records(b, data_off, data_off + data_size):
            if typ == 9:
                raw = raw_of(b, off, size, st)
                break
        feats = struct.unpack_from('<Q', b, 72)[0]
        if feats & 2:                                     # TRACING_DATA is the first section
            o, n = struct.unpack_from('<QQ', b, data_off + data_size)
            blob = b[o:o + n]
    name = path.replace('.data', '')
    open(f'{out}/seed-{name}', 'wb').write(blob + (raw or b''))
    open(f'{out}/seed-{name}-blob-only', 'wb').write(blob)
PY

# annotate: small ELF files, with DWARF, fixed-address, stripped (fuzz-annotate.c)
mkdir -p "$C/annotate"
cc -O1 -g -o "$C/annotate/seed-elf-g" "$C/../../tests/workloads/hotloop.c"
cc -O2 -no-pie -o "$C/annotate/seed-elf-nopie" "$C/../../tests/workloads/hotloop.c"
strip -o "$C/annotate/seed-elf-stripped" "$C/annotate/seed-elf-g"

# event specs: the string literals of the parser's unit test, and the -e of the e2e tests
cd "$OLDPWD" 2>/dev/null || cd "$(dirname "$0")/.."
cd "$(dirname "$C")/.."
{
	grep -ohE '"[^" ]{1,80}"' tests/unit/test-parse-events.c | tr -d '"'
	grep -ohE -- "-e '?[^ ']+" tests/e2e/*.sh | sed -E "s/^-e '?//"
} | grep -E '^[a-zA-Z{][^\\%]*$' | sort -u | head -300 | {
	i=0
	while IFS= read -r spec; do
		printf '%s' "$spec" >"$C/event-spec/seed-$(printf '%03d' $i)"
		i=$((i + 1))
	done
}
du -sk "$C"/*
