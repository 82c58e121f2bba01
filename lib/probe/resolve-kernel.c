// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A definition's places in the running kernel from kallsyms, as perf
 * probe finds them without the kernel's debug information: the function
 * symbols (text and weak, not a module's) whose names match, in address
 * order, an alias at an address already taken left out; each written
 * against the relocation symbol _text ("_text+7045680"), which
 * kprobe_events resolves whatever KASLR did, and a return probe against
 * its function ("vfs_read+0"), as perf writes them; and back, the
 * symbol holding a kprobe's place, as perf -l names it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ember/event.h>
#include <ember/probe.h>
#include "core/array.h"
#include "probe/probe-priv.h"

struct ksym {
	uint64_t addr;
	size_t idx;		/* the file's order: aliases keep it */
	char *name;
	bool func;
};

struct ksyms {
	struct ksym *syms;
	size_t nr, cap;
	uint64_t text;		/* _text, 0 unknown */
};

/* The symbols perf loads from kallsyms (T, W, D, B of either case), and _text. */
static int add_ksym(uint64_t addr, int type, const char *name, void *arg)
{
	struct ksyms *k = arg;
	int up = toupper(type);

	if ((up != 'T' && up != 'W' && up != 'D' && up != 'B') || strchr(name, '\t'))
		return 0;
	if (!k->text && !strcmp(name, "_text"))
		k->text = addr;
	if (array__reserve((void **)&k->syms, &k->cap, k->nr, sizeof(*k->syms)))
		return -ENOMEM;
	k->syms[k->nr].name = strdup(name);
	if (!k->syms[k->nr].name)
		return -ENOMEM;
	k->syms[k->nr].addr = addr;
	k->syms[k->nr].idx = k->nr;
	k->syms[k->nr].func = up == 'T' || up == 'W';
	k->nr++;
	return 0;
}

static int cmp_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/*
 * kallsyms (NULL: /proc/kallsyms) read into k, sorted by address. 0;
 * -EACCES (addresses hidden by kptr_restrict: _text at 0), -ENODATA (no
 * _text), -ENOMEM, -errno. Free with ksyms__exit() in any case.
 */
static int ksyms__load(struct ksyms *k, const char *kallsyms)
{
	int ret = probe__kallsyms_walk(kallsyms ? kallsyms : "/proc/kallsyms", add_ksym, k);

	if (ret)
		return ret;
	/* addresses hidden (kptr_restrict) or no relocation symbol: nothing to write against */
	if (!k->text)
		return k->nr ? -EACCES : -ENODATA;
	if (k->nr)
		qsort(k->syms, k->nr, sizeof(*k->syms), cmp_ksym);
	return 0;
}

static void ksyms__exit(struct ksyms *k)
{
	for (size_t i = 0; i < k->nr; i++)
		free(k->syms[i].name);
	free(k->syms);
}

/* The size perf gives symbol i: up to the next symbol at a higher address. */
static uint64_t ksym_size(const struct ksyms *k, size_t i)
{
	for (size_t j = i + 1; j < k->nr; j++)
		if (k->syms[j].addr > k->syms[i].addr)
			return k->syms[j].addr - k->syms[i].addr;
	return UINT64_MAX;
}

/* Place i of def at s (with its name in event, the caller's base for naming). */
static int set_kplace(struct ember_probe_trace *t, const struct ember_probe_def *def,
		      const struct ksyms *k, const struct ksym *s)
{
	memset(t, 0, sizeof(*t));
	t->retprobe = def->retprobe;
	if (def->retprobe) {
		/* a return probe takes no offset: its function, which t owns */
		t->buf = strdup(s->name);
		if (!t->buf)
			return -ENOMEM;
		t->target = t->buf;
		t->offset = def->offset;
	} else {
		t->target = "_text";
		t->offset = s->addr + def->offset - k->text;
	}
	if (strlen(s->name) < sizeof(t->event))
		strcpy(t->event, s->name);
	probe_trace__set_args(t, def);
	return 0;
}

int ember_probe__resolve_kprobe(const struct ember_probe_def *def, const char *kallsyms,
				struct ember_probe_trace *out, size_t max)
{
	struct ksyms k = { 0 };
	size_t found = 0, nr = 0;
	uint64_t last = 0;
	int ret;

	if (!def->function || def->abs)
		return -EINVAL;
	ret = ksyms__load(&k, kallsyms);
	if (ret)
		goto out;
	/* count first: perf refuses more places than --max-probes, it does not cut them */
	for (size_t i = 0; i < k.nr; i++) {
		if (!k.syms[i].func || !ember_glob_match(def->function, k.syms[i].name))
			continue;
		if (!found || k.syms[i].addr != last)
			found++;
		last = k.syms[i].addr;
	}
	ret = !found ? -ENOENT : found > max ? -E2BIG : 0;
	for (size_t i = 0; i < k.nr && !ret; i++) {
		const struct ksym *s = &k.syms[i];

		if (!s->func || !ember_glob_match(def->function, s->name) || (nr && s->addr == last))
			continue;
		if (def->offset > ksym_size(&k, i)) {
			ret = -ERANGE;
			break;
		}
		ret = set_kplace(&out[nr], def, &k, s);
		if (!ret)
			nr++;
		last = s->addr;
	}
	if (ret)
		for (size_t i = 0; i < nr; i++)
			ember_probe_trace__exit(&out[i]);
out:
	ksyms__exit(&k);
	return ret ? ret : (int)nr;
}

int ember_probe__kernel_point(const char *kallsyms, const char *sym, uint64_t off, char *buf,
			      size_t size, uint64_t *offset)
{
	struct ksyms k = { 0 };
	uint64_t addr = 0;
	size_t at = SIZE_MAX;
	int ret = ksyms__load(&k, kallsyms);

	for (size_t i = 0; !ret && i < k.nr; i++) {
		if (!strcmp(k.syms[i].name, sym)) {
			addr = k.syms[i].addr + off;
			break;
		}
	}
	if (!ret && !addr)
		ret = -ENOENT;
	/* the last symbol at or below addr, the first of its aliases (file order) */
	for (size_t i = 0; !ret && i < k.nr && k.syms[i].addr <= addr; i++)
		if (at == SIZE_MAX || k.syms[i].addr != k.syms[at].addr)
			at = i;
	if (!ret && (at == SIZE_MAX || addr - k.syms[at].addr >= ksym_size(&k, at)))
		ret = -ENOENT;
	if (!ret) {
		snprintf(buf, size, "%s", k.syms[at].name);
		*offset = addr - k.syms[at].addr;
	}
	ksyms__exit(&k);
	return ret;
}
