// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kallsyms cache (lib/symbol/kallsyms-cache.c): a table written and
 * read back is the same table; a file that is short, corrupt, of another
 * version or another key is not used; an unwritable directory only
 * means no cache. Each test points EMBER_KALLSYMS_CACHE_DIR at its own
 * temporary directory.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <ember/ember.h>
#include <ember/machine.h>
#include "symbol/kallsyms.h"
#include "test.h"

#define ENV "EMBER_KALLSYMS_CACHE_DIR"

struct kfixture {
	char dir[64];
	char kallsyms[96];
	struct kallsyms_key key;
	struct symtab tab;
	struct kallsyms_cache_info info;
};

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/* A table as kallsyms.c leaves it before the module split: sorted, fixed up. */
static int kfixture__init(struct kfixture *k)
{
	static const struct {
		uint64_t start;
		const char *name;
		uint8_t binding;
	} syms[] = {
		{ 0xffffffff81000000ULL, "_text", STB_GLOBAL },
		{ 0xffffffff81000000ULL, "startup_64", STB_LOCAL },
		{ 0xffffffff81000100ULL, "__x64_sys_write", STB_GLOBAL },
		{ 0xffffffff81000200ULL, "weak_fn", STB_WEAK },
		{ 0xffffffff81000300ULL, "_etext", STB_GLOBAL },
		{ 0xffffffffc0001000ULL, "mod_init\t[my_mod]", STB_LOCAL },
	};

	memset(k, 0, sizeof(*k));
	snprintf(k->dir, sizeof(k->dir), "/tmp/ember-kcache-XXXXXX");
	if (!mkdtemp(k->dir))
		return -1;
	snprintf(k->kallsyms, sizeof(k->kallsyms), "%s/kallsyms", k->dir);
	if (write_text(k->kallsyms, "ffffffff81000000 T _text\nffffffff81000100 T __x64_sys_write\n"))
		return -1;
	if (kallsyms_key__get(k->kallsyms, &k->key))
		return -1;
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++)
		symtab__add(&k->tab, syms[i].start, 0, syms[i].binding, STT_FUNC, syms[i].name,
			    strlen(syms[i].name));
	symtab__sort(&k->tab);
	symtab__fixup_end(&k->tab, true);
	symtab__fixup_duplicate(&k->tab);
	k->info = (struct kallsyms_cache_info){ 0xffffffff81000000ULL, 0, 0xffffffff81000300ULL, 6 };
	setenv(ENV, k->dir, 1);
	return 0;
}

static void kfixture__exit(struct kfixture *k)
{
	char cmd[128];

	symtab__exit(&k->tab);
	unsetenv(ENV);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", k->dir);
	if (system(cmd))
		fprintf(stderr, "  cannot remove %s\n", k->dir);
}

/* The one cache file in dir into path; its count. */
static int cache_file(const char *dir, char *path, size_t size)
{
	char cmd[160];
	FILE *p;
	int n = 0;

	snprintf(cmd, sizeof(cmd), "ls '%s' | grep '\\.ksyms$'", dir);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(path + strlen(dir) + 1, size - strlen(dir) - 1, p)) {
		memcpy(path, dir, strlen(dir));
		path[strlen(dir)] = '/';
		path[strcspn(path, "\n")] = '\0';
		n++;
	}
	pclose(p);
	return n;
}

static bool same_table(const struct symtab *a, const struct symtab *b)
{
	if (a->nr != b->nr || a->nr_sorted != b->nr_sorted || a->nr_added != b->nr_added ||
	    a->nr_erased != b->nr_erased)
		return false;
	for (size_t i = 0; i < a->nr; i++) {
		const struct ember_symbol *x = &a->syms[i], *y = &b->syms[i];

		if (x->start != y->start || x->end != y->end || strcmp(x->name, y->name) ||
		    x->seq != y->seq || x->binding != y->binding || x->type != y->type)
			return false;
	}
	for (size_t i = 0; i < a->nr_erased; i++) {
		if (a->erased[i].start != b->erased[i].start || a->erased[i].seq != b->erased[i].seq ||
		    a->erased[i].when != b->erased[i].when)
			return false;
	}
	return true;
}

/* Whether the cache for key opens and reads back as k's table, names copied or lent. */
static bool reads_back(struct kfixture *k, const struct kallsyms_key *key)
{
	bool same = true;

	for (int lend = 0; lend < 2 && same; lend++) {
		struct kallsyms_cache *c = kallsyms_cache__open(key);
		struct kallsyms_cache_info info;
		struct symtab t;

		if (!c)
			return false;
		same = !kallsyms_cache__fill(c, &t, &info, lend) && same_table(&k->tab, &t) &&
		       !memcmp(&info, &k->info, sizeof(info));
		/* lent names are the mapping's private copy: cutting one changes no file */
		if (same && lend && t.nr)
			((char *)t.syms[t.nr - 1].name)[0] = '\0';
		symtab__exit(&t);
		kallsyms_cache__close(c);
	}
	return same;
}

