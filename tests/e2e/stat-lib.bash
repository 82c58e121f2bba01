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

# stat_norm: CSV or JSON output with every number replaced by N.
stat_norm() { sed -E 's/[0-9]+(\.[0-9]+)?/N/g; s/[KMG]\/sec/\/sec/g'; }

# stat_same_as_perf NAME ARGS...: ember and perf print the same thing modulo
# numbers: CSV and JSON field by field (stat_norm), the std layout column by
# column through $STAT_STD_SHAPE (default stat_shape; a suite whose options
# add noisy lines names its own filter).
stat_same_as_perf() {
	local name=$1 shape=${STAT_STD_SHAPE:-stat_shape}
	shift
	if ! have_perf; then
		skip "$name" "perf is not installed"
		return
	fi
	case " $* " in *" -x"*|*" -j "*) shape=stat_norm ;; esac
	"$EMBER" stat "$@" 2>"$TMP/e.out" >/dev/null
	"$PERF" stat "$@" 2>"$TMP/p.out" >/dev/null
	if diff <($shape <"$TMP/e.out") <($shape <"$TMP/p.out") >"$TMP/d.txt"; then
		pass "$name"
	else
		fail "$name" "$(head -20 "$TMP/d.txt"; echo; head -12 "$TMP/e.out")"
	fi
}
