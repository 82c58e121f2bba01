#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A pathological but honest profile as folded stacks (issue 21): STACKS
distinct stacks of DEPTH frames each drawn at random from a vocabulary of
NAMES function names, one sample each, so that nearly every node of the
merged tree is narrower than a pixel. Seeded: the same arguments give the
same bytes.

usage: make-pathological-folded.py [--stacks N] [--depth N] [--names N]
                                   [--seed N] [--collapse] > out.folded

--collapse writes what `ember collapse` writes for such a profile: a
"comm;" first frame, kernel frames with the "_[k]" suffix at the leaf end.
"""
import argparse
import random
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stacks", type=int, default=200000)
    ap.add_argument("--depth", type=int, default=50)
    ap.add_argument("--names", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--collapse", action="store_true")
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    names = ["fn_%x" % rnd.getrandbits(20) for _ in range(a.names)]
    kernel = [n + "_[k]" for n in names[: max(1, a.names // 10)]]
    out = sys.stdout
    seen = set()
    while len(seen) < a.stacks:
        frames = [rnd.choice(names) for _ in range(a.depth)]
        if a.collapse:
            nk = rnd.randint(0, 5)
            frames = ["worker-%d" % rnd.randint(0, 3)] + frames[: a.depth - 1 - nk] + \
                [rnd.choice(kernel) for _ in range(nk)]
        line = ";".join(frames)
        if line in seen:
            continue
        seen.add(line)
        out.write("%s %d\n" % (line, rnd.randint(1, 3)))


if __name__ == "__main__":
    main()
