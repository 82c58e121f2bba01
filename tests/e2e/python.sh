#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The Python binding (python/ember, ctypes over libember.so): imported from
# the build tree and from the install tree (build/sdk), counting, sampling
# with symbols, a BPF program on a perf event, and the perfSys-style
# monitor example catching a cpu's system-time spike.
. "$(dirname "$0")/../lib/e2e.sh"
cd "$TMP" || exit 1
if ! command -v python3 >/dev/null; then
	skip all "python3 is not installed"
	exit 0
fi
PY="$TOP/python"
SDKPY="$BUILD/sdk/lib/python3/dist-packages"
# a sanitized libember (make check SANITIZE=1) loads into python only after
# the sanitizers' runtimes; python's own allocations are not ours to check
san=()
if ember_sanitized; then
	san=(LD_PRELOAD="$(cc -print-file-name=libasan.so) $(cc -print-file-name=libubsan.so)"
		ASAN_OPTIONS=detect_leaks=0)
fi
python3() { env "${san[@]}" python3 "$@"; }
# the build tree's library is found beside the package only in the default build/
lib_of_build=
[ "$BUILD" = "$TOP/build" ] || lib_of_build=$BUILD/libember.so.0

for tree in "$PY" "$SDKPY"; do
	name=import-$([ "$tree" = "$PY" ] && echo build || echo install)
	lib=
	[ "$tree" = "$PY" ] && lib=$lib_of_build
	v=$(cd / && EMBER_LIBRARY=$lib PYTHONPATH="$tree" python3 -c 'import ember; print(ember.version())' 2>&1)
	expect_eq "$name" "$v" "$("$EMBER" version | sed -n 's/^ember version //p')"
done
export PYTHONPATH="$PY" EMBER_LIBRARY="$BUILD/libember.so.0"

# counting around Python code: 500 fresh pages
python3 - >count.out 2>&1 <<'PYEOF'
import mmap, ember
with ember.Counter("task-clock,page-faults") as c:
    m = mmap.mmap(-1, 500 * 4096)
    for off in range(0, 500 * 4096, 4096):
        m[off] = 1
print(c.read()["page-faults"])
PYEOF
n=$(tail -1 count.out)
[ "${n:-0}" -ge 500 ] 2>/dev/null && [ "$n" -lt 700 ] && pass counter-page-faults ||
	fail counter-page-faults "$(cat count.out)"
python3 -c 'import ember; ember.Counter("cpu-clok")' >bad.out 2>&1
grep -q "OSError.*cannot parse the event 'cpu-clok'" bad.out && pass counter-bad-event ||
	fail counter-bad-event "$(tail -2 bad.out)"

# sampling a workload: hotloop's hot_a (twice hot_b's work) is the top symbol
"$WL/hotloop" 10000 &
hl=$!
python3 - $hl >sample.out 2>&1 <<'PYEOF'
import collections, sys, time, ember
pid = int(sys.argv[1])
s = ember.Sampler("cpu-clock", freq=499, pid=pid)
s.start(); time.sleep(0.8); s.stop()
sym = ember.Symbolizer()
c = collections.Counter(sym.resolve(x.pid, x.ip)[0] for x in s.samples())
print(" ".join(name or "?" for name, _ in c.most_common(2)))
PYEOF
kill $hl 2>/dev/null
wait $hl 2>/dev/null
expect_eq sampler-top-symbols "$(tail -1 sample.out)" "hot_a hot_b"

if ! is_root; then
	skip bpf "BPF needs root"
	exit 0
fi
# a BPF program on a perf event given as an attr: page faults of a command, per process
python3 - "$BUILD/examples/pagefaults.bpf.o" "$BUILD/examples/count" >pf.out 2>&1 <<'PYEOF'
import struct, subprocess, sys, ember
obj = ember.BpfObject(sys.argv[1])
a = ember.attr(type=ember.PERF_TYPE_SOFTWARE, config=ember.PERF_COUNT_SW_PAGE_FAULTS, sample_period=1)
with obj.attach("count_fault", a):
    p = subprocess.Popen([sys.argv[2], "page-faults", "1000"], stdout=subprocess.DEVNULL)
    p.wait()
faults = {struct.unpack("=I", k)[0]: struct.unpack("=Q", v)[0] for k, v in obj.map_items("faults", 4, 8)}
print(faults.get(p.pid, 0))
PYEOF
n=$(tail -1 pf.out)
[ "${n:-0}" -ge 1000 ] 2>/dev/null && pass bpf-attr-pagefaults || fail bpf-attr-pagefaults "$(tail -3 pf.out)"

# perfSys: a cpu whose system time spikes (dd of single bytes pinned to the last cpu)
cpu=$(($(nproc) - 1))
taskset -c $cpu dd if=/dev/zero of=/dev/null bs=1 count=100000000 2>/dev/null &
dd=$!
PATH="$BUILD:$PATH" timeout 30 env "${san[@]}" python3 "$PY/examples/sysmon.py" --sys 40 -C $cpu --timeout 15 \
	--bpf "$BUILD/examples/stacks.bpf.o" -o "$TMP" >mon.out 2>mon.err
rc=$?
kill $dd 2>/dev/null
wait $dd 2>/dev/null
f=$(ls "$TMP"/sysmon-*-cpu$cpu.folded 2>/dev/null | head -1)
if [ $rc = 0 ] && grep -q "^sysmon: cpu $cpu sys [0-9]*% over 1.0 s; wrote " mon.out &&
	[ -n "$f" ] && grep -q '^dd;.*_\[k\] [0-9]*$' "$f" && [ -s "${f%.folded}.svg" ]; then
	pass sysmon-incident
else
	fail sysmon-incident "rc $rc: $(cat mon.out mon.err | tail -3); $(head -2 "$f" 2>/dev/null)"
fi
