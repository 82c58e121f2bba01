// SPDX-License-Identifier: GPL-2.0-only
/*
 * ELF symbols of the symbols-pie workload (built next to this binary):
 * every symbol found at its start, middle and last byte (where none
 * overlaps it), zero-size and
 * IFUNC symbols as perf treats them, file offsets ↔ virtual addresses.
 */
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ember/symbol.h>
#include "test.h"

static const struct ember_symbol *by_name(struct ember_dso *dso, const char *name)
{
	const struct ember_symbol *s;

	for (size_t i = 0; (s = ember_dso__symbol(dso, i)) != NULL; i++) {
		if (!strcmp(ember_symbol__name(s), name))
			return s;
	}
	return NULL;
}

/* Whether symbol idx shares an address with another (the table is sorted by start). */
static bool overlaps(struct ember_dso *dso, size_t idx)
{
	const struct ember_symbol *s = ember_dso__symbol(dso, idx), *o;
	uint64_t end = ember_symbol__end(s) > ember_symbol__start(s) ? ember_symbol__end(s) :
								       ember_symbol__start(s) + 1;

	for (size_t i = 0; i < idx; i++) {
		o = ember_dso__symbol(dso, i);
		if (ember_symbol__end(o) > ember_symbol__start(s))
			return true;
	}
	o = ember_dso__symbol(dso, idx + 1);
	return o && ember_symbol__start(o) < end;
}

static struct ember_dso *open_workload(char *buf, size_t size)
{
	struct ember_symbol_opts opts = { .sz = sizeof(opts), .buildid_dir = "" };
	const char *path = unit_workload_path("symbols-pie", buf, size);

	if (!path)
		return NULL;
	return ember_dso__open(path, &opts);
}

TEST(symbol_elf_every_symbol)
{
	char path[PATH_MAX];
	struct ember_dso *dso = open_workload(path, sizeof(path));
	const struct ember_symbol *s;
	int n, bad = 0;

	if (!dso)
		SKIP("no build/workloads/symbols-pie");
	n = ember_dso__load(dso);
	CHECK(n > 10);
	CHECK_STR(ember_dso__short_name(dso), "symbols-pie");
	for (size_t i = 0; (s = ember_dso__symbol(dso, i)) != NULL; i++) {
		uint64_t start = ember_symbol__start(s), end = ember_symbol__end(s);
		uint64_t last = end > start ? end - 1 : start;
		uint64_t at[3] = { start, start + (last - start) / 2, last };

		if (i > 0)
			bad += start < ember_symbol__start(ember_dso__symbol(dso, i - 1));
		for (int k = 0; k < 3; k++) {
			const struct ember_symbol *f = ember_dso__find_symbol(dso, at[k]);

			/*
			 * Where symbols overlap (_init stretched over the PLT
			 * entries) perf's tree picks one of them, or none.
			 */
			if (overlaps(dso, i))
				bad += f && (at[k] < ember_symbol__start(f) ||
					     at[k] >= ember_symbol__end(f));
			else
				bad += f != s;
		}
	}
	CHECK_EQ(bad, 0);
	ember_dso__delete(dso);
}

TEST(symbol_elf_known_functions)
{
	char path[PATH_MAX];
	struct ember_dso *dso = open_workload(path, sizeof(path));
	const struct ember_symbol *alpha, *beta, *zero, *ifunc, *table;

	if (!dso)
		SKIP("no build/workloads/symbols-pie");
	alpha = by_name(dso, "sym_alpha");
	beta = by_name(dso, "sym_beta");
	zero = by_name(dso, "sym_zero");
	ifunc = by_name(dso, "sym_ifunc");
	table = by_name(dso, "sym_table");
	CHECK(alpha && beta && zero && ifunc && table && by_name(dso, "sym_local"));
	if (!alpha || !beta || !zero || !ifunc || !table)
		goto out;
	CHECK_EQ(ember_symbol__type(alpha), STT_FUNC);
	CHECK_EQ(ember_symbol__binding(alpha), STB_GLOBAL);
	CHECK_EQ(ember_symbol__type(ifunc), STT_GNU_IFUNC);
	CHECK_EQ(ember_symbol__type(table), STT_OBJECT);
	/* The resolver shares sym_ifunc's address; the global name wins, as in perf. */
	CHECK(by_name(dso, "resolve_sym_ifunc") == NULL);
	/* sym_zero has st_size 0: extended up to the next symbol, sym_alpha. */
	CHECK_EQ(ember_symbol__end(zero), ember_symbol__start(alpha));
	CHECK(ember_dso__find_symbol(dso, ember_symbol__start(alpha) - 1) == zero);
	/* PIE: .text's file offsets equal its addresses; round trips hold. */
	CHECK_EQ(ember_dso__addr_to_vaddr(dso, ember_symbol__start(beta)),
		 ember_dso__vaddr_to_addr(dso, ember_dso__addr_to_vaddr(dso, ember_symbol__start(beta))));
	CHECK_EQ(ember_dso__vaddr_to_addr(dso, ember_dso__addr_to_vaddr(dso, ember_symbol__start(table))),
		 ember_symbol__start(table));
	CHECK(ember_dso__symsrc_path(dso) && !strcmp(ember_dso__symsrc_path(dso), path));
out:
	ember_dso__delete(dso);
}

TEST(symbol_elf_build_id)
{
	char path[PATH_MAX];
	struct ember_dso *dso = open_workload(path, sizeof(path));
	uint8_t bid[EMBER_BUILD_ID_MAX];

	if (!dso)
		SKIP("no build/workloads/symbols-pie");
	ember_dso__load(dso);
	/* Debian's gcc links with --build-id (sha1: 20 bytes). */
	CHECK_EQ(ember_dso__build_id(dso, bid), 20);
	ember_dso__delete(dso);
}

TEST(symbol_elf_missing_and_garbage)
{
	struct ember_dso *dso = ember_dso__open("/nonexistent/binary", NULL);
	char tmp[] = "/tmp/ember-garbage-XXXXXX";
	int fd;

	CHECK(dso != NULL);
	if (dso) {
		CHECK_EQ(ember_dso__load(dso), -ENOENT);
		CHECK(ember_dso__find_symbol(dso, 0x1000) == NULL);
		ember_dso__delete(dso);
	}
	fd = mkstemp(tmp);
	if (fd < 0)
		SKIP("cannot create a temporary file");
	CHECK(write(fd, "\177ELF garbage, not an ELF file", 29) == 29);
	close(fd);
	dso = ember_dso__open(tmp, NULL);
	CHECK(dso && ember_dso__load(dso) < 0);
	ember_dso__delete(dso);
	unlink(tmp);
}
