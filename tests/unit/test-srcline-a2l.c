// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember_srclines__find() against binutils' addr2line itself: for a sample of
 * addresses from the line tables of glibc's and ld.so's debug files and
 * of ember's own binary, the first record of `addr2line -e FILE -i -f`
 * (what perf 6.1 keeps) must name the same file (base name) and line.
 * Half of each sample is taken from rows of file 1 of DWARF 5 tables whose
 * file 0 is another file, where binutils 2.40 names file 0 for the rows a
 * sequence has before its first DW_LNS_set_file (dwfl_elf__line_file()).
 * A small program with a header's function, built by gcc (DWARF 5) and
 * by clang (no .debug_aranges, which libdwfl 0.188 needs to find a unit)
 * is compared whole. Skipped where addr2line, a file or a compiler is
 * absent.
 */
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ember/symbol.h>
#include "symbol/dwfl-elf.h"
#include "test.h"

enum { SAMPLE = 150 };	/* per kind of row and file */

struct addrs {
	uint64_t *v;
	size_t n, cap;
};

static bool push(struct addrs *a, uint64_t x)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 1024;
		uint64_t *v = realloc(a->v, cap * sizeof(*v));

		if (!v)
			return false;
		a->v = v;
		a->cap = cap;
	}
	a->v[a->n++] = x;
	return true;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* SAMPLE addresses spread evenly over from, appended to to (sorted, unique). */
static bool sample(struct addrs *from, struct addrs *to)
{
	size_t n = 0;

	qsort(from->v, from->n, sizeof(*from->v), cmp_u64);
	for (size_t i = 0; i < from->n; i++)
		if (!n || from->v[n - 1] != from->v[i])
			from->v[n++] = from->v[i];
	for (size_t i = 0; i < SAMPLE && i < n; i++)
		if (!push(to, from->v[n <= SAMPLE ? i : i * n / SAMPLE]))
			return false;
	return true;
}

/* Whether a row's file is file 1 of a DWARF 5 table whose file 0 differs. */
static bool quirk_row(Dwarf_Line *l)
{
	Dwarf_Files *files;
	const char *f0, *f1;
	size_t idx;

	if (dwarf_line_file(l, &files, &idx) || idx != 1)
		return false;
	f0 = dwarf_filesrc(files, 0, NULL, NULL);
	f1 = dwarf_filesrc(files, 1, NULL, NULL);
	return f0 && f1 && strcmp(f0, "???") && strcmp(f0, f1);
}

static int first_module(Dwfl_Module *mod, void **user, const char *name, Dwarf_Addr base,
			void *arg)
{
	*(Dwfl_Module **)arg = mod;
	return DWARF_CB_ABORT;
}

/* Row addresses (and the byte after each, as a sample's ip may be) of path's line tables. */
static bool collect(Dwfl *dwfl, struct addrs *out)
{
	struct addrs any = { 0 }, quirk = { 0 };
	Dwfl_Module *mod = NULL;
	Dwarf_Die *cu = NULL;
	Dwarf_Addr bias;
	bool ok = true;

	dwfl_getmodules(dwfl, first_module, &mod, 0);
	while (ok && mod && (cu = dwfl_module_nextcu(mod, cu, &bias))) {
		Dwarf_Lines *lines;
		size_t n;

		if (dwarf_getsrclines(cu, &lines, &n))
			continue;
		for (size_t i = 0; ok && i < n; i++) {
			Dwarf_Line *l = dwarf_onesrcline(lines, i);
			struct addrs *to = quirk_row(l) ? &quirk : &any;
			Dwarf_Addr a;
			bool end;

			if (dwarf_lineendsequence(l, &end) || end || dwarf_lineaddr(l, &a) || !a)
				continue;
			ok = push(to, a + bias) && push(to, a + bias + 1);
		}
	}
	ok = ok && sample(&any, out) && sample(&quirk, out);
	free(any.v);
	free(quirk.v);
	return ok;
}

struct answer {
	char file[256];
	unsigned int line;
};

