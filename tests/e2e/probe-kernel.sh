#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember probe on the kernel against perf probe 6.1: -F (the kernel's
# functions, from kallsyms or the running kernel's vmlinux) byte for byte
# with its filters; -D's kprobe_events lines from kallsyms (perf prints them
# without kprobes too); the words and failure when no vmlinux is found for
# -L, -V and definitions that need DWARF. (Adding without kprobe_events is
# probe.sh's kernel-no-kprobes.)
#
# With a vmlinux that has DWARF (EMBER_TEST_VMLINUX, else the first
# /usr/lib/debug/boot/vmlinux-*: Debian's linux-image-*-dbg puts one there;
# any version, -k reads it offline) -k -F, -k -V, -k -D and -k -L compare
# with perf too; -L shows source when EMBER_TEST_KSRC names the kernel
# sources of that vmlinux (-s), else both tools' failure is compared. CI
# has no such vmlinux: those checks skip, saying so.
. "$(dirname "$0")/../lib/e2e.sh"

if ! have_perf; then
	skip setup "perf not installed"
	exit 0
fi
# kallsyms shows addresses (which -D needs) to root, and ember probe opens tracefs
if ! is_root || ! have_tracefs; then
	skip setup "needs root (kallsyms' addresses) and tracefs"
	exit 0
fi
if [ ! -x "$EMBER" ]; then
	skip setup "no $EMBER; build first"
	exit 0
fi
cd "$TMP" || exit 1
# perf probe keeps caches in its build-id directory: the suite's own
perf_probe() { "$PERF" --buildid-dir "$TMP/debug" probe "$@"; }

# same_out NAME ARGS...: perf's and ember's stdout and stderr for the same command, and
# whether both succeeded or both failed (ember exits 1 where perf gives 254 and others)
same_out() {
	local name=$1 po pe prc eo ee erc
	shift
	perf_probe "$@" >p.out 2>p.err
	prc=$?
	"$EMBER" probe "$@" >e.out 2>e.err
	erc=$?
	sed -i 's/\bperf\b/ember/g' p.err
	if ! cmp -s p.out e.out; then
		fail "$name" "stdout differs: $(diff p.out e.out | head -6)"
	elif ! cmp -s p.err e.err; then
		fail "$name" "stderr differs: $(diff p.err e.err | head -6)"
	elif [ $((prc == 0)) != $((erc == 0)) ]; then
		fail "$name" "perf rc $prc, ember rc $erc"
	else
		pass "$name"
	fi
}

# -F: every kernel function perf lists, by name, with -F's default filter and others
same_out funcs -F
same_out funcs-glob -F 'vfs_*'
same_out funcs-filter -F --filter '!vfs_*&v*'
same_out funcs-all -F '*'
if [ "$(wc -l <e.out)" -lt 1000 ]; then
	fail funcs-many "only $(wc -l <e.out) kernel functions listed"
else
	pass funcs-many
fi

# -D from kallsyms (a vmlinux found for the running kernel gives DWARF's, in both tools)
same_out def-func -D vfs_read
same_out def-return -D 'vfs_read%return $retval'
same_out def-named -D 'grp:ev=vfs_read %di:u64'
same_out def-offset -D 'vfs_read+4'
same_out def-glob -D 'vfs_rea*'
same_out def-no-symbol -D nosuchfn_ember
same_out def-offset-too-big -D 'vfs_read+10000000'

# No vmlinux for the running kernel: perf's words, what is missing named, a failure.
perf_probe -L vfs_read >/dev/null 2>p.err
if grep -q 'Failed to find the path for the kernel' p.err; then
	no_vmlinux() { # NAME WORDS ARGS...: ember's failure, perf's words for what failed
		local name=$1 words=$2 rc
		shift 2
		"$EMBER" probe "$@" >e.out 2>e.err
		rc=$?
		if [ $rc -ne 0 ] && [ ! -s e.out ] &&
			grep -q '^Failed to find the path for the kernel: .*vmlinux' e.err &&
			grep -qx "  Error: Failed to $words." e.err; then
			pass "$name"
		else
			fail "$name" "rc=$rc $(head -3 e.err)"
		fi
	}
	no_vmlinux no-vmlinux-lines "show lines" -L vfs_read
	no_vmlinux no-vmlinux-vars "show vars" -V vfs_read
	no_vmlinux no-vmlinux-add "add events" -D 'vfs_read count'
