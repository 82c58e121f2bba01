#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Overlapping symbols named exactly as perf 6.1 names them. perf's lookup
# returns the first symbol on its rb-tree's search path that holds an
# address, so where symbols overlap (a zero-size _init stretched over the
# PLT entries perf synthesizes, nested or re-JITted symbols) the answer
# depends on the tree's shape: `_init+0x30` for a PLT entry of a small
# binary, `strcmp@plt+0x0` in a big library, [unknown] in .plt.got.
#
# 1. Every address that matters, deterministically: a perf.data written
#    here with one sample at every byte of .init/.plt/.plt.got/.plt.sec,
#    every byte of each run of overlapping symbols and the first, middle
#    and last byte of every symbol, for small and big binaries and
#    libraries; perf script and ember's session must agree on each sample.
# 2. Real recordings (perf record -g) of programs that spend time in PLT
#    entries: every frame compared.
. "$(dirname "$0")/../lib/e2e.sh"

LIBA="$BUILD/libember.a"
if [ ! -f "$LIBA" ] || [ ! -x "$WL/writes" ] || [ ! -x "$WL/plt-calls" ]; then
	skip all "no $LIBA, $WL/writes or $WL/plt-calls (build first)"
	exit 0
fi
if ! have_perf || ! is_root; then
	skip all "needs root and perf"
	exit 0
fi

cat >"$TMP/pltgen.c" <<'C'
/*
 * pltgen [-p PID] OUT.data TARGET...: a perf.data (cpu-clock:u, one
 * sample per address, no callchains) of one process PID. A TARGET is
 *   FILE            its executable PT_LOADs mapped as the loader would
 *                   (ET_DYN at its own base), and samples at every byte of
 *                   .init, .plt, .plt.got, .plt.sec, of each run of
 *                   overlapping symbols (as ember lists them; a stride past
 *                   64 KiB) and at the first, middle and last byte of
 *                   every symbol, where executable;
 *   jit=START,LEN   an anonymous r-x map (perf-PID.map symbols) and a
 *                   sample at every byte of it.
 * Prints the number of samples.
 */
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ember/ember.h>

#define PAGE 4096ULL

static struct ember_data_writer *w;
static uint64_t now = 1000000, nr_samples;
static uint32_t pid = 4242;
/* Executable maps: samples elsewhere would only say [unknown]. */
static struct {
	uint64_t lo, hi;
} maps[64];
static int nr_maps;

struct id_tail {
	uint32_t pid, tid;
	uint64_t time;
};

static void put(const void *rec, size_t size)
{
	if (ember_data_writer__write(w, rec, size)) {
		fprintf(stderr, "pltgen: write failed\n");
		exit(1);
	}
}

static void comm(const char *name)
{
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		char comm[16];
		struct id_tail id;
	} r = { { PERF_RECORD_COMM, 0, sizeof(r) }, pid, pid, "", { pid, pid, now++ } };

	strncpy(r.comm, name, sizeof(r.comm) - 1);
	put(&r, sizeof(r));
}

static void mmap2(uint64_t start, uint64_t len, uint64_t pgoff, const char *path)
{
	char buf[4096 + 256];
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		uint64_t start, len, pgoff;
		uint32_t maj, min;
		uint64_t ino, ino_gen;
		uint32_t prot, flags;
	} r = { { PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, 0 }, pid, pid, start, len, pgoff,
		0, 0, 0, 0, 5 /* r-x */, 2 /* MAP_PRIVATE */ };
	size_t n = (strlen(path) + 8) & ~7UL;
	struct id_tail id = { pid, pid, now++ };

	if (n > 4096 || nr_maps == 64)
		exit(2);
	maps[nr_maps].lo = start;
	maps[nr_maps++].hi = start + len;
	r.h.size = sizeof(r) + n + sizeof(id);
	memcpy(buf, &r, sizeof(r));
	memset(buf + sizeof(r), 0, n);
	memcpy(buf + sizeof(r), path, strlen(path));
	memcpy(buf + sizeof(r) + n, &id, sizeof(id));
	put(buf, r.h.size);
}

