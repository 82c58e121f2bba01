#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Symbol resolution end to end: ELF files (PIE, non-PIE, a shared library,
# stripped with a debuglink or a build-id debug file) against nm/readelf,
# live processes through /proc/PID/maps, JIT maps, the vdso, kallsyms, and
# perf itself: the machine model, fed the records of a perf.data file,
# must name every sample and callchain entry as perf script does.
. "$(dirname "$0")/../lib/e2e.sh"

SPIE="$WL/symbols-pie"
SRC="$TOP/tests/workloads/symbols-pie.c"
LIBA="$BUILD/libember.a"
if [ ! -f "$LIBA" ] || [ ! -x "$SPIE" ]; then
	skip all "no $LIBA or $SPIE (build first)"
	exit 0
fi

# ---- the driver: a small SDK program over <ember/machine.h> ------------------
cat >"$TMP/symtool.c" <<'C'
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <ember/ember.h>
#include <ember/machine.h>

static struct ember_symbol_opts opts = { .sz = sizeof(opts) };
static int with_comm;

static void print_al(const struct ember_addr_location *al)
{
	if (al->sym)
		printf("%s+0x%" PRIx64, al->sym_name, al->sym_off);
	else
		printf("[unknown]");
	printf(" (%s)\n", al->map ? al->dso_name : "[unknown]");
}

/* syms FILE: "vaddr size name" per symbol, in nm's address space. */
static int cmd_syms(int argc, char **argv)
{
	struct ember_dso *dso = ember_dso__open(argv[0], &opts);
	const struct ember_symbol *s;
	int n = ember_dso__load(dso);

	if (n < 0)
		return fprintf(stderr, "load: %s\n", strerror(-n)), 1;
	for (size_t i = 0; (s = ember_dso__symbol(dso, i)); i++)
		printf("%" PRIx64 " %" PRIx64 " %s\n",
		       ember_dso__addr_to_vaddr(dso, ember_symbol__start(s)),
		       ember_symbol__end(s) - ember_symbol__start(s), ember_symbol__name(s));
	printf("symsrc %s\n", ember_dso__symsrc_path(dso));
	ember_dso__delete(dso);
	return 0;
}

/* lookup FILE VADDR...: "VADDR name+0xoff" (vaddr as nm prints it). */
static int cmd_lookup(int argc, char **argv)
{
	struct ember_dso *dso = ember_dso__open(argv[0], &opts);

	for (int i = 1; i < argc; i++) {
		uint64_t v = strtoull(argv[i], NULL, 16);
		uint64_t a = ember_dso__vaddr_to_addr(dso, v);
		const struct ember_symbol *s = ember_dso__find_symbol(dso, a);

		if (s)
			printf("%" PRIx64 " %s+0x%" PRIx64 "\n", v, ember_symbol__name(s),
			       a - ember_symbol__start(s));
		else
			printf("%" PRIx64 " [unknown]\n", v);
	}
	ember_dso__delete(dso);
	return 0;
}

/* pid PID ADDR...: a live process, "ADDR sym+0xoff (dso)". */
static int cmd_pid(int argc, char **argv)
{
	struct ember_symbolizer *s = ember_symbolizer__new(&opts);
	pid_t pid = atoi(argv[0]);

	if (!pid)
		pid = getpid();
	for (int i = 1; i < argc; i++) {
		struct ember_addr_location al;
		uint64_t ip = strtoull(argv[i], NULL, 16);
		int err = ember_symbolizer__resolve(s, pid, ip, &al);

		printf("%" PRIx64 " ", ip);
		if (err == -ESRCH)
			printf("ESRCH\n");
		else
			print_al(&al);
		if (i == 1)
			printf("comm %s\n", al.comm);
	}
	ember_symbolizer__delete(s);
	return 0;
}

static int cmd_demangle(int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		char *d = ember_demangle(argv[i], false);

		printf("%s\n", d ? d : argv[i]);
		free(d);
	}
	return 0;
}