/* "??"/"??:0" is addr2line's answer for nothing, and the sentinel's. */
static int read_record(FILE *f, char *fn, size_t fnsz, struct answer *a)
{
	char fl[4096], *c, *d;

	if (!fgets(fn, fnsz, f) || !fgets(fl, sizeof(fl), f))
		return -1;
	fn[strcspn(fn, "\n")] = 0;
	fl[strcspn(fl, "\n")] = 0;
	if (!strcmp(fn, "??") && !strcmp(fl, "??:0"))
		return 0;
	d = strstr(fl, " (discriminator ");
	if (d)
		*d = 0;
	c = strrchr(fl, ':');
	a->line = c ? strtoul(c + 1, NULL, 10) : 0;
	if (c)
		*c = 0;
	c = strrchr(fl, '/');
	snprintf(a->file, sizeof(a->file), "%.255s", c ? c + 1 : fl);
	return 1;
}

/*
 * addr2line's first record for each address, through one process: each
 * address is followed by ",", which addr2line answers "??" "??:0", so the
 * records of one address end there (as perf reads them).
 */
static int addr2line(const char *path, const struct addrs *a, struct answer *ans)
{
	char in[] = "/tmp/ember-a2l-XXXXXX", cmd[4096], fn[4096];
	int fd = mkstemp(in), err = 0;
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f)
		return -1;
	for (size_t i = 0; i < a->n; i++)
		fprintf(f, "%#" PRIx64 "\n,\n", a->v[i]);
	if (fclose(f))
		err = -1;
	snprintf(cmd, sizeof(cmd), "addr2line -e '%s' -i -f < %s", path, in);
	f = err ? NULL : popen(cmd, "r");
	for (size_t i = 0; f && !err && i < a->n; i++) {
		struct answer skip;
		int r = read_record(f, fn, sizeof(fn), &ans[i]);

		if (r < 0)
			err = -1;
		/* nothing known: the sentinel's answer follows */
		if (!r) {
			strcpy(ans[i].file, "??");
			ans[i].line = 0;
			if (read_record(f, fn, sizeof(fn), &skip))
				err = -1;
		}
		/* the rest of the records, up to and with the sentinel */
		while (!err && r > 0)
			if ((r = read_record(f, fn, sizeof(fn), &skip)) < 0)
				err = -1;
	}
	if (!f || pclose(f))
		err = -1;
	unlink(in);
	return err;
}

static bool have_addr2line(void)
{
	FILE *f = popen("addr2line --version 2>/dev/null", "r");
	char buf[256];
	bool ok = f && fgets(buf, sizeof(buf), f) && strstr(buf, "addr2line");

	if (f)
		pclose(f);
	return ok;
}

/* Compares a sample of path's addresses; returns how many were compared, -1 when skipped. */
static long compare_file(struct unit_test *t, const char *path)
{
	Dwfl *dwfl = access(path, R_OK) ? NULL : dwfl_elf__open(path);
	struct ember_srclines *s = ember_srclines__new();
	struct addrs a = { 0 };
	struct answer *ans = NULL;
	long n = -1;

	if (!dwfl || !s || !collect(dwfl, &a) || !a.n)
		goto out;
	ans = calloc(a.n, sizeof(*ans));
	if (!ans || addr2line(path, &a, ans))
		goto out;
	n = a.n;
	for (size_t i = 0; i < a.n; i++) {
		const char *file = NULL, *b;
		unsigned int line = 0;

		CHECK(ember_srclines__find(s, path, a.v[i], &file, &line) >= 0);
		b = file ? strrchr(file, '/') : NULL;
		b = b ? b + 1 : file ? file : "??";
		if (strcmp(b, ans[i].file) || line != ans[i].line) {
			fprintf(stderr, "  %s %#" PRIx64 ": addr2line %s:%u, srclines %s:%u\n", path,
				a.v[i], ans[i].file, ans[i].line, b, line);
			t->failures++;
		}
	}
out:
	free(ans);
	free(a.v);
	ember_srclines__delete(s);
	if (dwfl)
		dwfl_end(dwfl);
	return n;
}