TEST(kallsyms_cache_roundtrip)
{
	struct kfixture k;

	if (kfixture__init(&k)) {
		kfixture__exit(&k);
		SKIP("no temporary directory, or no /proc/sys/kernel/random/boot_id");
	}
	/* the duplicate at _text was erased: the history travels too */
	CHECK_EQ(k.tab.nr, 5);
	CHECK_EQ(k.tab.nr_erased, 1);
	CHECK(kallsyms_cache__enabled());
	CHECK(kallsyms_cache__open(&k.key) == NULL);
	CHECK_EQ(kallsyms_cache__write(&k.key, &k.tab, &k.info), 0);
	CHECK(reads_back(&k, &k.key));
	kfixture__exit(&k);
}

TEST(kallsyms_cache_key_changes)
{
	struct kallsyms_key other;
	char path[256];
	struct kfixture k;

	if (kfixture__init(&k)) {
		kfixture__exit(&k);
		SKIP("no temporary directory, or no /proc/sys/kernel/random/boot_id");
	}
	CHECK_EQ(kallsyms_cache__write(&k.key, &k.tab, &k.info), 0);
	/* the same file read again: the same key */
	CHECK(!kallsyms_key__get(k.kallsyms, &other) && !memcmp(&other, &k.key, sizeof(other)));
	/* per-cpu 'A' symbols first (0 for anyone): the first text line is the one keyed */
	write_text(k.kallsyms, "0000000000000000 A fixed_percpu_data\n"
			       "ffffffff81000000 T _text\nffffffff81000100 T __x64_sys_write\n");
	CHECK(!kallsyms_key__get(k.kallsyms, &other) && !memcmp(&other, &k.key, sizeof(other)));
	/* addresses now hidden (kptr_restrict): another key, no table */
	write_text(k.kallsyms, "0000000000000000 T _text\n");
	CHECK(!kallsyms_key__get(k.kallsyms, &other) && memcmp(&other, &k.key, sizeof(other)));
	CHECK(kallsyms_cache__open(&other) == NULL);
	/* another boot, another module layout, another user: each its own key */
	other = k.key;
	other.boot_id[0] ^= 1;
	CHECK(kallsyms_cache__open(&other) == NULL);
	other = k.key;
	other.modules++;
	CHECK(kallsyms_cache__open(&other) == NULL);
	other = k.key;
	other.uid++;
	CHECK(kallsyms_cache__open(&other) == NULL);
	/* the new key's table replaces the stale one's file */
	CHECK_EQ(kallsyms_cache__write(&other, &k.tab, &k.info), 0);
	CHECK_EQ(cache_file(k.dir, path, sizeof(path)), 1);
	CHECK(reads_back(&k, &other));
	CHECK(kallsyms_cache__open(&k.key) == NULL);
	kfixture__exit(&k);
}

/* Rewrites byte off of the cache file (or truncates it to off when cut). */
static int damage(const char *path, off_t off, bool cut)
{
	int fd = open(path, O_RDWR), ret;
	unsigned char c;

	if (fd < 0)
		return -1;
	if (cut)
		ret = ftruncate(fd, off);
	else
		ret = pread(fd, &c, 1, off) == 1 && (c ^= 0x20, pwrite(fd, &c, 1, off) == 1) ? 0 : -1;
	close(fd);
	return ret;
}

TEST(kallsyms_cache_damaged)
{
	struct kfixture k;
	char path[256];
	struct stat st;
	/* magic, version, a symbol (past the ~300-byte header), a name's byte, the last NUL */
	const off_t flips[] = { 0, 8, 330, -2, -1 };

	if (kfixture__init(&k)) {
		kfixture__exit(&k);
		SKIP("no temporary directory, or no /proc/sys/kernel/random/boot_id");
	}
	for (size_t i = 0; i < sizeof(flips) / sizeof(flips[0]) + 3; i++) {
		bool cut = i >= sizeof(flips) / sizeof(flips[0]);
		off_t off;

		CHECK_EQ(kallsyms_cache__write(&k.key, &k.tab, &k.info), 0);
		if (cache_file(k.dir, path, sizeof(path)) != 1 || stat(path, &st)) {
			CHECK(!"one cache file");
			break;
		}
		CHECK(reads_back(&k, &k.key));
		if (cut) /* empty, mid-header, one byte short */
			off = (off_t[]){ 0, 20, st.st_size - 1 }[i - sizeof(flips) / sizeof(flips[0])];
		else
			off = flips[i] < 0 ? st.st_size + flips[i] : flips[i];
		CHECK_EQ(damage(path, off, cut), 0);
		if (kallsyms_cache__open(&k.key) != NULL) {
			fprintf(stderr, "  damage %zu at %lld: still used\n", i, (long long)off);
			CHECK(!"a damaged file is not used");
		}
	}
	/* and a rewrite makes it good again */
	CHECK_EQ(kallsyms_cache__write(&k.key, &k.tab, &k.info), 0);
	CHECK(reads_back(&k, &k.key));
	/* a file someone else owns is not trusted */
	if (geteuid() == 0 && cache_file(k.dir, path, sizeof(path)) == 1) {
		CHECK_EQ(chown(path, 65534, 65534), 0);
		CHECK(kallsyms_cache__open(&k.key) == NULL);
	}
	kfixture__exit(&k);
}