static void sample(uint64_t ip)
{
	struct {
		struct perf_event_header h;
		uint64_t ip;
		uint32_t pid, tid;
		uint64_t time, period;
	} r = { { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(r) }, ip, pid, pid, now++, 1 };
	int i;

	for (i = 0; i < nr_maps && (ip < maps[i].lo || ip >= maps[i].hi); i++)
		;
	if (i == nr_maps)
		return;
	put(&r, sizeof(r));
	nr_samples++;
}

static void range(uint64_t base, uint64_t lo, uint64_t hi)
{
	uint64_t stride = hi - lo > 65536 ? (hi - lo) / 65536 + 1 : 1;

	for (uint64_t a = lo; a < hi; a += stride)
		sample(base + a);
}

static int one_file(const char *path, uint64_t base)
{
	static const char *const secs[] = { ".init", ".plt", ".plt.got", ".plt.sec" };
	struct ember_symbol_opts opts = { .sz = sizeof(opts), .buildid_dir = "" };
	uint64_t cstart = 0, cend = 0, cn = 0;
	size_t phnum, shstrndx;
	struct ember_dso *dso;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	int fd = open(path, O_RDONLY);
	Elf *elf;

	elf_version(EV_CURRENT);
	elf = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || !gelf_getehdr(elf, &eh) || elf_getphdrnum(elf, &phnum) ||
	    elf_getshdrstrndx(elf, &shstrndx)) {
		fprintf(stderr, "pltgen: %s: not ELF\n", path);
		return 1;
	}
	if (eh.e_type != ET_DYN)
		base = 0;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		uint64_t lo, hi;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		lo = ph.p_vaddr & ~(PAGE - 1);
		hi = (ph.p_vaddr + ph.p_memsz + PAGE - 1) & ~(PAGE - 1);
		mmap2(base + lo, hi - lo, ph.p_offset & ~(PAGE - 1), path);
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		for (size_t i = 0; name && i < sizeof(secs) / sizeof(secs[0]); i++)
			if (!strcmp(name, secs[i]))
				range(base, sh.sh_addr, sh.sh_addr + sh.sh_size);
	}
	elf_end(elf);
	close(fd);

	dso = ember_dso__open(path, &opts);
	if (!dso || ember_dso__load(dso) <= 0) {
		fprintf(stderr, "pltgen: %s: no symbols\n", path);
		return 1;
	}
	for (size_t i = 0;; i++) {
		const struct ember_symbol *s = ember_dso__symbol(dso, i);
		uint64_t st = ~0ULL, en = ~0ULL;

		if (s) {
			st = ember_dso__addr_to_vaddr(dso, ember_symbol__start(s));
			en = st + (ember_symbol__end(s) > ember_symbol__start(s) ?
					   ember_symbol__end(s) - ember_symbol__start(s) : 1);
		}
		if (s && i && st < cend) {
			cn++;
			if (en > cend)
				cend = en;
			continue;
		}
		if (cn > 1)
			range(base, cstart, cend);
		if (!s)
			break;
		cstart = st;
		cend = en;
		cn = 1;
		sample(base + st);
		sample(base + st + (en - st) / 2);
		sample(base + en - 1);
	}
	ember_dso__delete(dso);
	return 0;
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_PERIOD,
		.sample_id_all = 1,
		.exclude_kernel = 1,
		.mmap = 1,
		.comm = 1,
		.mmap2 = 1,
	};
	uint64_t id = 1;
	int i = 1;

	if (argc > 2 && !strcmp(argv[1], "-p")) {
		pid = atoi(argv[2]);
		i = 3;
	}
	if (argc < i + 2)
		return 2;
	w = ember_data_writer__open(argv[i], NULL);
	if (!w || ember_data_writer__add_attr(w, &attr, &id, 1, "cpu-clock:u") < 0 ||
	    ember_data_writer__start(w, NULL)) {
		fprintf(stderr, "pltgen: cannot write %s\n", argv[i]);
		return 1;
	}
	comm("pltgen");
	for (int k = i + 1; k < argc; k++) {
		unsigned long long start, len;

		if (sscanf(argv[k], "jit=%llx,%llx", &start, &len) == 2) {
			mmap2(start, len, 0, "//anon");
			range(0, start, start + len);
		} else if (one_file(argv[k], 0x7f0000000000ULL + (uint64_t)(k - i) * 0x100000000ULL)) {
			return 1;
		}
	}
	if (ember_data_writer__close(w, NULL))
		return 1;
	printf("%" PRIu64 "\n", nr_samples);
	return 0;
}
C