/* The separate debug file of an installed ELF file, by its build-id ("" when not known). */
static void debug_file(const char *elf, char *buf, size_t sz)
{
	Dwfl *dwfl = dwfl_elf__open(elf);
	Dwfl_Module *mod = NULL;
	const unsigned char *id = NULL;
	GElf_Addr vaddr;
	int len = 0;

	buf[0] = 0;
	if (dwfl)
		dwfl_getmodules(dwfl, first_module, &mod, 0);
	if (mod)
		len = dwfl_module_build_id(mod, &id, &vaddr);
	if (len > 1) {
		size_t o = snprintf(buf, sz, "/usr/lib/debug/.build-id/%02x/", id[0]);

		for (int i = 1; i < len && o + 3 < sz; i++)
			o += snprintf(buf + o, sz - o, "%02x", id[i]);
		snprintf(buf + o, sz - o, ".debug");
	}
	if (dwfl)
		dwfl_end(dwfl);
}

static void run(struct unit_test *t, const char *path)
{
	if (!have_addr2line())
		SKIP("no addr2line");
	if (!path[0] || compare_file(t, path) < 0)
		SKIP("no such file, or no DWARF line table in it");
}

TEST(srcline_a2l_libc_debug)
{
	char path[512];

	debug_file("/lib/x86_64-linux-gnu/libc.so.6", path, sizeof(path));
	run(t, path);
}

TEST(srcline_a2l_ldso_debug)
{
	char path[512];

	debug_file("/lib64/ld-linux-x86-64.so.2", path, sizeof(path));
	run(t, path);
}

/* ember itself, next to the unit tests in the build directory */
TEST(srcline_a2l_ember)
{
	char path[4096];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 8);
	char *slash;

	if (n <= 0)
		SKIP("no /proc/self/exe");
	path[n] = 0;
	slash = strrchr(path, '/');
	strcpy(slash ? slash + 1 : path, "ember");
	run(t, path);
}

/* A .c whose code is mostly a header's: file 1 of its DWARF 5 table. */
static const char prog_h[] =
	"static int helper(int x)\n"
	"{\n"
	"\tint s = 0;\n"
	"\tfor (int i = 0; i < x; i++)\n"
	"\t\ts += i * x;\n"
	"\treturn s;\n"
	"}\n"
	"__attribute__((noinline)) static int called(int x)\n"
	"{\n"
	"\treturn x * 7 + helper(x);\n"
	"}\n"
	"static inline int inl(int x)\n"
	"{\n"
	"\treturn x ^ 0x55;\n"
	"}\n";
static const char prog_c[] =
	"#include <stdio.h>\n"
	"#include <stdlib.h>\n"
	"#include \"prog.h\"\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"\tint v = atoi(argc > 1 ? argv[1] : \"3\");\n"
	"\tprintf(\"%d\\n\", inl(v) + called(v));\n"
	"\treturn helper(v) & 1;\n"
	"}\n";

static bool write_file(const char *dir, const char *name, const char *text)
{
	char path[4096];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return false;
	ok = fputs(text, f) >= 0;
	return !fclose(f) && ok;
}

static void run_built(struct unit_test *t, const char *cc)
{
	char dir[] = "/tmp/ember-a2l-prog-XXXXXX", cmd[8192], exe[4096];
	long n = -1;

	if (!have_addr2line())
		SKIP("no addr2line");
	if (!mkdtemp(dir))
		SKIP("no temporary directory");
	snprintf(exe, sizeof(exe), "%s/prog", dir);
	snprintf(cmd, sizeof(cmd), "cd %s && %s -O2 -g -o prog prog.c >/dev/null 2>&1", dir, cc);
	if (write_file(dir, "prog.h", prog_h) && write_file(dir, "prog.c", prog_c) && !system(cmd))
		n = compare_file(t, exe);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		fprintf(stderr, "  could not remove %s\n", dir);
	if (n < 0)
		SKIP("no such compiler, or no DWARF line table from it");
}

TEST(srcline_a2l_gcc_dwarf5)
{
	run_built(t, "gcc -gdwarf-5");
}

TEST(srcline_a2l_clang)
{
	run_built(t, "clang");
}
