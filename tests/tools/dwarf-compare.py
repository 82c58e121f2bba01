#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compare ember's output on a --call-graph dwarf file with perf's.

perf and ember unwind the user stack copies: the kernel part of each chain,
then the user frames callee first, each unwound address as one line per
inline level ("(inlined)" unless the name is the ELF symbol's).

  dwarf-compare.py script PERF-SCRIPT-OUT EMBER-SCRIPT-OUT
      per sample: every line equal, but the frame at -1 that perf's
      libunwind adds after the last one when the copy ends.
  dwarf-compare.py report PERF-REPORT-OUT EMBER-REPORT-OUT
      `report -g folded,0` outputs: every entry and chain equal.
  dwarf-compare.py entries PERF-REPORT-OUT EMBER-REPORT-OUT
      `report --children` outputs: each entry's children and self
      percentages, entries of one name added up first: perf's input tree
      compares an inline function by name and its non-inline neighbours
      by address, an order that is not transitive, so an insertion can
      miss the entry already there and perf prints the function twice
      (ember once, with the sum). Sums agree within 0.01 % per entry added.
  dwarf-compare.py ties PERF-REPORT-OUT EMBER-REPORT-OUT
      `report --children` outputs with callchains: every line equal, but
      the order of entries whose children and self percentages tie, each
      entry compared whole (its line and its chain). perf orders such
      entries by the depth of their chains, callers first, and so does
      ember; on some recordings perf's output tree puts main above
      __libc_start_call_main though every chain holds both, once, the
      caller one frame deeper (seen 1 run in 7 of dwarf-unwind.sh).

Prints "compared N, inlined M, bad K" and the first bad ones; exits 1 when
any is bad or nothing was compared.
"""
import re
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


LIBUNWIND_END = "ffffffffffffffff [unknown] ([unknown])"


def by_address(frames, lines=False):
    """perf's frames, the lines of each address in turn (one address, one frame)."""
    out = []
    for f in frames:
        if out and address(out[-1][0]) == address(f):
            out[-1].append(f)
        else:
            out.append([f])
    return out if lines else [address(ls[0]) for ls in out]


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
        # perf's libunwind (its unwinder when built with both) ends a walk
        # that runs out of the stack copy with a frame at return address 0
        # - 1, which libdw, perf's other unwinder and ember's, does not give
        if len(pu) > 1 and pu[-1] == LIBUNWIND_END and LIBUNWIND_END not in eu:
            pu = pu[:-1]
        why = None
        if pf[:len(pk)] != pk or ef[:len(ek)] != ek:
            why = "kernel frames after user ones"
        elif ek != pk:
            why = "kernel frames differ"
        elif [address(f) for f in eu] != [address(f) for f in pu] and \
                by_address(eu) != by_address(pu):
            why = "user frames %s, perf's %s" % (by_address(eu), by_address(pu))
        else:
            if any(f.endswith("(inlined)") for f in pu):
                inlined += 1
            for es, ps in zip(by_address(eu, lines=True), by_address(pu, lines=True)):
                if es == ps:
                    continue
                why = "user frame %r, perf's %r" % (es, ps)
                break
        if why:
            bad.append("%s: %s\n       perf:  %s\n       ember: %s" % (ph.strip(), why, pf, ef))
    return len(p), inlined, bad


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
        if pc != ec:
            bad.append("%s\n       perf:  %s\n       ember: %s" % (ph.strip(), pc, ec))
    return len(p), inlined, bad


def entry_sums(path):
    """{(comm, dso, symbol): [children %, self %, entries]} of a report's entry lines."""
    sums = {}
    with open(path, errors="replace") as f:
        for line in f:
            parts = line.split()
            if len(parts) < 6 or not parts[0].endswith("%") or not parts[1].endswith("%") \
                    or not parts[4].startswith("["):
                continue
            key = (parts[2], parts[3], " ".join(parts[5:]))
            e = sums.setdefault(key, [0.0, 0.0, 0])
            e[0] += float(parts[0][:-1])
            e[1] += float(parts[1][:-1])
            e[2] += 1
    return sums


def compare_entries(perf, ember):
    p, e = entry_sums(perf), entry_sums(ember)
    bad, split = [], 0
    for key in sorted(set(p) | set(e)):
        if key not in p or key not in e:
            bad.append("%s only in %s" % (key, "perf" if key in p else "ember"))
            continue
        (pc, ps, pn), (ec, es, en) = p[key], e[key]
        if pn > 1:
            split += 1
        tol = 0.01 * max(pn, en) + 1e-9
        if abs(pc - ec) > tol or abs(ps - es) > tol:
            bad.append("%s: perf %.2f%% %.2f%% (%d entries), ember %.2f%% %.2f%% (%d)" %
                       (key, pc, ps, pn, ec, es, en))
    return len(p), split, bad


ENTRY_LINE = re.compile(r"^ +[0-9.]+% +[0-9.]+% ")


def tie_groups(path):
    """The report's lines before the first entry, then its entries (line
    and chain) grouped by their two percentages, each group sorted."""
    head, groups = [], []
    with open(path, errors="replace") as f:
        for line in f:
            if ENTRY_LINE.match(line):
                key = line.split()[:2]
                if not groups or groups[-1][0] != key:
                    groups.append((key, []))
                groups[-1][1].append([line])
            elif groups:
                groups[-1][1][-1].append(line)
            else:
                head.append(line)
    return head, [(k, sorted(e)) for k, e in groups]


def compare_ties(perf, ember):
    (ph, pg), (eh, eg) = tie_groups(perf), tie_groups(ember)
    bad, ties = [], sum(1 for _, e in pg if len(e) > 1)
    if ph != eh:
        bad.append("the lines before the entries differ")
    if [k for k, _ in pg] != [k for k, _ in eg]:
        bad.append("the entries' percentages differ")
    for (k, pe), (_, ee) in zip(pg, eg):
        if pe != ee:
            bad.append("entries at %s differ:\n       perf:  %s\n       ember: %s" %
                       (" ".join(k), [e[0].strip() for e in pe], [e[0].strip() for e in ee]))
    return len(pg), ties, bad


def main():
    kinds = {"script": compare_script, "report": compare_report, "entries": compare_entries,
             "ties": compare_ties}
    if len(sys.argv) != 4 or sys.argv[1] not in kinds:
        sys.stderr.write(__doc__)
        return 2
    compare = kinds[sys.argv[1]]
    n, inlined, bad = compare(sys.argv[2], sys.argv[3])
    what = {"entries": "split", "ties": "tied"}.get(sys.argv[1], "inlined")
    print("compared %d, %s %d, bad %d" % (n, what, inlined, len(bad)))
    for b in bad[:5]:
        print("     " + b)
    return 1 if bad or not n else 0


if __name__ == "__main__":
    sys.exit(main())
