#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Every ember command as an unprivileged user with
# kernel.perf_event_paranoid=2: it works within what is allowed (its own
# processes, user space, its own and root's files), or says in one line what
# is not allowed and what would allow it — and it never tries to get round
# the limit behind the user's back: under strace, no sudo/su/sysctl or other
# program runs, no mount, set*id or capset call is made, and nothing under
# /proc/sys or /sys is opened for writing. The sysctl's old value is always
# put back. (stat-unpriv.sh checks ember stat's fallback to :u against perf.)
. "$(dirname "$0")/../lib/e2e.sh"

if ! is_root; then
	skip all "needs root to create the user and set perf_event_paranoid"
	exit 0
fi
if [ ! -x "$EMBER" ] || [ ! -x "$WL/hotloop" ]; then
	skip all "no $EMBER or workloads; build first"
	exit 0
fi
if ! command -v strace >/dev/null || ! command -v runuser >/dev/null; then
	skip all "strace and runuser (util-linux) are needed"
	exit 0
fi
user=ember-unpriv
if ! id "$user" >/dev/null 2>&1 && ! useradd -M -r -s /bin/sh "$user" 2>/dev/null; then
	user=nobody
fi
paranoid=/proc/sys/kernel/perf_event_paranoid
old=$(cat "$paranoid")
trap 'echo "$old" >"$paranoid"; rm -rf "$TMP"' EXIT
echo 2 >"$paranoid"

U=$TMP/u
mkdir "$U" && chmod 711 "$TMP" && chmod 777 "$U"
if ! runuser -u "$user" -- test -x "$EMBER"; then
	skip all "$user cannot execute $EMBER (directory permissions)"
	exit 0
fi
cd "$U" || exit 1
EMBER_EXE=$(readlink -f "$EMBER")
WL_DIR=$(readlink -f "$WL")

# LeakSanitizer stops the process's threads with ptrace, which fails under
# strace ("LeakSanitizer does not work under ptrace"): with SANITIZE=1 the
# runs below keep ASan and UBSan but not the leak check (the same commands
# are leak-checked as root by the other suites).
asan_env=ASAN_OPTIONS=${ASAN_OPTIONS:-}
if ember_sanitized; then
	asan_env=ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
fi