/*
 * replay: records on stdin, in time order, one per line (numbers in hex
 * unless said otherwise; names run to the end of the line):
 *   mmap2 PID TID START LEN PGOFF PROT FILENAME      PROT as "r-xp"
 *   mmap PID TID START LEN PGOFF PROT FILENAME       PROT "x" (exec) or "r" (data)
 *   comm EXEC PID TID NAME                           EXEC 1 for an exec's COMM
 *   fork PID TID PPID PTID
 *   exit PID TID
 *   sample MISC PID TID IP [CHAIN...]
 * (pids decimal; pid -1 maps are the kernel's). Prints "sym+0xoff (dso)"
 * per sample, or per callchain entry when a chain is given, as perf script
 * -F ip,sym,symoff,dso does.
 */
static int cmd_replay(void)
{
	struct ember_machine *m = ember_machine__new(&opts);
	char line[8192];

	while (fgets(line, sizeof(line), stdin)) {
		char cmd[16], prot[8];
		unsigned long long a, b, c;
		int pid, tid, x, y, pos = 0;
		char *rest;

		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%15s", cmd) != 1)
			continue;
		if ((!strcmp(cmd, "mmap2") || !strcmp(cmd, "mmap")) &&
		    sscanf(line, "%*s %d %d %llx %llx %llx %7s %n", &pid, &tid, &a, &b, &c, prot,
			   &pos) == 6 && pos) {
			uint16_t misc = pid == -1 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;

			rest = line + pos;
			if (!strcmp(cmd, "mmap2"))
				ember_machine__process_mmap2(m, misc, pid, tid, a, b, c,
							     strchr(prot, 'x') ? 5 : 1, 0, rest, NULL);
			else
				ember_machine__process_mmap(m, misc | (prot[0] == 'x' ? 0 :
							    PERF_RECORD_MISC_MMAP_DATA),
							    pid, tid, a, b, c, rest);
		} else if (!strcmp(cmd, "comm") &&
			   sscanf(line, "%*s %d %d %d %n", &x, &pid, &tid, &pos) == 3 && pos) {
			ember_machine__process_comm(m, x ? PERF_RECORD_MISC_COMM_EXEC : 0, pid, tid,
						    line + pos);
		} else if (!strcmp(cmd, "fork") &&
			   sscanf(line, "%*s %d %d %d %d", &pid, &tid, &x, &y) == 4) {
			ember_machine__process_fork(m, 0, pid, tid, x, y);
		} else if (!strcmp(cmd, "exit") && sscanf(line, "%*s %d %d", &pid, &tid) == 2) {
			ember_machine__process_exit(m, pid, tid);
		} else if (!strcmp(cmd, "sample") &&
			   sscanf(line, "%*s %x %d %d %llx %n", &x, &pid, &tid, &a, &pos) == 4) {
			struct ember_thread *t = ember_machine__findnew_thread(m, pid, tid);
			struct ember_addr_location al;
			uint8_t mode = PERF_RECORD_MISC_USER;
			char *p = line + pos, *end;

			if (!pos || !*p) {
				ember_thread__resolve(t, x & PERF_RECORD_MISC_CPUMODE_MASK, a, &al);
				if (with_comm)
					printf("%s %d ", al.comm, tid);
				print_al(&al);
				continue;
			}
			for (;;) {
				uint64_t ip = strtoull(p, &end, 16);
				int ctx;

				if (end == p)
					break;
				p = end;
				ctx = ember_callchain__context(ip, &mode);
				if (ctx < 0)
					break;
				if (ctx)
					continue;
				ember_thread__resolve(t, mode, ip, &al);
				print_al(&al);
			}
		}
	}
	ember_machine__delete(m);
	return 0;
}

int main(int argc, char **argv)
{
	int i = 1;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--symfs") && i + 1 < argc)
			opts.symfs = argv[++i];
		else if (!strcmp(argv[i], "--no-cache"))
			opts.buildid_dir = "";
		else if (!strcmp(argv[i], "--comm"))
			with_comm = 1;
	}
	if (i >= argc)
		return 2;
	if (!strcmp(argv[i], "syms"))
		return cmd_syms(argc - i - 1, argv + i + 1);
	if (!strcmp(argv[i], "lookup"))
		return cmd_lookup(argc - i - 1, argv + i + 1);
	if (!strcmp(argv[i], "pid"))
		return cmd_pid(argc - i - 1, argv + i + 1);
	if (!strcmp(argv[i], "demangle"))
		return cmd_demangle(argc - i - 1, argv + i + 1);
	if (!strcmp(argv[i], "replay"))
		return cmd_replay();
	return 2;
}
C
EXTRA_LIBS=
nm "$LIBA" 2>/dev/null | grep -q ' U cplus_demangle' && EXTRA_LIBS=-liberty
TOOL="$TMP/symtool"
if ! cc -O1 -g -I"$TOP/include" -o "$TOOL" "$TMP/symtool.c" "$LIBA" \
	$(pkg-config --libs libelf libdw libtraceevent 2>/dev/null || echo -lelf -ldw -ltraceevent) \
	$EXTRA_LIBS -lm 2>"$TMP/cc.err"; then
	fail build-driver "$(head -5 "$TMP/cc.err")"
	exit 0
