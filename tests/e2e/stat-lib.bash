# SPDX-License-Identifier: GPL-2.0-only
# Helpers shared by tests/e2e/stat*.sh (sourced, never run on its own).

# stat_shape: perf stat output → its shape, one line per input line: every
# word that is not a number, with the column it starts at, and the line's
# length. Numbers differ between runs; the columns and words must not.
# "K/sec", "M/sec" and "/sec" are one word (the prefix depends on the rate).
stat_shape() {
	python3 -c '
import re, sys
num = re.compile(r"^[-+]?[0-9][0-9.,]*%?$")
for line in sys.stdin.read().split("\n"):
    line = line.rstrip("\n")
    if line.startswith("# started on"):
        print("# started on"); continue
    words = []
    for m in re.finditer(r"\S+", line):
        w = m.group(0)
        if num.match(w):
            continue
        w = re.sub(r"^[KMG]/sec$", "/sec", w)
        words.append("%d:%s" % (m.start(), w))
    print(len(line), " ".join(words))
'
}

# stat_events_of: the event names of a std-layout output's counter lines, in order.
stat_events_of() {
	grep -E '^ +([0-9][0-9.,]*|<not (supported|counted)>) ' |
		sed -E 's/^ +([0-9][0-9.,]*|<not (supported|counted)>) +(msec +)?//' | awk '{ print $1 }'
}