else
	skip no-vmlinux "perf finds a vmlinux for the running kernel here"
fi

# Adding on a kernel with kprobes: the kprobe_events line perf writes, then ember's,
# each tool removing its own (the group is the suite's own).
KEVENTS=/sys/kernel/tracing/kprobe_events
if [ ! -e "$KEVENTS" ]; then
	skip add "this kernel has no kprobe_events (CONFIG_KPROBES / CONFIG_KPROBE_EVENTS)"
else
	kours() { grep -E '^[pr]:embertk/' "$KEVENTS"; }
	trap 'perf_probe -q -d "embertk:*" >/dev/null 2>&1; rm -rf "$TMP"' EXIT
	for def in 'embertk:ev=vfs_read' 'embertk:ev=vfs_read%return $retval' \
		'embertk:ev=vfs_read+4 %di:u64'; do
		perf_probe -q "$def" >/dev/null 2>&1
		pl=$(kours)
		perf_probe -q -d 'embertk:*' >/dev/null 2>&1
		"$EMBER" probe -q "$def" >/dev/null 2>e.err
		el=$(kours)
		"$EMBER" probe -q -d 'embertk:*' >/dev/null 2>&1
		if [ -n "$pl" ] && [ "$pl" = "$el" ] && [ -z "$(kours)" ]; then
			pass "add-${def#*=}"
		else
			fail "add-${def#*=}" "perf '$pl' ember '$el' ($(head -2 e.err))"
		fi
	done
fi

# A vmlinux with DWARF, read offline with -k.
VMLINUX=${EMBER_TEST_VMLINUX:-}
if [ -z "$VMLINUX" ]; then
	for f in /usr/lib/debug/boot/vmlinux-*; do
		[ -f "$f" ] && VMLINUX=$f && break
	done
fi
if [ -z "$VMLINUX" ] || ! readelf -S "$VMLINUX" 2>/dev/null | grep -q '\.debug_info'; then
	skip vmlinux "no vmlinux with DWARF (install a linux-image-*-dbg, or set EMBER_TEST_VMLINUX)"
	exit 0
fi
K=(-k "$VMLINUX")
same_out k-funcs "${K[@]}" -F
same_out k-vars "${K[@]}" -V vfs_read
same_out k-vars-return "${K[@]}" -V 'vfs_read%return'
same_out k-vars-two "${K[@]}" -V ksys_read -V vfs_write
same_out k-vars-none "${K[@]}" -V nosuchfn_ember
same_out k-def "${K[@]}" -D vfs_read
same_out k-def-args "${K[@]}" -D 'vfs_read count file->f_mode'
same_out k-def-params "${K[@]}" -D 'vfs_read $params'
same_out k-def-return "${K[@]}" -D 'vfs_read%return $retval'
same_out k-def-glob "${K[@]}" -D 'vfs_rea*'
same_out k-def-inlined "${K[@]}" -D rw_verify_area
same_out k-def-none "${K[@]}" -D nosuchfn_ember
same_out k-def-inline-only "${K[@]}" -D kmalloc
same_out k-def-offset-too-big "${K[@]}" -D 'vfs_read+100000'
if [ -n "${EMBER_TEST_KSRC:-}" ]; then
	same_out k-lines "${K[@]}" -s "$EMBER_TEST_KSRC" -L vfs_read
	same_out k-lines-range "${K[@]}" -s "$EMBER_TEST_KSRC" -L 'vfs_read:3-10'
	same_out k-lines-file "${K[@]}" -s "$EMBER_TEST_KSRC" -L 'fs/read_write.c:100-120'
	same_out k-vars-line "${K[@]}" -s "$EMBER_TEST_KSRC" -V 'fs/read_write.c:470'
else
	same_out k-lines-no-source "${K[@]}" -s "$TMP/nosrc" -L vfs_read
	skip k-lines "no kernel sources (set EMBER_TEST_KSRC to the vmlinux's source tree)"
fi