fi
pass build-driver
if [ -n "$EXTRA_LIBS" ]; then HAVE_DEMANGLE=1; else HAVE_DEMANGLE=; fi

# ---- ELF files against nm ----------------------------------------------------

# check_against_nm NAME FILE [TOOLOPTS...]: every function readelf lists with
# a size resolves at its first, middle and last byte to its name, or to a
# name nm gives the same start address (aliases: perf keeps one of them).
check_against_nm() {
	local name=$1 file=$2 bad
	shift 2
	readelf -sW "$file" | awk '($4 == "FUNC" || $4 == "IFUNC") && $3 != 0 && $7 != "UND" {print $2, $3, $8}' |
		sed 's/@.*//' | sort -u | while read -r val size fn; do
		s=$((16#$val)) n=$((size))
		printf '%x %s %x\n%x %s %x\n%x %s %x\n' $s "$fn" $s $((s + n / 2)) "$fn" $s \
			$((s + n - 1)) "$fn" $s
	done >"$TMP/asks"
	if [ ! -s "$TMP/asks" ]; then
		fail "$name" "no functions in $file"
		return
	fi
	nm "$file" 2>/dev/null | awk 'NF == 3 {a = $1; sub(/^0+/, "", a); n = $3; sub(/@.*/, "", n); print a, n}' \
		>"$TMP/nm-names"
	"$TOOL" "$@" lookup "$file" $(awk '{print $1}' "$TMP/asks") >"$TMP/got"
	bad=$(awk 'FILENAME == ARGV[1] { alias[$1 " " $2] = 1; next }
		   FILENAME == ARGV[2] { want[FNR] = $2; start[FNR] = $3; next }
		   { n = $2; sub(/\+0x[0-9a-f]+$/, "", n)
		     if (n != want[FNR] && !((start[FNR] " " n) in alias))
			print $1 ":" want[FNR] "/" $2 }' \
		"$TMP/nm-names" "$TMP/asks" "$TMP/got" | head -5 | tr '\n' ' ')
	if [ "$(wc -l <"$TMP/got")" != "$(wc -l <"$TMP/asks")" ]; then
		bad="$bad (answered $(wc -l <"$TMP/got") of $(wc -l <"$TMP/asks"))"
	fi
	if [ -z "$bad" ]; then pass "$name"; else fail "$name" "$bad"; fi
}

check_against_nm nm-pie "$SPIE" --no-cache

# The static function and the IFUNC are there; the zero-size one is extended.
"$TOOL" --no-cache syms "$SPIE" >"$TMP/syms"
zero=$(awk '$3 == "sym_zero" {print $2}' "$TMP/syms")
alpha=$(awk '$3 == "sym_alpha" {print $1}' "$TMP/syms")
zstart=$(awk '$3 == "sym_zero" {print $1}' "$TMP/syms")
if [ -n "$zero" ] && [ "$zero" != 0 ] && [ $((0x$zstart + 0x$zero)) = $((0x$alpha)) ]; then
	pass zero-size-extended
else
	fail zero-size-extended "sym_zero size '$zero'"
fi
expect_eq ifunc-listed "$(awk '$3 == "sym_ifunc" {print "yes"}' "$TMP/syms")" yes

# Non-PIE: absolute addresses, file offsets differ from them by the segment base.
if cc -O1 -g -fno-omit-frame-pointer -no-pie -o "$TMP/nopie" "$SRC" 2>/dev/null; then
	check_against_nm nm-nopie "$TMP/nopie" --no-cache
else
	skip nm-nopie "cc -no-pie failed"
fi

# A shared library of our own.
cat >"$TMP/libsym.c" <<'C'
int lib_counter;
__attribute__((noinline)) int lib_one(int x) { return x * 3 + lib_counter; }
__attribute__((noinline)) static int lib_two(int x) { return x ^ 0x55; }
int lib_three(int x) { return lib_two(x) + lib_one(x); }
void lib_nop(void) { }
C
if cc -O1 -g -shared -fPIC -o "$TMP/libsym.so" "$TMP/libsym.c" 2>/dev/null; then
	check_against_nm nm-shared-lib "$TMP/libsym.so" --no-cache
else
	skip nm-shared-lib "cc -shared failed"
fi

# ---- separate debug info -----------------------------------------------------

# Stripped binary + .gnu_debuglink: the static sym_local is only in the debug file.
cp "$SPIE" "$TMP/dl"
objcopy --only-keep-debug "$TMP/dl" "$TMP/dl.debug" &&
	strip --strip-all "$TMP/dl" &&
	objcopy --add-gnu-debuglink="$TMP/dl.debug" "$TMP/dl"
addr=$(awk '$3 == "sym_local" {print $1}' "$TMP/syms")
if readelf -SW "$TMP/dl" | grep -q ' .symtab'; then
	fail debuglink "strip left a .symtab"
else
	mkdir -p "$TMP/dbg" "$TMP/dbg/.debug"
	mv "$TMP/dl" "$TMP/dbg/dl"
	# <dir>/<link>
	mv "$TMP/dl.debug" "$TMP/dbg/dl.debug"
	got=$("$TOOL" --no-cache lookup "$TMP/dbg/dl" "$addr")
	expect_eq debuglink-same-dir "$got" "$addr sym_local+0x0"
	# <dir>/.debug/<link>
	mv "$TMP/dbg/dl.debug" "$TMP/dbg/.debug/dl.debug"
	got=$("$TOOL" --no-cache lookup "$TMP/dbg/dl" "$addr")
	expect_eq debuglink-dot-debug "$got" "$addr sym_local+0x0"
	src=$("$TOOL" --no-cache syms "$TMP/dbg/dl" | awk '/^symsrc/ {print $2}')
	expect_eq debuglink-symsrc "$src" "$TMP/dbg/.debug/dl.debug"
	# No debug file: only .dynsym is left, sym_local is gone.
	rm "$TMP/dbg/.debug/dl.debug"
	got=$("$TOOL" --no-cache lookup "$TMP/dbg/dl" "$addr")
	case "$got" in *sym_local*) fail stripped-without-debug "$got" ;; *) pass stripped-without-debug ;; esac
fi

# /usr/lib/debug/.build-id/xx/yyyy.debug (Debian -dbgsym), under a --symfs root.
bid=$(readelf -n "$SPIE" | awk '/Build ID/ {print $3}')
if [ -n "$bid" ]; then
	root="$TMP/root"
	mkdir -p "$root/bin" "$root/usr/lib/debug/.build-id/${bid:0:2}"
	cp "$SPIE" "$root/bin/spie"
	objcopy --only-keep-debug "$root/bin/spie" "$root/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug"
	strip --strip-all "$root/bin/spie"
	got=$("$TOOL" --no-cache --symfs "$root" lookup /bin/spie "$addr")
	expect_eq build-id-debug-file "$got" "$addr sym_local+0x0"
	# /usr/lib/debug<path> (Debian -dbg) and /usr/lib/debug<path>.debug (Fedora).
	mkdir -p "$root/usr/lib/debug/bin"
	mv "$root/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug" "$root/usr/lib/debug/bin/spie"
	got=$("$TOOL" --no-cache --symfs "$root" lookup /bin/spie "$addr")
	expect_eq debug-file-by-path "$got" "$addr sym_local+0x0"
	mv "$root/usr/lib/debug/bin/spie" "$root/usr/lib/debug/bin/spie.debug"
	got=$("$TOOL" --no-cache --symfs "$root" lookup /bin/spie "$addr")
	expect_eq debug-file-by-path-dot-debug "$got" "$addr sym_local+0x0"
	rm "$root/usr/lib/debug/bin/spie.debug"
	# A debug file with another build-id is not used.
	cc -O1 -g -DOTHER_BUILD -o "$TMP/other" "$SRC" 2>/dev/null
	objcopy --only-keep-debug "$TMP/other" "$root/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug"
	got=$("$TOOL" --no-cache --symfs "$root" lookup /bin/spie "$addr")
	case "$got" in *sym_local*) fail build-id-mismatch-rejected "$got" ;; *) pass build-id-mismatch-rejected ;; esac