# as_user NAME CMD...: CMD as the user, in $U, under strace; stdout in
# NAME.out, stderr in NAME.err, status in RC. Then the behind-the-back check.
as_user() {
	local name=$1 bad
	shift
	env "$asan_env" runuser -u "$user" -- strace -f -qq -o "$U/$name.st" -e trace=execve,mount,umount2,setuid,setresuid,setgid,setresgid,capset,init_module,finit_module,openat \
		"$@" >"$name.out" 2>"$name.err"
	RC=$?
	# Programs run: ember itself, the workloads, the shells of sh -c.
	bad=$(awk -v e="$EMBER_EXE" -v w="$WL_DIR/" '
		/ execve\(/ && / = 0$/ {
			split($0, a, "\""); p = a[2]
			if (p != e && index(p, w) != 1 && p !~ /^\/(usr\/)?bin\/(sh|dash|true)$/) print "ran " p
		}
		/ (mount|umount2|setuid|setresuid|setgid|setresgid|capset|init_module|finit_module)\(/ { print "called " $2 }
		/ openat\(/ && /O_WRONLY|O_RDWR/ && /"\/(proc\/sys|sys)\// { print "wrote " $0 }' "$U/$name.st")
	if [ -z "$bad" ]; then pass "$name-nothing-behind-the-back"; else
		fail "$name-nothing-behind-the-back" "$(printf '%s\n' "$bad" | head -3)"; fi
}

# works NAME CMD...: as_user, status 0.
works() {
	local name=$1
	as_user "$@"
	if [ "$RC" = 0 ]; then pass "$name"; else fail "$name" "status $RC: $(head -c 300 "$name.err")"; fi
}

# refused NAME WHAT_RE REMEDY_RE [MAX_LINES] CMD...: as_user fails, with at
# most MAX_LINES (1) on stderr, one of which says what is not allowed
# (WHAT_RE) and what would allow it (REMEDY_RE).
refused() {
	local name=$1 what=$2 remedy=$3 max=1 n
	shift 3
	case "$1" in [0-9]) max=$1; shift ;; esac
	as_user "$name" "$@"
	n=$(wc -l <"$name.err")
	if [ "$RC" = 0 ]; then
		fail "$name" "status 0"
	elif [ "$n" -gt "$max" ] || [ "$n" = 0 ]; then
		fail "$name" "want at most $max line(s), got $n: $(head -c 400 "$name.err")"
	elif ! grep -E -- "$what" "$name.err" | grep -qE -- "$remedy"; then
		fail "$name" "no line says '$what' and '$remedy': $(head -c 400 "$name.err")"
	else
		pass "$name"
	fi
}

# --- what is allowed: the user's own processes, in user space
works list "$EMBER" list sw
check list-names-cpu-clock grep -q 'cpu-clock' list.out
works stat "$EMBER" stat -- "$WL/hotloop" 50
works record "$EMBER" record -q -o own.data -- "$WL/hotloop" 300
works record-g "$EMBER" record -q -g -o own-g.data -- "$WL/hotloop" 300
if have_perf; then
	# perf refuses another user's file even to root without -f
	check record-user-only grep -q 'exclude_kernel = 1' \
		<("$PERF" report -f --header-only -i own.data 2>/dev/null | grep '^# event')
fi
works report "$EMBER" report --stdio --no-children --sort sym -i own-g.data
expect_eq report-top "$(awk '/^ +[0-9.]+%/ { print $NF; exit }' report.out)" hot_a
works script "$EMBER" script -i own-g.data
check script-samples grep -q 'hot_a' script.out
works flamegraph "$EMBER" flamegraph -i own-g.data -o own.svg
check flamegraph-svg grep -q 'hot_a' own.svg
works heatmap "$EMBER" heatmap --samples -i own-g.data -o own.html
cp script.out own.txt && chmod 644 own.txt
works collapse "$EMBER" collapse own.txt
check collapse-folded grep -q 'hot_a [0-9]' collapse.out

# root's files are readable (as perf: owned by the user or root)
"$EMBER" record -q -a -g -o "$U/root.data" -- "$WL/hotloop" 200 >/dev/null 2>&1
chmod 644 root.data
works report-root-file "$EMBER" report --stdio -i root.data
works script-root-file "$EMBER" script -i root.data
# ... but the kernel's addresses are hidden from this user: say why, and a
# remedy that changes that. /proc/kallsyms shows real addresses when
# kptr_restrict is 0 and perf_event_paranoid <= 1, or with CAP_SYSLOG.
if grep -qE 'kallsyms' report-root-file.err; then
	pass kallsyms-explained
	if [ "$(cat /proc/sys/kernel/kptr_restrict)" = 0 ]; then
		if grep 'kallsyms' report-root-file.err | grep -qE 'perf_event_paranoid|CAP_SYSLOG'; then
			pass kallsyms-remedy-applies
		else
			fail kallsyms-remedy-applies "kptr_restrict is already 0; the addresses are" \
				"hidden by perf_event_paranoid=2 (kallsyms_show_value), which the" \
				"line does not name: $(grep kallsyms report-root-file.err | head -1)"
		fi
	fi
else
	fail kallsyms-explained "no word on the hidden kernel symbols: $(head -c 300 report-root-file.err)"
fi

# --- what is not allowed, and what would allow it
refused record-a 'perf_event_paranoid' 'sysctl|CAP_PERFMON' "$EMBER" record -q -a -o x.data -- true
refused record-cpu 'perf_event_paranoid' 'sysctl|CAP_PERFMON' "$EMBER" record -q -C 0 -o x.data -- true
refused record-kernel 'perf_event_paranoid' 'sysctl|CAP_PERFMON|:u' \
	"$EMBER" record -q -e cpu-clock:k -o x.data -- true
refused record-other-user 'another user|not permitted|permission' 'root|CAP_PERFMON' \
	"$EMBER" record -q -p 1 -o x.data -- sleep 0.1
# perf's event-syntax-error layout (the spec, a pointer, the reason, a hint)
refused record-tracepoint 'tracepoint|tracing' 'root|mode=|mount' 5 \
	"$EMBER" record -q -e syscalls:sys_enter_write -o x.data -- true
refused stat-kernel 'perf_event_paranoid' 'sysctl|CAP_PERFMON|:u' "$EMBER" stat -e cpu-clock:k -- true
refused stat-other-user 'another user|not permitted|permission' 'root|CAP_PERFMON' \
	"$EMBER" stat -p 1 -- sleep 0.1
refused record-unwritable 'cannot create /root/x.data' 'Permission denied' \
	"$EMBER" record -q -o /root/x.data -- true
refused flamegraph-unwritable '/root/x.svg' 'Permission denied' \
	"$EMBER" flamegraph -i own-g.data -o /root/x.svg

# Another (non-root) user's file: refused unless -f, as perf.
cp own-g.data other.data && chown 65534 other.data && chmod 644 other.data
refused report-not-owned 'not owned' '-f' "$EMBER" report --stdio -i other.data
refused script-not-owned 'not owned' '-f' "$EMBER" script -i other.data
refused flamegraph-not-owned 'not owned' '-f' "$EMBER" flamegraph -i other.data -o o.svg
refused heatmap-not-owned 'not owned' '-f' "$EMBER" heatmap --samples -i other.data -o o.html
works report-not-owned-forced "$EMBER" report -f --stdio -i other.data
works script-not-owned-forced "$EMBER" script -f -i other.data

# Nothing changed the limit (the trap puts the old value back anyway).
expect_eq paranoid-unchanged "$(cat "$paranoid")" 2