EXTRA_LIBS=
nm "$LIBA" 2>/dev/null | grep -q ' U cplus_demangle' && EXTRA_LIBS=-liberty
nm "$LIBA" 2>/dev/null | grep -q ' U ZSTD_' && EXTRA_LIBS="$EXTRA_LIBS -lzstd"
LIBS="$(pkg-config --libs libelf libdw libtraceevent 2>/dev/null || echo -lelf -ldw -ltraceevent) $EXTRA_LIBS -lm"
GEN="$TMP/pltgen"
TOOL="$TMP/session-tool"
if ! cc -O1 -g -I"$TOP/include" -o "$GEN" "$TMP/pltgen.c" "$LIBA" $LIBS 2>"$TMP/cc.err" ||
	! cc -O1 -g -I"$TOP/include" -o "$TOOL" "$TOP/tests/tools/session-tool.c" "$LIBA" $LIBS \
		2>>"$TMP/cc.err"; then
	fail build-tools "$(head -5 "$TMP/cc.err")"
	exit 0
fi
pass build-tools

# perf script and the session, one "ip sym+off (dso)" line per frame.
frames_perf() { # DATA
	"$PERF" script -i "$1" -F ip,sym,symoff,dso 2>/dev/null | grep -E '^\s*[0-9a-f]+ ' |
		sed -E 's/^\s+//; s/ +/ /g; s/ $//'
}
frames_ember() { # DATA
	"$TOOL" samples "$1" 2>/dev/null | grep -P '^\t' | sed -E 's/^\s+//; s/ +/ /g; s/ $//'
}
# Frames in the PLT area: a PLT entry's name, or a symbol such as _init over it.
plt_frames() { grep -cE '@plt\+|^[0-9a-f]+ _init\+' "$1"; }

# every_address NAME TARGET...: the synthetic file against perf, sample by sample.
every_address() {
	local name=$1 n diffs
	shift
	if ! n=$("$GEN" -p $$ "$TMP/$name.data" "$@" 2>"$TMP/gen.err"); then
		fail "$name" "pltgen: $(head -2 "$TMP/gen.err")"
		return
	fi
	frames_perf "$TMP/$name.data" >"$TMP/$name.perf"
	frames_ember "$TMP/$name.data" >"$TMP/$name.ember"
	if [ "$(wc -l <"$TMP/$name.perf")" -ne "$n" ]; then
		fail "$name" "perf script printed $(wc -l <"$TMP/$name.perf") of $n samples"
		return
	fi
	diffs=$(diff "$TMP/$name.perf" "$TMP/$name.ember" | grep -c '^<')
	if [ "$diffs" = 0 ]; then
		pass "$name"
		echo "     $n addresses, $(plt_frames "$TMP/$name.perf") in the PLT area," \
			"$(grep -c '^[0-9a-f]* _init+' "$TMP/$name.perf") named _init," \
			"$(grep -c '\[unknown\]' "$TMP/$name.perf") unknown"
	else
		fail "$name" "$diffs of $n addresses differ; perf(<) ember(>):
$(diff "$TMP/$name.perf" "$TMP/$name.ember" | grep '^[<>]' | head -8)"
	fi
}

# ---- every address: small executables --------------------------------------

every_address every-address-writes "$WL/writes"
# The small binary's PLT: perf's tree has _init above write's entry
# (perf's `_init+0x30`); whatever it says, ember must say the same.
plt=$(readelf -SW "$WL/writes" | awk '$2 == ".plt" {print $4}')
idx=$(readelf -rW "$WL/writes" | awk '/JUMP_SLOT/ {n++; if ($5 ~ /^write@/) {print n; exit}}')
if [ -n "$plt" ] && [ -n "$idx" ]; then
	ip=$(printf '%x' $((0x7f0100000000 + 0x$plt + 16 * idx))) # pltgen's first base
	want=$(grep -m1 "^$ip " "$TMP/every-address-writes.perf")
	expect_eq writes-write-plt-entry "$(grep -m1 "^$ip " "$TMP/every-address-writes.ember")" "$want"
	echo "     perf: $want"
