#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Valgrind memcheck on the commands that read a perf.data file (report,
# script, flamegraph) on a small recording: no memory errors, no definite
# leaks. Skipped where valgrind is missing, where a command is not built
# yet, and under SANITIZE=1 (valgrind cannot run an ASan binary).
. "$(dirname "$0")/../lib/e2e.sh"

if ! command -v valgrind >/dev/null 2>&1; then
	skip memcheck "valgrind is not installed (apt-get install valgrind)"
	exit 0
fi
if [ ! -x "$EMBER" ]; then
	skip memcheck "no $EMBER: build first"
	exit 0
fi
if ember_sanitized; then
	skip memcheck "$EMBER is built with AddressSanitizer, which valgrind cannot run"
	exit 0
fi
cd "$TMP" || exit 1
if ! "$EMBER" record -q -e cpu-clock -F 499 -g -o small.data -- "$WL/hotloop" 50 \
	>/dev/null 2>&1; then
	skip memcheck "ember record cannot record here"
	exit 0
fi

# vg NAME PROG ARGS...: PROG under memcheck, its report in NAME.vg; the status
# is 99 when it found a memory error or a definite leak.
vg() {
	local name=$1
	shift
	timeout 600 valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite --show-leak-kinds=definite \
		--log-file="$name.vg" "$@" >"$name.out" 2>"$name.err"
}

# The check itself: a program with a definite leak and one reading
# uninitialized memory must both fail it, one that frees all must pass.
cat >bad.c <<'EOF2'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
	char *p = malloc(100);
	int *q = malloc(sizeof(*q) * 4);
	strcpy(p, argv[0]);
	if (argc == 2 && argv[1][0] == 'u' && q[argc] > 3)	/* uninitialized */
		puts("x");
	free(q);
	if (argc == 2 && argv[1][0] == 'l')	/* the last pointer to p is lost */
		return p[0] == 0;
	free(p);
	return 0;
}
EOF2
if ! cc -g -O0 -o bad bad.c; then
	fail self-check "cannot build the test program"
else
	vg clean ./bad c
	rc_clean=$?
	vg leak ./bad l
	rc_leak=$?
	vg uninit ./bad u
	rc_uninit=$?
	expect_eq self-check "clean $rc_clean leak $rc_leak uninit $rc_uninit" "clean 0 leak 99 uninit 99"
fi

# memcheck NAME ARGS...: ember ARGS under memcheck; passes without errors or definite leaks
memcheck() {
	local name=$1 rc
	shift
	vg "$name" "$EMBER" "$@"
	rc=$?
	if [ $rc = 99 ] || grep -q . "$name.vg"; then
		fail "$name" "$(grep -m8 -E '^==[0-9]+== ( [a-zA-Z]|Invalid|Conditional|Use of|[0-9,]+ bytes)' \
			"$name.vg")"
	elif [ $rc = 124 ]; then
		fail "$name" "did not end within 10 minutes under valgrind"
	elif [ $rc != 0 ]; then
		fail "$name" "status $rc: $(head -3 "$name.err")"
	else
		pass "$name"
	fi
}

for cmd in report script flamegraph; do
	if ! "$EMBER" "$cmd" --help >/dev/null 2>&1; then
		skip "$cmd" "ember $cmd is not built yet"
		continue
	fi
	case $cmd in
	report)
		memcheck report-stdio report --stdio -i small.data
		memcheck report-dump report -D -i small.data
		;;
	script) memcheck script script -i small.data ;;
	flamegraph) memcheck flamegraph flamegraph -i small.data -o flame.svg ;;
	esac
done