else
	skip build-id-debug-file "no build-id in $SPIE"
fi

# The system's libc: .dynsym only, locals from libc6-dbg when installed.
LIBC=/usr/lib/x86_64-linux-gnu/libc.so.6
if [ -f "$LIBC" ]; then
	"$TOOL" --no-cache syms "$LIBC" >"$TMP/libc-syms"
	src=$(awk '/^symsrc/ {print $2}' "$TMP/libc-syms")
	lbid=$(readelf -n "$LIBC" | awk '/Build ID/ {print $3}')
	if [ -f "/usr/lib/debug/.build-id/${lbid:0:2}/${lbid:2}.debug" ]; then
		expect_eq libc-dbg-symsrc "$src" "/usr/lib/debug/.build-id/${lbid:0:2}/${lbid:2}.debug"
		expect_eq libc-dbg-local "$(awk '$3 == "__libc_start_call_main" {print "yes"; exit}' "$TMP/libc-syms")" yes
	else
		skip libc-dbg-symsrc "libc6-dbg not installed"
		expect_eq libc-dynsym "$src" "$LIBC"
	fi
else
	skip libc-dbg-symsrc "no $LIBC"
fi

# ---- live processes ----------------------------------------------------------

"$SPIE" addrs >"$TMP/addrs" &
lpid=$!
for _ in $(seq 50); do [ -s "$TMP/addrs" ] && grep -q printf "$TMP/addrs" && break; sleep 0.05; done
"$TOOL" pid "$lpid" $(awk '{print $2}' "$TMP/addrs") >"$TMP/live"
want=$(awk '$1 != "printf" {printf "%s %s+0x0 (%s)\n", $2, $1, SPIE}' SPIE="$SPIE" "$TMP/addrs")
got=$(grep -v '^comm' "$TMP/live" | grep -v '/libc')
expect_eq live-process "$got" "$want"
expect_eq live-comm "$(awk '/^comm/ {print $2}' "$TMP/live")" symbols-pie
case "$(grep -c 'libc.so.6)$' "$TMP/live")" in 1) pass live-libc ;; *) fail live-libc "$(cat "$TMP/live")" ;; esac

