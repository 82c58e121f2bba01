#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""perfSys in a page: wait for a cpu's system time to spike, then count its
stacks in the kernel (a BPF program on cpu-clock of that cpu only) and write
them as folded stacks (and a flame graph, when `ember` is on PATH).

    sysmon.py [--sys PCT] [--window S] [-C CPUS] [--capture S] [--max N] [--timeout S] [-o DIR]
"""
import argparse, os, shutil, struct, subprocess, sys, time
sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))  # the tree's
import ember  # noqa: E402

KEY = struct.Struct("=Iii16s")          # examples/stacks.h: pid, user, kernel stack ids, comm


def cpu_times():
    """{cpu: (system, total)} in clock ticks, from /proc/stat"""
    out = {}
    with open("/proc/stat") as f:
        for line in f:
            name, *vals = line.split()
            if name.startswith("cpu") and name != "cpu":
                v = list(map(int, vals))
                out[int(name[3:])] = (v[2], sum(v[:8]))
    return out


def folded(obj, sym):
    for key, value in obj.map_items("counts", KEY.size, 8):
        pid, ustack, kstack, comm = KEY.unpack(key)
        frames = [comm.rstrip(b"\0").decode(errors="replace")]
        for sid, suffix in ((ustack, ""), (kstack, "_[k]")):
            ips = obj.stack("stack_ids", sid) if sid >= 0 else []
            frames += [(sym.resolve(pid, ip)[0] or "[unknown]") + suffix for ip in reversed(ips)]
        yield "%s %d" % (";".join(frames), struct.unpack("=Q", value)[0])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sys", type=float, default=50, help="trigger: system time percent of a cpu")
    ap.add_argument("--window", type=float, default=1.0, help="over this many seconds")
    ap.add_argument("-C", "--cpus", help="watch only these cpus (a list like 0,2)")
    ap.add_argument("--capture", type=float, default=1.0, help="seconds of stacks after it")
    ap.add_argument("--max", type=int, default=1, help="stop after N incidents")
    ap.add_argument("--timeout", type=float, default=0, help="give up after S seconds (0: never)")
    ap.add_argument("--bpf", default=os.path.join(os.path.dirname(__file__), "..", "..", "build",
                                                  "examples", "stacks.bpf.o"))
    ap.add_argument("-o", "--output", default=".")
    a = ap.parse_args()
    watched = {int(c) for c in a.cpus.split(",")} if a.cpus else None
    history, incidents, start, sym = [], 0, time.time(), ember.Symbolizer()
    while incidents < a.max and (not a.timeout or time.time() - start < a.timeout):
        now = cpu_times()
        history = [h for h in history if time.time() - h[0] <= a.window] + [(time.time(), now)]
        old = history[0][1]
        for cpu, (sys_t, total) in now.items():
            busy = total - old.get(cpu, (0, 0))[1]
            pct = 100.0 * (sys_t - old.get(cpu, (0, 0))[0]) / busy if busy else 0
            if len(history) < 3 or pct < a.sys or (watched and cpu not in watched):
                continue
            obj = ember.BpfObject(a.bpf)
            with obj.attach("sample", "cpu-clock/freq=99/", cpus=str(cpu)):
                time.sleep(a.capture)
            path = os.path.join(a.output, "sysmon-%s-cpu%d.folded" % (time.strftime("%H%M%S"), cpu))
            with open(path, "w") as out:
                out.write("".join(line + "\n" for line in folded(obj, sym)))
            obj.close()
            if shutil.which("ember"):
                subprocess.run(["ember", "flamegraph", "-i", path, "-o", path[:-7] + ".svg"])
            print("sysmon: cpu %d sys %.0f%% over %.1f s; wrote %s" % (cpu, pct, a.window, path))
            incidents, history = incidents + 1, []
            break
        time.sleep(0.1)
    return 0 if incidents else 1


if __name__ == "__main__":
    sys.exit(main())