fi
every_address every-address-plt-calls "$WL/plt-calls"

# A big executable: 3000 exported functions (.symtab and a big .dynsym, so
# both of perf's passes shape the tree) and 40 PLT entries.
{
	echo '#include <stdio.h>'
	echo '#include <stdlib.h>'
	echo '#include <string.h>'
	echo '#include <strings.h>'
	echo 'volatile long sink;'
	for i in $(seq 0 2999); do echo "void exported_$i(void) { sink += $i; }"; done
	echo 'int main(int argc, char **argv) { char b[64] = "12"; const char *a = argv[0]; if (argc < 9) return 0;'
	for f in strlen atoi atol getenv puts strdup; do echo " sink += (long)$f(a);"; done
	for f in abs labs malloc; do echo " sink += (long)$f(argc);"; done
	echo ' sink += rand();'
	for f in strchr strrchr index rindex; do echo " sink += (long)$f(a, 'x');"; done
	echo " sink += (long)memchr(a, 'x', 2);"
	for f in strcmp strcasecmp strstr strspn strcspn strpbrk strcpy strcat; do echo " sink += (long)$f(b, a);"; done
	for f in strncmp strncasecmp strncpy strncat memcmp memcpy memmove; do echo " sink += (long)$f(b, a, 3);"; done
	echo ' sink += strtol(b, 0, 10) + (long)strtoul(b, 0, 10) + (long)calloc(1, 2); free((void *)sink);'
	echo ' printf("%s", b); fprintf(stderr, "%s", b); sprintf(b, "x"); snprintf(b, 2, "y"); return 0; }'
} >"$TMP/bigexe.c"
if cc -O1 -fno-builtin -rdynamic -o "$TMP/bigexe" "$TMP/bigexe.c" 2>"$TMP/cc.err"; then
	every_address every-address-big-executable "$TMP/bigexe"
	# A function left only in .dynsym: perf 6.1 reads .dynsym after .symtab.
	objcopy --strip-symbol=exported_5 "$TMP/bigexe" "$TMP/bigexe2"
	every_address every-address-dynsym-only "$TMP/bigexe2"
	if grep -q ' exported_5+0x0 ' "$TMP/every-address-dynsym-only.ember"; then
		pass dynsym-only-named
	else
		fail dynsym-only-named "no exported_5 from .dynsym"
	fi
else
	fail every-address-big-executable "cc: $(head -3 "$TMP/cc.err")"
fi

# Nested functions with aliases (assembly): 400 functions of 64 bytes with
# up to 3 functions inside each and up to 3 aliases on those, zero-size or
# sized, global, weak or local. perf's fix-up erases the aliases from its
# tree, and where the walk ends among nested symbols depends on how those
# erases rebalanced it.
awk 'function rnd(n) { seed = (seed * 69069 + 1) % 4294967296; return int(seed / 65536) % n }
BEGIN {
	seed = 7
	print "\t.text"
	for (i = 0; i < 400; i++) {
		printf "\t.globl outer_%d\n\t.type outer_%d, @function\nouter_%d:\n", i, i, i
		pos = 0
		k = rnd(4)
		for (j = 0; j < k; j++) {
			step = 1 + rnd(4)
			if (pos + step > 15)
				break
			printf "\t.skip %d\n", step * 4
			pos += step
			printf "\t.type inner_%d_%d, @function\ninner_%d_%d:\n", i, j, i, j
			na = rnd(4)
			for (a = 0; a < na; a++) {
				b = rnd(3)
				if (b == 0) printf "\t.globl alias_%d_%d_%d\n", i, j, a
				if (b == 1) printf "\t.weak alias_%d_%d_%d\n", i, j, a
				printf "\t.type alias_%d_%d_%d, @function\nalias_%d_%d_%d:\n", i, j, a, i, j, a
				printf "\t.size alias_%d_%d_%d, %d\n", i, j, a, rnd(4) * 4
			}
			sz = rnd(4)
			printf "\t.size inner_%d_%d, %d\n", i, j, sz == 3 ? 20 : sz * 4
		}
		printf "\t.skip %d\n\t.size outer_%d, 64\n", (16 - pos) * 4, i
	}
	print "\t.globl main\n\t.type main, @function\nmain:\n\txor %eax, %eax\n\tret\n\t.size main, 3"
	print "\t.section .note.GNU-stack,\"\",@progbits"
}' >"$TMP/nested.s"
if cc -o "$TMP/nested" "$TMP/nested.s" 2>"$TMP/cc.err"; then
	every_address every-address-nested-aliases "$TMP/nested"