# The vdso: our copy of the kernel's image names the process's vdso functions.
vdso=$(awk '/\[vdso\]/ {split($1, a, "-"); print a[1], a[2]; exit}' /proc/$lpid/maps)
if [ -n "$vdso" ]; then
	set -- $vdso
	n=$(( (0x$2 - 0x$1) / 4096 ))
	dd if=/proc/$lpid/mem of="$TMP/vdso.so" bs=4096 skip=$((0x$1 / 4096)) count=$n 2>/dev/null
	off=$(readelf --dyn-syms -W "$TMP/vdso.so" 2>/dev/null | awk '{n = $8; sub(/@.*/, "", n)} n == "__vdso_clock_gettime" {print $2; exit}')
	if [ -n "$off" ]; then
		a=$(printf '%x' $((0x$1 + 0x$off + 4)))
		got=$("$TOOL" pid "$lpid" "$a" | head -1)
		expect_eq vdso "$got" "$a __vdso_clock_gettime+0x4 ([vdso])"
	else
		skip vdso "no __vdso_clock_gettime in this vdso"
	fi
else
	skip vdso "no [vdso] mapping"
fi
kill "$lpid" 2>/dev/null
wait "$lpid" 2>/dev/null

# A process that is gone.
expect_eq gone-process "$("$TOOL" pid 2000000000 401000 | head -1)" "401000 ESRCH"

# JIT code described in /tmp/perf-PID.map.
"$SPIE" jit >"$TMP/jit" &
jpid=$!
for _ in $(seq 50); do [ -s "$TMP/jit" ] && break; sleep 0.05; done
base=$(awk '/^jit/ {print $2}' "$TMP/jit")
if [ -n "$base" ]; then
	a1=$(printf '%x' $((0x$base + 0x110)))
	a2=$(printf '%x' $((0x$base + 0x200)))
	a3=$(printf '%x' $((0x$base + 0x300)))
	got=$("$TOOL" pid "$jpid" "$a1" "$a2" "$a3" | grep -v '^comm')
	expect_eq perf-pid-map "$got" "$a1 jitted_function_one+0x10 (/tmp/perf-$jpid.map)
