// SPDX-License-Identifier: GPL-2.0-only
/*
 * Symbol sources other than ELF files: kallsyms (given as a file here, so
 * the test knows its content), /tmp/perf-PID.map for JIT code, and the
 * demangler on names whose demangling perf 6.1 prints.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <linux/perf_event.h>
#include <ember/ember.h>
#include <ember/machine.h>
#include "symbol/demangle.h"
#include "test.h"

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

TEST(symbol_kallsyms_file)
{
	char path[] = "/tmp/ember-kallsyms-XXXXXX";
	struct ember_symbol_opts opts = { .sz = sizeof(opts), .kallsyms = path, .buildid_dir = "" };
	struct ember_addr_location al;
	struct ember_machine *m;
	int fd = mkstemp(path);

	if (fd < 0)
		SKIP("cannot create a temporary file");
	close(fd);
	write_file(path, "ffffffff81000000 T _text\n"
			 "ffffffff81000000 T _stext\n"
			 "ffffffff81000000 t startup_64\n"
			 "ffffffff81000100 T __x64_sys_write\n"
			 "ffffffff81000180 r not_text_rodata\n"
			 "ffffffff81000200 W weak_fn\n"
			 "ffffffff81000300 T _etext\n"
			 "ffffffff81000400 D some_data\n"
			 "ffffffffa0000000 t bpf_prog_aa_x\t[bpf]\n");
	m = ember_machine__new(&opts);
	CHECK(m && ember_machine__create_kernel_maps(m) == 0);
	if (!m)
		goto out;
	/* Three names at _text: perf keeps the one with fewest leading underscores. */
	ember_machine__resolve(m, 0, 0, PERF_RECORD_MISC_KERNEL, 0xffffffff81000010ULL, &al);
	CHECK_STR(al.sym_name, "startup_64");
	CHECK_STR(al.dso_name, "[kernel.kallsyms]");
	ember_machine__resolve(m, 0, 0, PERF_RECORD_MISC_KERNEL, 0xffffffff81000100ULL, &al);
	CHECK_STR(al.sym_name, "__x64_sys_write");
	CHECK_EQ(al.sym_off, 0);
	/* 'r' symbols are not kept: __x64_sys_write runs up to weak_fn. */
	ember_machine__resolve(m, 0, 0, PERF_RECORD_MISC_KERNEL, 0xffffffff810001f0ULL, &al);
	CHECK_STR(al.sym_name, "__x64_sys_write");
	CHECK_EQ(al.sym_off, 0xf0);
	ember_machine__resolve(m, 0, 0, PERF_RECORD_MISC_KERNEL, 0xffffffff81000200ULL, &al);
	CHECK_STR(al.sym_name, "weak_fn");
	/*
	 * The kernel map ends at _etext, but like perf's view through kcore an
	 * address above it that a kernel symbol covers (init text) resolves;
	 * one that none covers has no map; module symbols without a module
	 * are dropped.
	 */
	ember_machine__resolve(m, 0, 0, PERF_RECORD_MISC_KERNEL, 0xffffffff81000300ULL, &al);
	CHECK_STR(al.sym_name, "_etext");
	CHECK_STR(al.dso_name, "[kernel.kallsyms]");
	ember_machine__resolve(m, 0, 0, PERF_RECORD_MISC_KERNEL, 0xffffffff90000000ULL, &al);
	CHECK(al.map == NULL);
	ember_machine__resolve(m, 0, 0, PERF_RECORD_MISC_KERNEL, 0xffffffffa0000000ULL, &al);
	CHECK(al.sym == NULL);
	ember_machine__delete(m);

	/* kptr_restrict: every address reads as zero. */
	write_file(path, "0000000000000000 T _text\n0000000000000000 T __x64_sys_write\n");
	m = ember_machine__new(&opts);
	if (m) {
		struct ember_log old = ember_set_log(NULL, NULL);

		ember_machine__resolve(m, 0, 0, PERF_RECORD_MISC_KERNEL, 0xffffffff81000100ULL, &al);
		ember_set_log(old.fn, old.ctx);
		/* As perf: the kernel map covers everything, there are no symbols. */
		CHECK(al.map != NULL && al.sym == NULL);
		CHECK_EQ(ember_dso__load(al.dso), -EACCES);
		ember_machine__delete(m);
	}