else
	fail every-address-nested-aliases "cc: $(head -3 "$TMP/cc.err")"
fi

# ---- every address: big libraries -------------------------------------------

PYLIB=
for v in /root/.pyenv/versions/3.11.*; do
	[ -f "$v/lib/libpython3.11.so.1.0" ] && PYLIB="$v/lib/libpython3.11.so.1.0"
done
if [ -n "$PYLIB" ]; then
	every_address every-address-libpython "$PYLIB"
	# perf names libpython's PLT entries by their own names ("strcmp@plt+0x0").
	n=$(grep -c '@plt+' "$TMP/every-address-libpython.perf")
	if [ "$n" -gt 1000 ]; then pass libpython-plt-named; else
		fail libpython-plt-named "only $n PLT names"; fi
else
	skip every-address-libpython "no libpython3.11 under /root/.pyenv"
fi
for lib in libc.so.6 libm.so.6 libstdc++.so.6 libasan.so.8; do
	f=/usr/lib/x86_64-linux-gnu/$lib
	if [ -f "$f" ]; then
		every_address "every-address-${lib%%.so*}" "$f"
	else
		skip "every-address-${lib%%.so*}" "no $f"
	fi
done

# ---- every address: JIT symbols that overlap (perf-PID.map, no fix-ups) ------

JMAP=/tmp/perf-$$.map
cat >"$JMAP" <<'M'
7e0000000100 100 jit_outer
7e0000000110 20 jit_inner_first
7e0000000180 40 jit_inner_second
7e0000000100 80 jit_same_start
7e0000000300 10 jit_lone
7e00000002f0 40 jit_straddle
7e0000000140 8 jit_tiny
7e0000000400 30 jit_after_lone
7e0000000408 8 jit_in_after_lone
M
every_address every-address-jit-map jit=7e0000000000,600
rm -f "$JMAP"

# ---- real recordings ----------------------------------------------------------

# every_frame NAME CMD...: perf record -g, then every frame of perf script
# and of the session, in order.
every_frame() {
	local name=$1 nf diffs
	shift
	if ! "$PERF" record -N -q -e cpu-clock -F 4000 -g -o "$TMP/$name.data" -- "$@" \
		>/dev/null 2>"$TMP/rec.err"; then
		skip "$name" "perf record failed: $(head -1 "$TMP/rec.err")"
		return
	fi
	frames_perf "$TMP/$name.data" | sed -E 's/^[0-9a-f]+ //' >"$TMP/$name.perf"
	frames_ember "$TMP/$name.data" | sed -E 's/^[0-9a-f]+ //' >"$TMP/$name.ember"
	nf=$(wc -l <"$TMP/$name.perf")
	if [ "$nf" -lt 10 ]; then
		fail "$name" "perf script printed $nf frames"
		return
	fi
	diffs=$(diff "$TMP/$name.perf" "$TMP/$name.ember" | grep -c '^[<>]')
	if [ "$diffs" = 0 ]; then
		pass "$name"
		echo "     $nf frames, $(grep -cE '@plt\+|^_init\+' "$TMP/$name.perf") in the PLT area"
	else
		fail "$name" "$nf frames, $diffs lines differ; perf(<) ember(>):
$(diff "$TMP/$name.perf" "$TMP/$name.ember" | grep '^[<>]' | sort | uniq -c | sort -rn | head -8)"
	fi
}

every_frame recorded-writes "$WL/writes" 200000
every_frame recorded-plt-calls "$WL/plt-calls" 1500000
PY=${PYLIB%/lib/*}/bin/python3.11
if [ -n "$PYLIB" ] && [ -x "$PY" ]; then
	every_frame recorded-python "$PY" -c '
import json
d = {"k%d" % i: [i, str(i), {"x": i * 1.5}] for i in range(200)}
for i in range(200):
    s = json.dumps(d); json.loads(s); sorted(d); "-".join(d)
'
else
	skip recorded-python "no python3.11 under /root/.pyenv"
fi