$a2 jitted_function_two+0x0 (/tmp/perf-$jpid.map)
$a3 [unknown] (/tmp/perf-$jpid.map)"
else
	fail perf-pid-map "the jit workload printed nothing"
fi
kill "$jpid" 2>/dev/null
wait "$jpid" 2>/dev/null
rm -f "/tmp/perf-$jpid.map"

# ---- the kernel --------------------------------------------------------------

if [ "$(awk 'NR == 1 {print $1}' /proc/kallsyms)" = 0000000000000000 ]; then
	skip kallsyms "kernel addresses hidden (kptr_restrict=$(cat /proc/sys/kernel/kptr_restrict))"
else
	asks=
	for f in __x64_sys_write do_syscall_64 schedule vfs_read; do
		a=$(awk -v f="$f" '$3 == f && ($2 == "T" || $2 == "t") {print $1; exit}' /proc/kallsyms)
		[ -n "$a" ] && asks="$asks $f:$a"
	done
	if [ -z "$asks" ]; then
		skip kallsyms "none of the probe functions is in /proc/kallsyms"
	else
		bad=
		for fa in $asks; do
			f=${fa%%:*} a=${fa#*:}
			a1=$(printf '%x' $((0x$a + 1)))
			got=$("$TOOL" pid 0 "$a" "$a1" | grep -v '^comm' | tr '\n' '|')
			[ "$got" = "$a $f+0x0 ([kernel.kallsyms])|$a1 $f+0x1 ([kernel.kallsyms])|" ] ||
				bad="$bad $got"
		done
		if [ -z "$bad" ]; then pass kallsyms; else fail kallsyms "$bad"; fi
	fi
fi

# ---- perf as the oracle ------------------------------------------------------

# perf script -D → the replay protocol, records sorted by time (stable).
dump_to_records() { # perf.data
	"$PERF" script -i "$1" -D 2>/dev/null | awk '
	/^[0-9]+ 0x[0-9a-f]+ \[0x[0-9a-f]+\]: PERF_RECORD_/ {
		if (pending != "") { print pending; pending = "" }
		t = $1; rec = $4
		if (rec == "PERF_RECORD_MMAP2" || rec == "PERF_RECORD_MMAP") {
			split($5, pt, "/"); sub(/:$/, "", pt[2])
			match($0, /\[0x[0-9a-f]+\(0x[0-9a-f]+\) @ (0x)?[0-9a-f]+/)
			r = substr($0, RSTART + 1, RLENGTH - 1); tail = substr($0, RSTART + RLENGTH)
			gsub(/0x/, "", r); split(r, q, /[()@ ]+/)
			rest = substr(tail, index(tail, "]: ") + 3)
			split(rest, w, " "); prot = w[1]; file = substr(rest, length(prot) + 2)
			kind = (rec == "PERF_RECORD_MMAP2") ? "mmap2" : "mmap"
			printf "%s %d %s %s %s %s %s %s %s %s\n", t, NR, kind, pt[1], pt[2], q[1], q[2], q[3], prot, file
		} else if (rec == "PERF_RECORD_COMM" || rec == "PERF_RECORD_COMM:") {
			exec = ($5 == "exec:") ? 1 : 0
			s = $0; sub(/.*PERF_RECORD_COMM( exec)?: /, "", s)
			n = split(s, a, ":"); ids = a[n]; name = substr(s, 1, length(s) - length(ids) - 1)
			split(ids, pt, "/")
			printf "%s %d comm %d %s %s %s\n", t, NR, exec, pt[1], pt[2], name
		} else if (rec ~ /^PERF_RECORD_(FORK|EXIT)/) {
			s = rec; gsub(/[^0-9:-]+/, " ", s); n = split(s, a, /[ :]+/)
			j = 0; for (i = 1; i <= n; i++) if (a[i] != "") v[++j] = a[i]
			if (rec ~ /FORK/) printf "%s %d fork %s %s %s %s\n", t, NR, v[1], v[2], v[3], v[4]
			else printf "%s %d exit %s %s\n", t, NR, v[1], v[2]
		} else if (rec ~ /^PERF_RECORD_SAMPLE/) {
			match($0, /\(IP, 0x[0-9a-f]+\)/)
			misc = substr($0, RSTART + 7, RLENGTH - 8)
			s = $0; sub(/.*\): /, "", s); split(s, a, " ")
			split(a[1], pt, "/"); sub(/:$/, "", pt[2]); ip = a[2]; sub(/^0x/, "", ip)
			pending = sprintf("%s %d sample %s %s %s %s", t, NR, misc, pt[1], pt[2], ip)
		}
		next
	}
	/^\.\.\.\.\. +[0-9]+: [0-9a-f]+$/ && pending != "" { pending = pending " " $3; next }
	/^$/ { if (pending != "") { print pending; pending = "" } }
	END { if (pending != "") print pending }' | sort -s -n -k1,1 -k2,2 | cut -d' ' -f3-
}

# compare_with_perf NAME perf.data [comm]: every sample/callchain line of perf
# script and of the replay, as a sorted list of "sym+off (dso)" (prefixed
# with "comm tid" for the comm variant, on data without callchains).
compare_with_perf() {
	local name=$1 data=$2 mode=${3:-} diffs
	if [ "$mode" = comm ]; then
		"$PERF" script -i "$data" -F comm,tid,ip,sym,symoff,dso 2>/dev/null |
			awk 'NF >= 4 { $3 = ""; sub(/  /, " "); print }' | sort >"$TMP/perf.out"
		dump_to_records "$data" >"$TMP/records"
		"$TOOL" --comm replay <"$TMP/records" | sort >"$TMP/ember.out"
	else
		"$PERF" script -i "$data" -F ip,sym,symoff,dso 2>/dev/null |
			awk 'NF >= 2 && $1 ~ /^[0-9a-f]+$/ { $1 = ""; sub(/^ /, ""); print }' | sort >"$TMP/perf.out"
		dump_to_records "$data" >"$TMP/records"
		"$TOOL" replay <"$TMP/records" | sort >"$TMP/ember.out"
	fi
	if [ ! -s "$TMP/perf.out" ]; then
		fail "$name" "perf script printed no samples"
		return
	fi
	diffs=$(diff "$TMP/perf.out" "$TMP/ember.out" | grep '^[<>]' | sort | uniq -c | sort -rn | head -8)
	if [ -z "$diffs" ]; then
		pass "$name"
	else
		fail "$name" "$(wc -l <"$TMP/perf.out") perf lines; perf(<) vs ember(>):
$diffs"
	fi
}

if ! have_perf; then
	skip perf-script-match "no perf"
	exit 0
fi

# perf record -N: temporary binaries stay out of the build-id cache (~/.debug).
rec() { # out.data cmd...: perf record cpu-clock with frame-pointer callchains
	local out=$1
	shift
	"$PERF" record -N -q -e cpu-clock -F 2000 -g -o "$out" -- "$@" >/dev/null 2>"$TMP/rec.err"
}

if rec "$TMP/pie.data" "$SPIE" spin 300; then
	compare_with_perf perf-script-match-pie "$TMP/pie.data"
else
	skip perf-script-match-pie "perf record failed: $(head -1 "$TMP/rec.err")"
fi
if [ -x "$WL/hotloop" ] && rec "$TMP/hot.data" "$WL/hotloop" 300; then
	compare_with_perf perf-script-match-hotloop "$TMP/hot.data"
fi
# The same without callchains: one line per sample, kernel samples included.
if "$PERF" record -N -q -e cpu-clock -F 2000 -o "$TMP/flat.data" -- "$SPIE" spin 200 >/dev/null 2>&1; then
	compare_with_perf perf-script-match-flat "$TMP/flat.data"
fi
if [ -x "$TMP/nopie" ] && rec "$TMP/nopie.data" "$TMP/nopie" spin 200; then
	compare_with_perf perf-script-match-nopie "$TMP/nopie.data"
fi

# Kernel callchains: system calls, kernel frames above user ones.
if [ -x "$WL/writes" ] && rec "$TMP/writes.data" "$WL/writes" 300000; then
	compare_with_perf perf-script-match-kernel "$TMP/writes.data"
	if grep -q '(\[kernel.kallsyms\])$' "$TMP/ember.out"; then pass kernel-frames-seen; else
		fail kernel-frames-seen "no [kernel.kallsyms] frame in the replay"; fi
fi
# Processes and threads: fork, exec, thread names, comm per sample.
if "$PERF" record -N -q -e cpu-clock -F 2000 -o "$TMP/procs.data" -- sh -c \
	"$SPIE threads 150; $WL/forker 20; $SPIE spin 100" >/dev/null 2>&1; then
	compare_with_perf perf-script-match-comm "$TMP/procs.data" comm
	for c in spinner symbols-pie; do
		grep -q "^$c " "$TMP/ember.out" && pass "comm-$c-seen" || fail "comm-$c-seen" "no sample of $c"
	done
else
	skip perf-script-match-comm "perf record failed"
fi

# PLT entries: a stripped binary with exported symbols calling into our library.
cat >"$TMP/pltmain.c" <<'C'
void lib_nop(void);
int main(void) { for (long i = 0; i < 300000000L; i++) lib_nop(); return 0; }
C
if cc -O1 -rdynamic -o "$TMP/pltmain" "$TMP/pltmain.c" -L"$TMP" -lsym -Wl,-rpath="$TMP" 2>/dev/null &&
	strip "$TMP/pltmain" && rec "$TMP/plt.data" "$TMP/pltmain"; then
	compare_with_perf perf-script-match-plt "$TMP/plt.data"
	if grep -q 'lib_nop@plt' "$TMP/ember.out"; then pass plt-named; else fail plt-named "no lib_nop@plt sample"; fi
else
	skip perf-script-match-plt "could not build or record the PLT workload"
fi

# ---- demangling, as perf shows it ---------------------------------------------

if [ -z "$HAVE_DEMANGLE" ]; then
	skip demangle-cxx "libember built without libiberty (-DHAVE_LIBIBERTY, -liberty)"
	skip demangle-rust "libember built without libiberty (-DHAVE_LIBIBERTY, -liberty)"
	exit 0
fi
cat >"$TMP/cxx.cpp" <<'C'
#include <cstdlib>
namespace ns {
template <typename T> struct Box {
	__attribute__((noinline)) static T spin(long n) { volatile T s = 0; for (long i = 0; i < n; i++) s += i; return s; }
};
struct K { __attribute__((noinline)) unsigned long run(int n) const; };
unsigned long K::run(int n) const { return Box<unsigned long>::spin(n * 1000000L) + Box<int>::spin(n * 500000L); }
}
int main(int c, char **v) { ns::K k; return k.run(c > 1 ? atoi(v[1]) : 100) == 1; }
C
if c++ -O1 -g -fno-omit-frame-pointer -o "$TMP/cxx" "$TMP/cxx.cpp" 2>/dev/null && rec "$TMP/cxx.data" "$TMP/cxx" 150; then
	compare_with_perf demangle-cxx "$TMP/cxx.data"
	grep -q '^ns::Box<unsigned long>::spin' "$TMP/ember.out" && pass demangle-cxx-name ||
		fail demangle-cxx-name "$(sort -u "$TMP/ember.out" | head -3)"
else
	skip demangle-cxx "c++ or perf record failed"
fi
RUSTC=$(command -v rustc || echo "$HOME/.cargo/bin/rustc")
if [ -x "$RUSTC" ]; then
	cat >"$TMP/r.rs" <<'R'
pub mod inner {
    pub struct W<T>(pub T);
    impl<T: Copy + Into<u64>> W<T> {
        #[inline(never)]
        pub fn spin(&self, n: u64) -> u64 {
            let mut s = 0u64;
            for i in 0..n { s = std::hint::black_box(s.wrapping_add(i ^ self.0.into())); }
            s
        }
    }
}
fn main() { let w = inner::W(3u32); println!("{}", std::hint::black_box(w.spin(150_000_000))); }
R
	for v in legacy v0; do
		opt=
		[ $v = v0 ] && opt="-C symbol-mangling-version=v0"
		if "$RUSTC" -O -g -C force-frame-pointers=yes $opt -o "$TMP/r-$v" "$TMP/r.rs" 2>/dev/null &&
			rec "$TMP/r-$v.data" "$TMP/r-$v"; then
			compare_with_perf "demangle-rust-$v" "$TMP/r-$v.data"
			grep -q 'inner::W<' "$TMP/ember.out" && pass "demangle-rust-$v-name" ||
				fail "demangle-rust-$v-name" "$(sort -u "$TMP/ember.out" | head -3)"
		else
			skip "demangle-rust-$v" "rustc or perf record failed"
		fi
	done
else
	skip demangle-rust "no rustc"
fi
