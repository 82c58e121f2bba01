// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A definition's places in a user binary from its symbol table, as perf
 * probe finds them when it has no debug information: the function
 * symbols (.symtab, .dynsym, the synthesized name@plt entries) whose
 * names match, at their file offsets (lib/symbol turns symbol values
 * into file offsets through the PT_LOAD segment holding them, as perf
 * does), in address order.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <ember/event.h>
#include <ember/symbol.h>
#include "probe/probe-priv.h"

/* perf probes functions only: not the data objects and labels a dso also holds. */
static bool is_function(const struct ember_symbol *sym)
{
	int type = ember_symbol__type(sym);

	return type == STT_FUNC || type == STT_GNU_IFUNC;
}

/* The name perf matches: the version ("@GLIBC_2.2.5", "@@...") cut unless the pattern has one. */
static bool name_matches(const char *pattern, const char *name, bool cut_version)
{
	char buf[1024];
	const char *at = cut_version ? strchr(name, '@') : NULL;

	if (at) {
		size_t n = (size_t)(at - name);

		if (n >= sizeof(buf))
			return false;
		memcpy(buf, name, n);
		buf[n] = '\0';
		name = buf;
	}
	return ember_glob_match(pattern, name);
}

void probe_trace__set_args(struct ember_probe_trace *t, const struct ember_probe_def *def)
{
	t->nr_args = def->nr_args;
	for (unsigned int i = 0; i < def->nr_args; i++) {
		t->args[i].name = def->args[i].name;
		t->args[i].value = def->args[i].var;
		t->args[i].type = def->args[i].type;
	}
}

static void set_place(struct ember_probe_trace *t, const struct ember_probe_def *def,
		      const char *path, const struct ember_symbol *sym)
{
	const char *name = ember_symbol__name(sym);

	memset(t, 0, sizeof(*t));
	t->uprobe = true;
	t->retprobe = def->retprobe;
	t->target = path;
	t->offset = ember_symbol__start(sym) + def->offset;
	if (strlen(name) < sizeof(t->event))
		strcpy(t->event, name);
	probe_trace__set_args(t, def);
}

int ember_probe__resolve_uprobe(const struct ember_probe_def *def, const char *path,
				struct ember_probe_trace *out, size_t max)
{
	/* every name of an address, as perf probe sees them ("free" beside "__libc_free") */
	struct ember_symbol_opts opts = {
		.sz = sizeof(opts), .kallsyms = "", .allow_aliases = true,
	};
	bool cut_version;
	uint64_t last_start = 0;
	struct ember_dso *dso;
	size_t found = 0, nr = 0;
	int n, ret;

	if (!def->function)
		return -EINVAL;
	/* an address is a file offset as it is, named after itself (perf's abs_ADDR) */
	if (def->abs) {
		if (!max)
			return -E2BIG;
		memset(out, 0, sizeof(*out));
		out->uprobe = true;
		out->retprobe = def->retprobe;
		out->target = path;
		out->offset = def->abs_address;
		snprintf(out->event, sizeof(out->event), "abs_%llx",
			 (unsigned long long)def->abs_address);
		probe_trace__set_args(out, def);
		return 1;
	}
	cut_version = !strchr(def->function, '@');
	dso = ember_dso__open(path, &opts);
	if (!dso)
		return -errno;
	n = ember_dso__load(dso);
	if (n < 0) {
		ret = n;
		goto out;
	}
	if (n == 0) {
		ret = -ENODATA;
		goto out;
	}
	/*
	 * Count first: perf refuses more matches than --max-probes, it does not
	 * cut them. Places, not names: a function in .symtab and .dynsym, or
	 * under two names, is one.
	 */
	for (int i = 0; i < n; i++) {
		const struct ember_symbol *sym = ember_dso__symbol(dso, (size_t)i);

		if (!sym || !is_function(sym) ||
		    !name_matches(def->function, ember_symbol__name(sym), cut_version))
			continue;
		if (!found || ember_symbol__start(sym) != last_start)
			found++;
		last_start = ember_symbol__start(sym);
	}
	if (!found) {
		ret = -ENOENT;
		goto out;
	}
	if (found > max) {
		ret = -E2BIG;
		goto out;
	}
	for (int i = 0; i < n; i++) {
		const struct ember_symbol *sym = ember_dso__symbol(dso, (size_t)i);
		uint64_t start;

		if (!sym || !is_function(sym) ||
		    !name_matches(def->function, ember_symbol__name(sym), cut_version))
			continue;
		start = ember_symbol__start(sym);
		/* aliases at one address are one place */
		if (nr && start == last_start)
			continue;
		if (def->offset > ember_symbol__end(sym) - start) {
			ret = -ERANGE;
			goto out;
		}
		set_place(&out[nr++], def, path, sym);
		last_start = start;
	}
	ret = (int)nr;
out:
	ember_dso__delete(dso);
	return ret;
}

int probe__symbol_start(const char *path, const char *name, uint64_t *start)
{
	struct ember_symbol_opts opts = {
		.sz = sizeof(opts), .kallsyms = "", .allow_aliases = true,
	};
	struct ember_dso *dso = ember_dso__open(path, &opts);
	int n, ret = -ENOENT;

	if (!dso)
		return -errno;
	n = ember_dso__load(dso);
	for (int i = 0; i < n && ret; i++) {
		const struct ember_symbol *sym = ember_dso__symbol(dso, (size_t)i);

		const char *s = sym ? ember_symbol__name(sym) : "";
		size_t len = strlen(name);

		/* its version cut, as perf names .dynsym's symbols; a PLT entry is not the function */
		if (sym && ember_symbol__start(sym) && !strncmp(s, name, len) &&
		    (!s[len] || (s[len] == '@' && strcmp(s + len, "@plt")))) {
			*start = ember_symbol__start(sym);
			ret = 0;
		}
	}
	ember_dso__delete(dso);
	return ret;
}