TEST(kallsyms_cache_unwritable)
{
	struct kfixture k;

	if (kfixture__init(&k)) {
		kfixture__exit(&k);
		SKIP("no temporary directory, or no /proc/sys/kernel/random/boot_id");
	}
	/* a directory that cannot be made, even by root */
	setenv(ENV, "/proc/ember-no-such-dir/kallsyms", 1);
	CHECK(kallsyms_cache__write(&k.key, &k.tab, &k.info) < 0);
	CHECK(kallsyms_cache__open(&k.key) == NULL);
	/* "" turns the cache off */
	setenv(ENV, "", 1);
	CHECK(!kallsyms_cache__enabled());
	CHECK(kallsyms_cache__write(&k.key, &k.tab, &k.info) < 0);
	/* neither the variable nor XDG_CACHE_HOME nor HOME: no cache, no failure */
	{
		char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
		char *xdg = getenv("XDG_CACHE_HOME") ? strdup(getenv("XDG_CACHE_HOME")) : NULL;

		unsetenv(ENV);
		unsetenv("HOME");
		unsetenv("XDG_CACHE_HOME");
		CHECK(!kallsyms_cache__enabled());
		CHECK(kallsyms_cache__open(&k.key) == NULL);
		/* a home that is not the caller's (root under sudo with a user's HOME): not written */
		setenv("HOME", k.dir, 1);
		CHECK(kallsyms_cache__enabled());
		if (geteuid() == 0 && !chown(k.dir, 65534, 65534)) {
			CHECK(!kallsyms_cache__enabled());
			CHECK(kallsyms_cache__write(&k.key, &k.tab, &k.info) < 0);
			CHECK_EQ(chown(k.dir, 0, 0), 0);
		}
		if (home)
			setenv("HOME", home, 1);
		if (xdg)
			setenv("XDG_CACHE_HOME", xdg, 1);
		free(home);
		free(xdg);
	}
	kfixture__exit(&k);
}

/*
 * What is cached is what a fresh read makes: [bpf] programs and ftrace or
 * kprobe trampolines, which come and go within a boot, are in neither
 * (names of any length). Here one sits inside a module's range, which a
 * real kernel never does, to show it: the module symbol below it runs on
 * to the next module symbol instead of stopping at it.
 */
TEST(kallsyms_volatile_symbols_left_out)
{
	char path[] = "/tmp/ember-kallsyms-XXXXXX";
	struct ember_symbol_opts opts = { .sz = sizeof(opts), .kallsyms = path, .buildid_dir = "" };
	struct ember_addr_location al;
	struct ember_machine *m;
	int fd = mkstemp(path);

	if (fd < 0)
		SKIP("cannot create a temporary file");
	close(fd);
	write_text(path, "ffffffff81000000 T _text\n"
			 "ffffffff81000100 T kernel_fn\n"
			 "ffffffff81000200 T _etext\n"
			 "ffffffffc0001000 t mod_init\t[my_mod]\n"
			 "ffffffffc0001040 T mod_work\t[my_mod]\n"
			 "ffffffffc0001080 t f\t[bpf]\n"
			 "ffffffffc0001100 t ftrace_trampoline\t[__builtin__ftrace]\n"
			 "ffffffffc0001180 t kp\t[__builtin__kprobes]\n"
			 "ffffffffc0005000 t other_fn\t[other]\n");
	m = ember_machine__new(&opts);
	if (!m) {
		unlink(path);
		SKIP("out of memory");
	}
	ember_machine__process_mmap(m, PERF_RECORD_MISC_KERNEL, -1, 0, 0xffffffff81000000ULL, 0x200,
				    0xffffffff81000000ULL, "[kernel.kallsyms]_text");
	ember_machine__process_mmap(m, PERF_RECORD_MISC_KERNEL, -1, 0, 0xffffffffc0001000ULL, 0x2000,
				    0, "[my_mod]");
	ember_machine__resolve(m, 0, 0, PERF_RECORD_MISC_KERNEL, 0xffffffffc0001080ULL, &al);
	CHECK_STR(al.sym_name, "mod_work");
	CHECK_EQ(al.sym_off, 0x40);
	ember_machine__resolve(m, 0, 0, PERF_RECORD_MISC_KERNEL, 0xffffffffc0001190ULL, &al);
	CHECK_STR(al.sym_name, "mod_work");
	ember_machine__resolve(m, 0, 0, PERF_RECORD_MISC_KERNEL, 0xffffffff81000110ULL, &al);
	CHECK_STR(al.sym_name, "kernel_fn");
	ember_machine__delete(m);
	unlink(path);
}