out:
	unlink(path);
}

TEST(symbol_kallsyms_modules)
{
	char path[] = "/tmp/ember-kallsyms-XXXXXX";
	struct ember_symbol_opts opts = { .sz = sizeof(opts), .kallsyms = path, .buildid_dir = "" };
	struct ember_addr_location al;
	struct ember_machine *m;
	int fd = mkstemp(path);

	if (fd < 0)
		SKIP("cannot create a temporary file");
	close(fd);
	write_file(path, "ffffffff81000000 T _text\n"
			 "ffffffff81000100 T kernel_fn\n"
			 "ffffffff81000200 T _etext\n"
			 "ffffffffc0001000 t mod_init\t[my_mod]\n"
			 "ffffffffc0001040 T mod_work\t[my_mod]\n"
			 "ffffffffc0005000 t other_fn\t[other]\n");
	m = ember_machine__new(&opts);
	if (!m) {
		unlink(path);
		SKIP("out of memory");
	}
	/* As perf record synthesizes them: the kernel, then a module by path. */
	ember_machine__process_mmap(m, PERF_RECORD_MISC_KERNEL, -1, 0, 0xffffffff81000000ULL, 0x200,
				    0xffffffff81000000ULL, "[kernel.kallsyms]_text");
	ember_machine__process_mmap(m, PERF_RECORD_MISC_KERNEL, -1, 0, 0xffffffffc0001000ULL, 0x2000,
				    0, "/lib/modules/6.18/kernel/drivers/my-mod.ko.zst");
	ember_machine__resolve(m, 0, 0, PERF_RECORD_MISC_KERNEL, 0xffffffffc0001050ULL, &al);
	CHECK_STR(al.dso_name, "[my_mod]");
	CHECK_STR(al.sym_name, "mod_work");
	CHECK_EQ(al.sym_off, 0x10);
	/* Module maps are relative to their start, as in perf. */
	CHECK_EQ(al.addr, 0x50);
	ember_machine__resolve(m, 0, 0, PERF_RECORD_MISC_KERNEL, 0xffffffffc0001000ULL, &al);
	CHECK_STR(al.sym_name, "mod_init");
	ember_machine__resolve(m, 0, 0, PERF_RECORD_MISC_KERNEL, 0xffffffff81000110ULL, &al);
	CHECK_STR(al.sym_name, "kernel_fn");
	/* No map for the other module: its symbols are dropped, the address unmapped. */
	ember_machine__resolve(m, 0, 0, PERF_RECORD_MISC_KERNEL, 0xffffffffc0005000ULL, &al);
	CHECK(al.map == NULL);
	ember_machine__delete(m);
	unlink(path);
}

