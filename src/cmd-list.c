// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember list: the symbolic events this machine has, in perf list 6.1's
 * layout ("  %-50s [category]"), order and filters; or as JSON (-j), or
 * as the space-separated names shell completion reads (--raw-dump).
 */
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ember/event.h>
#include "builtin.h"
#include "util/parse-options.h"

#define CAT_HW		"Hardware event"
#define CAT_SW		"Software event"
#define CAT_TOOL	"Tool event"
#define CAT_CACHE	"Hardware cache event"
#define CAT_PMU		"Kernel PMU event"
#define CAT_RAW		"Raw hardware event descriptor"
#define CAT_BP		"Hardware breakpoint"
#define CAT_TP		"Tracepoint event"
#define CAT_SDT		"SDT event"

struct list_opts {
	bool desc, long_desc, debug, deprecated, details, json, raw_dump;
	const char *cputype;
};

/* Where and how events are printed. */
struct printer {
	const struct list_opts *opts;
	FILE *fp;
	bool need_sep;		/* JSON: an object was printed */
	bool tp_warned;		/* why tracepoints cannot be listed was said */
};

/* A growable list of owned strings. */
struct names {
	char **v;
	int nr, alloc;
};

static int names_add(struct names *n, const char *s)
{
	if (n->nr == n->alloc) {
		int alloc = n->alloc ? 2 * n->alloc : 64;
		char **grown = realloc(n->v, alloc * sizeof(*grown));

		if (!grown)
			return -1;
		n->v = grown;
		n->alloc = alloc;
	}
	if (!(n->v[n->nr] = strdup(s)))
		return -1;
	n->nr++;
	return 0;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void names_sort(struct names *n)
{
	if (n->nr)
		qsort(n->v, n->nr, sizeof(*n->v), str_cmp);
}

static void names_free(struct names *n)
{
	for (int i = 0; i < n->nr; i++)
		free(n->v[i]);
	free(n->v);
	memset(n, 0, sizeof(*n));
}

static void json_field(FILE *fp, bool *first, const char *key, const char *val)
{
	fprintf(fp, "%s\t\"%s\": \"", *first ? "" : ",\n", key);
	for (const char *c = val; *c; c++) {
		if (*c == '"' || *c == '\\')
			fputc('\\', fp);
		if (*c == '\n')
			fputs("\\n", fp);
		else
			fputc(*c, fp);
	}
	fputc('"', fp);
	*first = false;
}

/*
 * One event. name is what -e takes, alias its other spelling (may be
 * NULL), unit the PMU it belongs to (JSON only, may be NULL).
 */
static void print_event(struct printer *pr, const char *unit, const char *name,
			const char *alias, const char *category)
{
	FILE *fp = pr->fp;
	bool first = true;

	if (pr->opts->raw_dump) {
		fprintf(fp, "%s ", name);
		return;
	}
	if (!pr->opts->json) {
		char both[256];

		if (alias)
			snprintf(both, sizeof(both), "%s OR %s", name, alias);
		fprintf(fp, "  %-50s [%s]\n", alias ? both : name, category);
		return;
	}
	/* The layout of later perf's `perf list -j`. */
	fprintf(fp, "%s{\n", pr->need_sep ? ",\n" : "");
	pr->need_sep = true;
	if (unit)
		json_field(fp, &first, "Unit", unit);
	json_field(fp, &first, "EventName", name);
	if (alias)
		json_field(fp, &first, "EventAlias", alias);
	json_field(fp, &first, "EventType", category);
	fprintf(fp, "\n}");
}

struct pmu_glob {
	struct printer *pr;
	const char *glob;
};

static bool glob_ok(const char *glob, const char *s)
{
	return !glob || (s && ember_glob_match(glob, s));
}

/* Hardware or software symbols the kernel opens, sorted as "name OR alias". */
static void print_symbols(struct printer *pr, uint32_t type, const char *glob)
{
	size_t nr;
	const struct ember_event_symbol *syms = ember_event_symbols(type, &nr);
	struct names list = { 0 };
	char buf[256];

	for (size_t i = 0; i < nr; i++) {
		if (!glob_ok(glob, syms[i].name) &&
		    !(syms[i].alias && glob_ok(glob, syms[i].alias)))
			continue;
		if (!ember_event__is_supported(type, syms[i].config))
			continue;
		if (syms[i].alias)
			snprintf(buf, sizeof(buf), "%s OR %s", syms[i].name, syms[i].alias);
		else
			snprintf(buf, sizeof(buf), "%s", syms[i].name);
		if (names_add(&list, buf))
			break;
	}
	names_sort(&list);
	for (int i = 0; i < list.nr; i++) {
		char *alias = strstr(list.v[i], " OR ");

		if (alias) {
			*alias = '\0';
			alias += 4;
		}
		print_event(pr, NULL, list.v[i], alias,
			    type == PERF_TYPE_HARDWARE ? CAT_HW : CAT_SW);
	}
	names_free(&list);
}

static void print_tools(struct printer *pr, const char *glob)
{
	for (int t = EMBER_TOOL_NONE + 1; t < EMBER_TOOL_MAX; t++) {
		const char *name = ember_tool_event__name(t);

		if (glob_ok(glob, name))
			print_event(pr, EMBER_TOOL_PMU, name, NULL, CAT_TOOL);
	}
}

static void print_hwcache(struct printer *pr, const char *glob)
{
	struct names list = { 0 };
	char name[64];

	for (unsigned int c = 0; c < PERF_COUNT_HW_CACHE_MAX; c++) {
		for (unsigned int op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
			if (!ember_hw_cache__op_valid(c, op))
				continue;
			for (unsigned int r = 0; r < PERF_COUNT_HW_CACHE_RESULT_MAX; r++) {
				uint64_t config = c | op << 8 | r << 16;

				ember_hw_cache__name(config, name, sizeof(name));
				if (!glob_ok(glob, name) ||
				    !ember_event__is_supported(PERF_TYPE_HW_CACHE, config))
					continue;
				if (names_add(&list, name))
					goto out;
			}
		}
	}
out:
	names_sort(&list);
	for (int i = 0; i < list.nr; i++)
		print_event(pr, NULL, list.v[i], NULL, CAT_CACHE);
	names_free(&list);
}

static int print_pmu_alias(const char *pmu, const char *alias, bool core, void *arg)
{
	const struct pmu_glob *pg = arg;
	struct printer *pr = pg->pr;
	char full[512];

	if (core)
		snprintf(full, sizeof(full), "%s", alias);
	else
		snprintf(full, sizeof(full), "%s/%s/", pmu, alias);
	if (pg->glob && !ember_glob_match_nocase(pg->glob, full) &&
	    !(!core && ember_glob_match_nocase(pg->glob, alias)))
		return 0;
	if (pr->opts->json)
		print_event(pr, pmu, alias, full, CAT_PMU);
	else
		print_event(pr, pmu, full, NULL, CAT_PMU);
	return 0;
}

/* The events/ aliases of every PMU: "msr/tsc/", or the bare name on the core PMU. */
static void print_pmu_aliases(struct printer *pr, const char *glob)
{
	struct pmu_glob pg = { pr, glob };

	ember_pmu__for_each_event(NULL, print_pmu_alias, &pg);
}

static int collect_tp(const char *sys, const char *name, uint64_t id, void *arg)
{
	char full[512];

	snprintf(full, sizeof(full), "%s:%s", sys, name);
	return names_add(arg, full) ? 1 : 0;
}

/*
 * perf lists nothing, silently, when tracefs cannot be read; ember says why
 * once on stderr (stdout stays perf's list), and what would allow it.
 */
static void tracepoints_unreadable(struct printer *pr, const char *root, int err)
{
	if (pr->tp_warned)
		return;
	pr->tp_warned = true;
	if (err == -EACCES)
		fprintf(stderr, "ember list: tracepoints not listed: no permission to read %s/events "
			"(tracefs is readable by root only); run as root, or make it readable: "
			"'sudo mount -o remount,mode=755 %s'\n", root, root);
	else if (err == -EPERM || err == -ENOENT)
		fprintf(stderr, "ember list: tracepoints not listed: tracefs is not mounted and "
			"only root may mount it; as root: 'mount -t tracefs nodev %s'\n", root);
	else
		fprintf(stderr, "ember list: tracepoints not listed: cannot read %s/events: %s\n",
			root, strerror(-err));
}

static void print_tracepoints(struct printer *pr, const char *sys_glob, const char *evt_glob)
{
	struct names list = { 0 };
	char root[4096] = "/sys/kernel/tracing";
	int err;

	err = ember_tracefs__find(root, sizeof(root));
	if (!err)
		err = ember_tracefs__for_each_event(root, sys_glob, evt_glob, 0, collect_tp, &list);
	if (err < 0)
		tracepoints_unreadable(pr, root, err);
	names_sort(&list);
	for (int i = 0; i < list.nr; i++)
		print_event(pr, NULL, list.v[i], NULL, CAT_TP);
	names_free(&list);
}

struct sdt_filter {
	const char *group_glob, *event_glob;
	struct names *list;
};

static int collect_sdt(const char *group, const char *event, const char *build_id,
		       const char *path, void *arg)
{
	struct sdt_filter *f = arg;
	char key[8192];

	if (!glob_ok(f->group_glob, group) || !glob_ok(f->event_glob, event))
		return 0;
	/* Sorted on "group:event@build-id"; the path rides along after a tab. */
	snprintf(key, sizeof(key), "%s:%s@%s\t%s", group, event, build_id,
		 path ? path : "(null)");
	return names_add(f->list, key) ? 1 : 0;
}

/*
 * SDT events from perf's build-id cache. A name cached for several
 * binaries is shown as "group:event@path(build-id)", as perf does.
 */
static void print_sdt(struct printer *pr, const char *group_glob, const char *event_glob)
{
	struct names list = { 0 };
	struct sdt_filter f = { group_glob, event_glob, &list };

	ember_sdt_cache__for_each(NULL, collect_sdt, &f);
	names_sort(&list);
	for (int i = 0; i < list.nr; i++) {
		char *at = strchr(list.v[i], '@'), *tab = strchr(list.v[i], '\t'), detail[8192];
		size_t len = at - list.v[i];
		bool dup = false;

		if (i > 0 && !strcmp(list.v[i], list.v[i - 1]))
			continue;
		for (int j = i - 1; j <= i + 1; j += 2)
			if (j >= 0 && j < list.nr && j != i && !strncmp(list.v[j], list.v[i], len) &&
			    list.v[j][len] == '@')
				dup = true;
		*at = *tab = '\0';
		if (dup && !pr->opts->raw_dump) {
			snprintf(detail, sizeof(detail), "%s@%s(%.12s)", list.v[i], tab + 1, at + 1);
			print_event(pr, NULL, detail, NULL, CAT_SDT);
		} else {
			print_event(pr, NULL, list.v[i], NULL, CAT_SDT);
		}
		*at = '@';
		*tab = '\t';
	}
	names_free(&list);
}

/* perf's print_events(): everything, or what matches glob ("*word*"). */
static void print_events(struct printer *pr, const char *glob)
{
	print_symbols(pr, PERF_TYPE_HARDWARE, glob);
	print_symbols(pr, PERF_TYPE_SOFTWARE, glob);
	print_tools(pr, glob);
	print_hwcache(pr, glob);
	print_pmu_aliases(pr, glob);
	if (glob)
		return;
	/* Syntax descriptors, not names: left out of the raw dump. */
	if (!pr->opts->raw_dump) {
		print_event(pr, NULL, "rNNN", NULL, CAT_RAW);
		print_event(pr, NULL, "cpu/t1=v1[,t2=v2,t3 ...]/modifier", NULL, CAT_RAW);
		print_event(pr, NULL, "mem:<addr>[/len][:access]", NULL, CAT_BP);
	}
	print_tracepoints(pr, NULL, NULL);
	print_sdt(pr, NULL, NULL);
}

static int list_one(struct printer *pr, const char *arg)
{
	const char *colon;
	char *glob;

	if (!strcmp(arg, "tracepoint")) {
		print_tracepoints(pr, NULL, NULL);
	} else if (!strcmp(arg, "hw") || !strcmp(arg, "hardware")) {
		print_symbols(pr, PERF_TYPE_HARDWARE, NULL);
	} else if (!strcmp(arg, "sw") || !strcmp(arg, "software")) {
		print_symbols(pr, PERF_TYPE_SOFTWARE, NULL);
		print_tools(pr, NULL);
	} else if (!strcmp(arg, "cache") || !strcmp(arg, "hwcache")) {
		print_hwcache(pr, NULL);
	} else if (!strcmp(arg, "pmu")) {
		print_pmu_aliases(pr, NULL);
	} else if (!strcmp(arg, "sdt")) {
		print_sdt(pr, NULL, NULL);
	} else if (!strcmp(arg, "metric") || !strcmp(arg, "metrics") ||
		   !strcmp(arg, "metricgroup") || !strcmp(arg, "metricgroups")) {
		/* ember has no metrics: nothing to list. */
	} else if ((colon = strchr(arg, ':'))) {
		char *sys = strndup(arg, colon - arg);

		if (!sys)
			return -1;
		print_tracepoints(pr, sys, colon + 1);
		print_sdt(pr, sys, colon + 1);
		free(sys);
	} else {
		/* As perf: a bare word matches anywhere in a name. */
		if (asprintf(&glob, "*%s*", arg) < 0)
			return -1;
		print_events(pr, glob);
		print_tracepoints(pr, NULL, glob);
		print_sdt(pr, NULL, glob);
		free(glob);
	}
	return 0;
}

int cmd_list(int argc, const char **argv)
{
	static const char *const usage[] = {
		"ember list [<options>] "
		"[hw|sw|cache|tracepoint|pmu|sdt|metric|metricgroup|event_glob]",
		NULL,
	};
	struct list_opts o = { .desc = true };
	const struct option options[] = {
		OPT_BOOLEAN('d', "desc", &o.desc,
			    "Print extra event descriptions. --no-desc to not print."),
		OPT_BOOLEAN('v', "long-desc", &o.long_desc, "Print longer event descriptions."),
		OPT_STRING(0, "cputype", &o.cputype, "hybrid cpu type",
			   "Print events applying cpu with this type for hybrid platform "
			   "(e.g. core or atom)"),
		OPT_BOOLEAN(0, "debug", &o.debug, "Enable debugging output"),
		OPT_BOOLEAN(0, "deprecated", &o.deprecated, "Print deprecated events."),
		OPT_BOOLEAN(0, "details", &o.details,
			    "Print information on the perf event names and expressions used "
			    "internally by events."),
		OPT_BOOLEAN('j', "json", &o.json, "JSON encode events and metrics"),
		{ OPTION_BOOLEAN, 0, "raw-dump", &o.raw_dump, NULL,
		  "Dump raw events (names only, for shell completion)", NULL, OPTF_HIDDEN },
		OPT_END(),
	};
	struct printer pr = { .opts = &o, .fp = stdout };
	int nargs = parse_options(argc, argv, options, usage, 0), ret = 0;

	if (parse_options_exit_code(nargs) >= 0)
		return parse_options_exit_code(nargs);
	if (o.json)
		o.raw_dump = false;
	if (o.json)
		fputs("[\n", pr.fp);
	if (!nargs)
		print_events(&pr, NULL);
	for (int i = 0; i < nargs && !ret; i++)
		ret = list_one(&pr, argv[i]);
	if (o.json)
		fprintf(pr.fp, "%s]\n", pr.need_sep ? "\n" : "");
	if (ret) {
		fprintf(stderr, "ember list: out of memory\n");
		return 1;
	}
	return 0;
}
