#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""
How real perf handles the broken corpus, for doc/FUZZING.md: every file through
`perf report --stdio`, `perf report -D` and `perf script` (10 s each). Prints
the runs that perf ends with a signal (a crash) or does not end (a hang), then
a count.    tests/broken/perf-compare.py [PERF]
"""
import os
import signal
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
perf = sys.argv[1] if len(sys.argv) > 1 else 'perf'
runs = crashes = hangs = 0
files = set()
for line in open(os.path.join(here, 'EXPECT')):
    if line.startswith('#') or not line.strip():
        continue
    name, _, what = line.rstrip('\n').split(' ', 2)
    for cmd in (['report', '--stdio'], ['report', '-D'], ['script']):
        runs += 1
        try:
            p = subprocess.run([perf] + cmd + ['-i', os.path.join(here, name + '.data')],
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=10)
        except subprocess.TimeoutExpired:
            hangs += 1
            files.add(name)
            print('hang     perf %-14s %s (%s)' % (' '.join(cmd), name, what))
            continue
        if p.returncode < 0:
            crashes += 1
            files.add(name)
            print('%-8s perf %-14s %s (%s)' % (signal.Signals(-p.returncode).name, ' '.join(cmd),
                                              name, what))
print('%d runs on %d files: perf crashed %d times and hung %d times, on %d files'
      % (runs, runs // 3, crashes, hangs, len(files)))
