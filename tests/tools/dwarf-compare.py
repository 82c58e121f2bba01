#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compare ember's output on a --call-graph dwarf file with perf's.

perf unwinds the user stack copies; ember, until it unwinds, shows the
kernel part of each chain and the sampled user ip (what perf shows when its
unwinder finds no more). So where perf goes further, ember's frames must be
what perf's begin with. perf also names the inline functions at an unwound
address, one "(inlined)" line each, which ember does not: such a frame is
matched by its address alone.

  dwarf-compare.py script PERF-SCRIPT-OUT EMBER-SCRIPT-OUT
      per sample: the kernel frames equal, then ember's one user frame is
      perf's first (same address; same line unless perf's is inlined).
  dwarf-compare.py report PERF-REPORT-OUT EMBER-REPORT-OUT
      `report -g folded,0` outputs: every entry equal, but the entries whose
      chains perf shows inlined frames in (counted apart).

Prints "compared N, inlined M, bad K" and the first bad ones; exits 1 when
any is bad or nothing was compared.
"""
import sys


def script_samples(path):
    samples, cur = [], None
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                if cur is not None:
                    samples.append(cur)
                cur = None
            elif not line.startswith("\t"):
                if cur is not None:
                    samples.append(cur)
                cur = (line, [])
            elif cur is not None:
                cur[1].append(line.strip())
    if cur is not None:
        samples.append(cur)
    return samples


def is_kernel(frame):
    return frame.endswith("([kernel.kallsyms])")


def address(frame):
    return frame.split(" ", 1)[0]


def compare_script(perf, ember):
    p, e = script_samples(perf), script_samples(ember)
    bad, inlined = [], 0
    if len(p) != len(e):
        return 0, 0, ["%d samples from perf, %d from ember" % (len(p), len(e))]
    for (ph, pf), (eh, ef) in zip(p, e):
        if ph != eh:
            bad.append("sample header: %r / %r" % (ph, eh))
            continue
        pk = [f for f in pf if is_kernel(f)]
        ek = [f for f in ef if is_kernel(f)]
        pu = pf[len(pk):]
        eu = ef[len(ek):]
        why = None
        if pf[:len(pk)] != pk or ef[:len(ek)] != ek:
            why = "kernel frames after user ones"
        elif ek != pk:
            why = "kernel frames differ"
        elif len(eu) != (1 if pu else 0):
            why = "%d user frames from ember, %d from perf" % (len(eu), len(pu))
        elif pu and address(eu[0]) != address(pu[0]):
            why = "user ip %s, perf's %s" % (address(eu[0]), address(pu[0]))
        elif pu and pu[0].endswith("(inlined)"):
            inlined += 1
        elif pu and eu[0] != pu[0]:
            why = "user frame %r, perf's %r" % (eu[0], pu[0])
        if why:
            bad.append("%s: %s\n       perf:  %s\n       ember: %s" % (ph.strip(), why, pf, ef))
    return len(p) - inlined, inlined, bad


def report_entries(path):
    entries, cur = [], None
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            if line.startswith(" "):
                cur = [line, []]
                entries.append(cur)
            elif cur is not None:
                cur[1].append(line)
    return entries


def compare_report(perf, ember):
    p, e = report_entries(perf), report_entries(ember)
    bad, inlined = [], 0
    if [x[0] for x in p] != [x[0] for x in e]:
        return 0, 0, ["the entries differ:\n       perf:  %s\n       ember: %s" %
                      ([x[0] for x in p][:8], [x[0] for x in e][:8])]
    for (ph, pc), (eh, ec) in zip(p, e):
        if any("(inlined)" in c for c in pc):
            inlined += 1
        elif pc != ec:
            bad.append("%s\n       perf:  %s\n       ember: %s" % (ph.strip(), pc, ec))
    return len(p) - inlined, inlined, bad


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("script", "report"):
        sys.stderr.write(__doc__)
        return 2
    compare = compare_script if sys.argv[1] == "script" else compare_report
    n, inlined, bad = compare(sys.argv[2], sys.argv[3])
    print("compared %d, inlined %d, bad %d" % (n, inlined, len(bad)))
    for b in bad[:5]:
        print("     " + b)
    return 1 if bad or not n else 0


if __name__ == "__main__":
    sys.exit(main())