TEST(symbol_perf_map)
{
	struct ember_symbol_opts opts = { .sz = sizeof(opts), .buildid_dir = "", .kallsyms = "" };
	pid_t pid = 2000000000; /* above pid_max: no real process owns the file */
	struct ember_addr_location al;
	struct ember_machine *m;
	char path[64];

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", pid);
	if (write_file(path, "7f0000001000 40 jit_one\n"
			     "0x7f0000002000 0x20 jit_two with spaces\n"
			     "7f0000003000 10 ab\n"
			     "garbage line\n"
			     "7f0000004000 0 jit_point\n"))
		SKIP("cannot write /tmp/perf-PID.map");
	m = ember_machine__new(&opts);
	if (!m) {
		unlink(path);
		SKIP("out of memory");
	}
	ember_machine__process_mmap2(m, PERF_RECORD_MISC_USER, pid, pid, 0x7f0000000000ULL,
				     0x10000, 0, PROT_READ | PROT_EXEC, MAP_PRIVATE, "//anon", NULL);
	ember_machine__resolve(m, pid, pid, PERF_RECORD_MISC_USER, 0x7f0000001010ULL, &al);
	CHECK_STR(al.sym_name, "jit_one");
	CHECK_EQ(al.sym_off, 0x10);
	ember_machine__resolve(m, pid, pid, PERF_RECORD_MISC_USER, 0x7f0000001040ULL, &al);
	CHECK(al.sym == NULL);
	ember_machine__resolve(m, pid, pid, PERF_RECORD_MISC_USER, 0x7f000000201fULL, &al);
	CHECK_STR(al.sym_name, "jit_two with spaces");
	/* perf ignores names shorter than three characters. */
	ember_machine__resolve(m, pid, pid, PERF_RECORD_MISC_USER, 0x7f0000003000ULL, &al);
	CHECK(al.sym == NULL);
	/* No fix-up of zero sizes in JIT maps: the start only. */
	ember_machine__resolve(m, pid, pid, PERF_RECORD_MISC_USER, 0x7f0000004000ULL, &al);
	CHECK_STR(al.sym_name, "jit_point");
	ember_machine__resolve(m, pid, pid, PERF_RECORD_MISC_USER, 0x7f0000004001ULL, &al);
	CHECK(al.sym == NULL);
	CHECK_STR(al.dso_short_name, "[JIT] tid 2000000000");
	ember_machine__delete(m);
	unlink(path);
}

TEST(symbol_demangle)
{
	struct {
		const char *mangled, *name, *params;
	} cases[] = {
		/* C++: perf shows no parameters unless -v. */
		{ "_ZN2ns1K4spinEi", "ns::K::spin", "ns::K::spin(int)" },
		{ "_ZNSt6vectorIiSaIiEE9push_backERKi", "std::vector<int, std::allocator<int> >::push_back",
		  "std::vector<int, std::allocator<int> >::push_back(int const&)" },
		{ "_ZN9__gnu_cxx13new_allocatorIcED2Ev", "__gnu_cxx::new_allocator<char>::~new_allocator",
		  "__gnu_cxx::new_allocator<char>::~new_allocator()" },
		/* Rust legacy: the hash goes, $LT$/$GT$ become < >. */
		{ "_ZN1r5inner10W$LT$T$GT$4spin17he69291165b41ff15E", "r::inner::W<T>::spin",
		  "r::inner::W<T>::spin" },
		{ "_ZN4core3fmt9Formatter3pad17h0123456789abcdefE", "core::fmt::Formatter::pad",
		  "core::fmt::Formatter::pad" },
		/* Rust v0, as perf 6.1 prints it. */
		{ "_RNvMNtCs6GmmlP4bgsG_1r5innerINtB2_1WmE4spinB4_", "<r::inner::W<u32>>::spin",
		  "<r::inner::W<u32>>::spin" },
		{ "_RNvCs1234_7mycrate4main", "mycrate::main", "mycrate::main" },
	};

	if (!demangle__available())
		SKIP("built without libiberty (needs -DHAVE_LIBIBERTY and -liberty)");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *a = ember_demangle(cases[i].mangled, false);
		char *b = ember_demangle(cases[i].mangled, true);

		CHECK_STR(a, cases[i].name);
		CHECK_STR(b, cases[i].params);
		free(a);
		free(b);
	}
	/* C names and garbage are not mangled. */
	CHECK(ember_demangle("main", false) == NULL);
	CHECK(ember_demangle("_Z", false) == NULL);
	CHECK(ember_demangle("_ZN3foo", false) == NULL);
	CHECK(ember_demangle("_RNvC", false) == NULL);
	CHECK(ember_demangle("", false) == NULL);
	CHECK(demangle_sym("_ZN2ns1K4spinEi", DEMANGLE_NONE) == NULL);
}
