// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember annotate: perf annotate 6.1's --stdio output from a perf.data
 * file: for every sampled symbol, hottest first (or the symbols named),
 * its instructions with the share of the samples each got, and the
 * source lines behind them. Instructions come from capstone
 * (lib/annotate), not from an objdump run per symbol.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include <ember/annotate.h>
#include <ember/hist.h>
#include <ember/session.h>
#include "builtin.h"
#include "annotate/annotate.h"
#include "core/array.h"
#include <ember/perf-data.h>
#include "report/report.h"
#include "report/run.h"
#include "tui/annotate-browser.h"
#include "tui/screen.h"
#include "util/parse-options.h"
#include "util/session-open.h"

#define EMBER_MAX_GROUP 64

static const char *const annotate_usage[] = {
	"ember annotate [<options>]",
	NULL,
};

struct annotate_opts {
	const char *input, *dsos, *symbol, *disassembler_style, *percent_type;
	const char *symfs, *vmlinux, *cpus, *percent_limit, *stdio_color, *objdump;
	const char *prefix, *prefix_strip, *itrace;
	bool force, stdio, stdio2, tui, print_line, full_paths, asm_raw, skip_missing;
	bool show_nr_samples, show_total_period, group, source, quiet, modules;
	bool demangle, demangle_kernel, ignore_vmlinux, dump_raw_trace;
	int verbose;
};

/* Whether the symbol was printed already (perf prints each once per event, where it is hottest). */
struct seen {
	const void **syms;
	size_t nr, alloc;
};

static bool seen_has(const struct seen *s, const void *dso, const void *sym)
{
	for (size_t i = 0; i + 1 < s->nr; i += 2)
		if (s->syms[i] == dso && s->syms[i + 1] == sym)
			return true;
	return false;
}

/* 1 when seen already, else 0 once added, or -ENOMEM. */
static int seen_add(struct seen *s, const void *dso, const void *sym)
{
	if (seen_has(s, dso, sym))
		return 1;
	if (array__reserve((void **)&s->syms, &s->alloc, s->nr + 1, sizeof(*s->syms)))
		return -ENOMEM;
	s->syms[s->nr++] = dso;
	s->syms[s->nr++] = sym;
	return 0;
}

struct annotate {
	struct annotate_opts o;
	struct annotate_print_opts po;
	struct ember_session *session;
	struct ember_annotate_hists *hists;
	struct ember_hist **order;	/* per event: entries in perf's order */
	uint32_t nr_events;
	struct ember_hist_layout layout;
	struct seen nosyms;		/* binaries with samples and no symbols */
	struct ember_srclines *srclines;	/* -l */
	char *prev_srcline;		/* -l: the last srcline after an instruction */
	struct ember_annotate_cache *cache;
	size_t nr_printed;
	uint64_t nr_counted;		/* samples past the filters, as perf counts them */
	uint64_t *counted_period;	/* per event: their period (--percent-limit's total) */
	uint64_t *counted_samples;	/* per event: their samples (the browser's title) */
	bool tui;			/* the browser, not the text */
	FILE *warn;			/* stderr, or with the browser, held until it is gone */
	char *warn_buf;
	size_t warn_len;
	/* report's Annotate: its screen kept, one event, its title */
	const struct annotate_browse_req *req;
	struct ember_hist_filters *cpus; /* -C */
	double min_percent;		/* --percent-limit */
	const char *vmlinux;		/* -k when it is an ELF file (else a kallsyms file) */
	int prefix_strip;
};

static bool dso_listed(const char *list, const char *short_name, const char *long_name)
{
	const char *p = list;
	size_t n;

	while (*p) {
		n = strcspn(p, ",");
		if ((strlen(short_name) == n && !strncmp(p, short_name, n)) ||
		    (long_name && strlen(long_name) == n && !strncmp(p, long_name, n)))
			return true;
		p += n;
		if (*p)
			p++;
	}
	return false;
}

static int on_sample(struct ember_session *s, const struct ember_session_sample *ss, void *ctx)
{
	struct annotate *an = ctx;
	const struct ember_addr_location *al = &ss->al;
	uint32_t ev = ss->attr->idx;
	struct ember_hist_frame f;
	struct ember_hist_sample hs = { .sz = sizeof(hs) };
	int err;

	if (ev >= an->nr_events || (an->req && ev != an->req->event))
		return 0;
	if (!ember_hist_filters__has_cpu(an->cpus, ss->sample->cpu))
		return 0;
	if (an->o.dsos && (!al->dso || !dso_listed(an->o.dsos, al->dso_short_name, al->dso_name)))
		return 0;
	if (!al->sym) {
		/* perf counts a sample without a symbol unless a symbol was asked for */
		if (!an->o.symbol) {
			an->nr_counted++;
			an->counted_samples[ev]++;
			an->counted_period[ev] += ss->sample->period;
		}
		/* a binary without symbols (stripped): said once at the end */
		if (al->dso && al->dso_name && al->dso_name[0] == '/' &&
		    ember_dso__load(al->dso) <= 0)
			return seen_add(&an->nosyms, al->dso,
					(void *)(intptr_t)ember_dso__load(al->dso)) < 0 ?
				       -ENOMEM :
				       0;
		return 0;
	}
	if (an->o.symbol && strcmp(an->o.symbol, al->sym_name))
		return 0;
	an->nr_counted++;
	an->counted_samples[ev]++;
	an->counted_period[ev] += ss->sample->period;
	if (!al->dso)
		return 0;
	if (!an->order[ev]) {
		struct ember_hist_opts ho = { .sz = sizeof(ho), .layout = &an->layout };

		ember_callchain_param__init(&ho.chain);
		an->order[ev] = ember_hist__new(&ho);
		if (!an->order[ev])
			return -ENOMEM;
	}
	ember_hist_frame__from_al(&f, al);
	hs.self = &f;
	hs.period = ss->sample->period;
	hs.nr_samples = 1;
	hs.pid = (int32_t)ss->sample->pid;
	hs.tid = (int32_t)ss->sample->tid;
	hs.cpu = (int32_t)ss->sample->cpu;
	hs.comm = al->comm;
	hs.thread = al->thread;
	err = ember_hist__add(an->order[ev], &hs);
	return err ?: ember_annotate_hists__add(an->hists, al, ev, ss->sample->period);
}

/* perf's dso__name() for addr2line: the debug file when there is one, else the binary. */
static const char *a2l_path(struct ember_dso *dso)
{
	const char *src = ember_dso__symsrc_path(dso);

	const char *name = ember_dso__name(dso);

	if (src && *src && src[0] != '[')
		return src;
	return name && name[0] != '[' ? name : NULL;
}

static const char *cannot_annotate(int err)
{
	switch (err) {
	case ENOENT:
		return "its binary is not there (try --symfs, or --skip-missing)";
	case ENODATA:
		return "no code for it in the binary (stripped, or a debug file only)";
	case EOPNOTSUPP:
		return "no vmlinux with its build-id, and /proc/kcore is not readable here";
	default:
		return strerror(err);
	}
}

static bool is_kernel(const struct ember_dso *dso)
{
	const char *n = ember_dso__short_name(dso);

	return n && n[0] == '[' && strcmp(n, "[vdso]");
}

/* perf's words for a kernel symbol without a vmlinux or a readable /proc/kcore */
static void print_no_vmlinux(FILE *fp, const struct ember_symbol *sym, const struct ember_dso *dso)
{
	uint8_t bid[EMBER_BUILD_ID_MAX];
	size_t n = ember_dso__build_id(dso, bid);

	fprintf(fp, "Error:\nCouldn't annotate %s:\nNo vmlinux file", ember_symbol__name(sym));
	if (n)
		fputs(" with build id ", fp);
	for (size_t i = 0; i < n; i++)
		fprintf(fp, "%02x", bid[i]);
	fputs("\nwas found in the path.\n\n"
	      "Note that annotation using /proc/kcore requires CAP_SYS_RAWIO capability.\n\n"
	      "Please use:\n\n  perf buildid-cache -vu vmlinux\n\nor:\n\n  --vmlinux vmlinux\n",
	      fp);
}

/* A symbol to print, with what orders it in a group: each event's period of it. */
struct sym_ref {
	struct ember_dso *dso;
	const struct ember_symbol *sym;
	size_t idx;			/* in the leader-first walk: the last tie-break */
	const struct ember_annotate_hists *hists;
	const uint32_t *events;
	uint32_t nr_events;
};

/* perf's group order: the leader's period, then each member's, highest first */
static int cmp_group(const void *pa, const void *pb)
{
	const struct sym_ref *a = pa, *b = pb;
	const struct ember_annotate_hist *ha = ember_annotate_hists__find(a->hists, a->dso, a->sym);
	const struct ember_annotate_hist *hb = ember_annotate_hists__find(b->hists, b->dso, b->sym);

	for (uint32_t e = 0; e < a->nr_events; e++) {
		uint64_t x = ember_annotate_hist__period(ha, a->events[e]);
		uint64_t y = ember_annotate_hist__period(hb, a->events[e]);

		if (x != y)
			return x > y ? -1 : 1;
	}
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/*
 * The symbols of a group of events (one event alone, mostly) in perf's
 * order: the leader's histogram's, then those only its members sampled;
 * for a group, sorted by the events' periods. *out is malloc'd.
 */
static int group_symbols(struct annotate *an, const uint32_t *events, uint32_t nr,
			 struct sym_ref **out, size_t *nr_out)
{
	struct seen listed = { 0 };
	struct sym_ref *v = NULL;
	size_t n = 0, alloc = 0;
	int err = 0;

	for (uint32_t e = 0; e < nr && !err; e++) {
		struct ember_hist *h = an->order[events[e]];

		for (size_t i = 0; h && i < ember_hist__nr_entries(h) && !err; i++) {
			const struct ember_hist_entry *en = ember_hist__entry(h, i);
			int r;

			if (!en->sym || !en->dso)
				continue;
			r = seen_add(&listed, en->dso, en->sym);
			if (r)
				err = r < 0 ? r : 0;
			else if (array__reserve((void **)&v, &alloc, n, sizeof(*v)))
				err = -ENOMEM;
			else
				v[n++] = (struct sym_ref){ (struct ember_dso *)en->dso, en->sym, n,
							   an->hists, events, nr };
		}
	}
	free(listed.syms);
	if (!err && nr > 1 && n)
		qsort(v, n, sizeof(*v), cmp_group);
	*out = v;
	*nr_out = n;
	return err;
}

/*
 * perf's name of a group: "anon group { cpu-clock, task-clock }"; of all
 * events forced into one: "cpu-clock, task-clock"
 */
static void group_name(struct annotate *an, const uint32_t *events, uint32_t nr,
		       const char *name, bool forced, char *buf, size_t size)
{
	struct ember_data_reader *r = ember_session__reader(an->session);
	size_t len = 0;
	char ev[256];

	buf[0] = '\0';
	if (nr > 1 && !forced)
		len += (size_t)snprintf(buf, size, "%s { ",
					name && strcmp(name, "{anon_group}") ? name : "anon group");
	for (uint32_t e = 0; e < nr && len < size; e++) {
		report_event_name(an->session, ember_data_reader__attr(r, events[e]), ev, sizeof(ev));
		len += (size_t)snprintf(buf + len, size - len, "%s%s", e ? ", " : "", ev);
	}
	if (nr > 1 && !forced && len < size)
		snprintf(buf + len, size - len, " }");
}

/* --percent-limit: the symbol's share of the event's period counted, under the limit */
static bool under_limit(const struct annotate *an, const struct ember_dso *dso,
			const struct ember_symbol *sym, uint32_t ev)
{
	uint64_t total = an->counted_period[ev];
	double pct = 0.0;

	if (!an->min_percent)
		return false;
	if (total)
		pct = 100.0 * (double)ember_annotate_hist__period(
				      ember_annotate_hists__find(an->hists, dso, sym), ev) /
		      (double)total;
	return pct < an->min_percent;
}

/* What the symbols of one group are shown with. */
struct group_show {
	struct annotate *an;
	const uint32_t *events;
	uint32_t nr;
	const char *name;		/* the group's, as the header names it */
	uint64_t totals[EMBER_MAX_GROUP];
	struct annotate_sources *srcs;
	struct ember_annotation_opts ao;
	struct seen *warned;
	char title[1024];		/* the browser's top line */
	const char *cpuid;
};

/* perf's annotate title: "Samples: 1K of event 'cycles', 4000 Hz, Event count (approx.): N" */
static void browser_title(struct group_show *gs)
{
	struct annotate *an = gs->an;
	const struct ember_data_attr *attr =
		ember_data_reader__attr(ember_session__reader(an->session), gs->events[0]);
	uint64_t samples = 0, period = an->counted_period[gs->events[0]];
	unsigned long nr;
	char unit;

	/* a group's samples are its events' (perf 6.1 counts the leader's period only) */
	for (uint32_t e = 0; e < gs->nr; e++)
		samples += an->counted_samples[gs->events[e]];
	nr = report_convert_unit((unsigned long)samples, &unit);
	snprintf(gs->title, sizeof(gs->title),
		 "Samples: %lu%c of event%s '%s', %d Hz, Event count (approx.): %" PRIu64, nr, unit,
		 gs->nr > 1 ? "s" : "", gs->name, (int)attr->attr.sample_freq, period);
}

static int show_symbol(struct group_show *gs, struct ember_dso *dso,
		       const struct ember_symbol *sym, enum tui_annotate_action *action);

struct follow_ctx {
	struct group_show *gs;
	struct ember_dso *dso;
};

/* Enter on a call: the called function's browser, from the same binary (as perf's). */
static int follow_call(void *ctx, uint64_t target, char *why, size_t whysz)
{
	struct follow_ctx *fc = ctx;
	const struct ember_symbol *sym =
		ember_dso__find_symbol(fc->dso, ember_dso__vaddr_to_addr(fc->dso, target));
	enum tui_annotate_action action;
	int r;

	if (!sym)
		return -ENOENT;
	r = show_symbol(fc->gs, fc->dso, sym, &action);
	snprintf(why, whysz, r > 0 ? "Couldn't annotate %s" : "%s", ember_symbol__name(sym));
	return r > 0 ? -ENODATA : r;
}

static const char *symbol_at(void *ctx, uint64_t target)
{
	struct follow_ctx *fc = ctx;
	const struct ember_symbol *sym =
		ember_dso__find_symbol(fc->dso, ember_dso__vaddr_to_addr(fc->dso, target));

	return sym ? ember_symbol__name(sym) : NULL;
}

/*
 * One symbol shown: printed, or browsed (*action: how the browser was
 * left). 0, 1 when it could not be annotated (said once per binary), or
 * -ENOMEM.
 */
static int show_symbol(struct group_show *gs, struct ember_dso *dso,
		       const struct ember_symbol *sym, enum tui_annotate_action *action)
{
	struct annotate *an = gs->an;
	const char *kernel_file, *long_name, *short_name;
	struct annotate_lines al;
	struct ember_annotation *a = ember_annotation__new(dso, sym, &gs->ao);
	int r;

	if (!a) {
		int err = errno;

		if (err == ENOMEM || seen_add(gs->warned, dso, NULL) < 0)
			return -ENOMEM;
		/* one line per binary, as perf warns once per dso */
		if (an->o.quiet || (an->o.skip_missing && err == ENOENT))
			return 1;
		if (err == EOPNOTSUPP && is_kernel(dso))
			print_no_vmlinux(an->warn, sym, dso);
		else
			fprintf(an->warn, "ember annotate: cannot annotate %s in %s: %s\n",
				ember_symbol__name(sym), ember_dso__name(dso), cannot_annotate(err));
		return 1;
	}
	r = annotate_lines__build(&al, a, ember_symbol__name(sym), an->po.source, an->o.asm_raw,
				  gs->srcs);
	/* perf names the kernel after the file its code came from: the vmlinux, kcore */
	kernel_file = is_kernel(dso) ? ember_annotation__path(a) : NULL;
	long_name = kernel_file ? kernel_file : ember_dso__name(dso);
	short_name = kernel_file ? strrchr(kernel_file, '/') : NULL;
	short_name = short_name ? short_name + 1 :
		     kernel_file ? kernel_file : ember_dso__short_name(dso);
	if (!r) {
		struct annotate_symbol_print sp = {
			.a = a,
			.hist = ember_annotate_hists__find(an->hists, dso, sym),
			.sym_start = ember_symbol__start(sym),
			.events = gs->events,
			.nr_events = gs->nr,
			.dso_name = an->o.full_paths ? long_name : short_name,
			.dso_long_name = long_name,
			.dso_short_name = short_name,
			.event_name = gs->name,
			.total_period = gs->totals,
			.a2l_path = kernel_file ? kernel_file : a2l_path(dso),
			.srclines = an->srclines,
			.prev_srcline = &an->prev_srcline,
		};

		if (an->tui) {
			struct follow_ctx fc = { gs, dso };
			struct tui_annotate_browser_opts bo = {
				.sp = &sp,
				.lines = &al,
				.title = gs->title,
				.sym_name = ember_symbol__name(sym),
				.po = &an->po,
				.cpuid = gs->cpuid,
				.follow = follow_call,
				.symbol_at = symbol_at,
				.ctx = &fc,
			};

			*action = tui_annotate_browser__run(&bo);
			if (*action == TUI_ANNOTATE_ERROR)
				r = -ENOMEM;
		} else {
			annotate__fprintf_symbol(stdout, &sp, &al, &an->po);
		}
		an->nr_printed++;
		annotate_lines__exit(&al);
	}
	ember_annotation__delete(a);
	return r;
}

static int annotate_group(struct annotate *an, const uint32_t *events, uint32_t nr,
			  const char *name, struct annotate_sources *srcs, struct seen *warned)
{
	const struct ember_session_stats *st = ember_session__stats(an->session);
	const struct ember_env *env = ember_data_reader__env(ember_session__reader(an->session));
	struct group_show gs = {
		.an = an,
		.events = events,
		.nr = nr,
		.name = name,
		.srcs = srcs,
		.ao = {
			.sz = sizeof(gs.ao),
			.intel = an->o.disassembler_style &&
				 !strcmp(an->o.disassembler_style, "intel"),
			.no_source = !an->o.source,
			.vmlinux = an->vmlinux,
			.ignore_vmlinux = an->o.ignore_vmlinux,
			.cache = an->cache,
		},
		.warned = warned,
		.cpuid = env ? env->cpuid : NULL,
	};
	struct sym_ref *syms;
	size_t nr_syms;
	int r = group_symbols(an, events, nr, &syms, &nr_syms), dir = 1;

	for (uint32_t e = 0; e < nr; e++)
		gs.totals[e] = events[e] < st->nr_events ? st->events[events[e]].total_period : 0;
	if (an->req && an->req->title)
		snprintf(gs.title, sizeof(gs.title), "%s", an->req->title);
	else
		browser_title(&gs);
	/* the browser's Left goes back: perf walks its entries both ways, skipping the same */
	for (long i = 0; !r && i >= 0 && i < (long)nr_syms; i += dir) {
		struct ember_dso *dso = syms[i].dso;
		const struct ember_symbol *sym = syms[i].sym;
		enum tui_annotate_action action = TUI_ANNOTATE_NEXT;

		if (seen_has(warned, dso, NULL))
			continue;
		/* perf shows a group's symbols the leader sampled */
		if (nr > 1 && !ember_annotate_hist__nr_samples(
				      ember_annotate_hists__find(an->hists, dso, sym), events[0]))
			continue;
		if (under_limit(an, dso, sym, events[0]))
			continue;
		r = show_symbol(&gs, dso, sym, &action);
		if (r > 0) {
			r = 0;
			continue;
		}
		if (!an->tui)
			continue;
		if (action == TUI_ANNOTATE_QUIT)
			break;
		dir = action == TUI_ANNOTATE_PREV ? -1 : 1;
		/* with no entry that way, perf shows the same symbol again */
		if (i + dir < 0 || i + dir >= (long)nr_syms)
			i -= dir;
	}
	free(syms);
	return r;
}

/*
 * The events in groups, as perf shows them: the file's groups (perf
 * groups a file recorded with -e '{a,b}' without being asked), all events
 * as one with --group on a file without groups, else each on its own.
 */
static int annotate_groups(struct annotate *an, struct annotate_sources *srcs, struct seen *warned)
{
	const struct ember_env *env = ember_data_reader__env(ember_session__reader(an->session));
	uint32_t events[EMBER_MAX_GROUP], nr;
	char name[1024];
	int err = 0;

	for (uint32_t ev = 0; ev < an->nr_events && !err; ev += nr ? nr : 1) {
		const char *gname = NULL;
		bool forced = false;

		nr = 1;
		for (uint32_t g = 0; env && g < env->nr_groups; g++) {
			if (env->groups[g].leader_idx == ev && env->groups[g].nr_members > 1) {
				nr = env->groups[g].nr_members;
				gname = env->groups[g].name;
			}
		}
		if (an->o.group && (!env || !env->nr_groups)) {
			nr = an->nr_events;
			forced = true;
		}
		if (nr > EMBER_MAX_GROUP || ev + nr > an->nr_events)
			nr = 1;
		for (uint32_t e = 0; e < nr; e++)
			events[e] = ev + e;
		/* a group without samples of any of its events prints nothing */
		bool sampled = false;

		for (uint32_t e = 0; e < nr; e++)
			sampled |= an->order[events[e]] != NULL;
		if (!sampled)
			continue;
		group_name(an, events, nr, gname, forced, name, sizeof(name));
		err = annotate_group(an, events, nr, name, srcs, warned);
	}
	return err;
}

static int parse_percent_type(const char *s, enum annotate_percent_type *t)
{
	static const char *const names[] = { "local-period", "global-period", "local-hits",
					     "global-hits" };

	for (int i = 0; i < 4; i++) {
		if (!strcmp(s, names[i])) {
			*t = (enum annotate_percent_type)i;
			return 0;
		}
	}
	return -1;
}

/* -C: perf's checks and words; 0 or 1 (said) */
static int setup_cpus(struct annotate *an)
{
	struct ember_data_reader *r = ember_session__reader(an->session);
	const struct ember_env *env = ember_data_reader__env(r);
	struct ember_hist_filter_opts fo = { .sz = sizeof(fo), .cpus = an->o.cpus };
	bool has_cpu = false;
	char why[128];

	for (uint32_t i = 0; i < an->nr_events; i++)
		has_cpu |= !!(ember_data_reader__attr(r, i)->attr.sample_type & PERF_SAMPLE_CPU);
	if (!has_cpu) {
		fprintf(stderr, "File does not contain CPU events. Remove -C option to proceed.\n");
		return 1;
	}
	an->cpus = ember_hist_filters__new(&fo, why, sizeof(why));
	if (!an->cpus) {
		if (errno == ENOMEM)
			return -ENOMEM;
		fprintf(stderr, "Invalid cpu_list\n");
		return 1;
	}
	/* perf knows the cpus of the recording machine only */
	for (uint32_t c = env && env->nr_cpus_avail ? env->nr_cpus_avail : 4096; c < 4096; c++) {
		if (ember_hist_filters__has_cpu(an->cpus, c)) {
			fprintf(stderr,
				"Requested CPU %u too large. Consider raising MAX_NR_CPUS\n", c);
			return 1;
		}
	}
	return 0;
}

/* Whether path is an ELF file (a vmlinux) rather than a kallsyms text; -errno when unreadable. */
static int is_elf(const char *path)
{
	unsigned char m[4];
	FILE *fp = fopen(path, "rb");
	int r;

	if (!fp)
		return -errno;
	r = fread(m, 1, 4, fp) == 4 && !memcmp(m, "\177ELF", 4);
	fclose(fp);
	return r;
}

/*
 * The screen for the browser, the warnings held until it is gone; 0, or
 * -1 when this terminal cannot hold it (the text is printed, as perf's).
 */
static int start_browser(struct annotate *an)
{
	char why[256];

	if (tui_screen__init(why, sizeof(why)))
		return -1;
	an->warn = open_memstream(&an->warn_buf, &an->warn_len);
	if (!an->warn) {
		tui_screen__exit();
		an->warn = stderr;
		return -1;
	}
	return 0;
}

static void stop_browser(struct annotate *an)
{
	if (!an->req)
		tui_screen__exit();
	if (an->warn == stderr)
		return;
	fclose(an->warn);
	an->warn = stderr;
	/* report's Annotate says it in a window */
	if (an->req && an->req->why) {
		size_t n = an->warn_len;

		while (n && an->warn_buf[n - 1] == '\n')
			n--;
		snprintf(an->req->why, an->req->whysz, "%.*s", (int)n, an->warn_buf);
	}
	else
		fwrite(an->warn_buf, 1, an->warn_len, stderr);
	free(an->warn_buf);
	an->warn_buf = NULL;
}

static int run(struct annotate *an)
{
	struct ember_session_opts so = {
		.sz = sizeof(so),
		.force = an->o.force,
		.symbol = {
			.sz = sizeof(so.symbol),
			.symfs = an->o.symfs,
			.kallsyms = an->req ? an->req->kallsyms : NULL,
		},
	};
	struct ember_session_ops ops = { .sample = on_sample };
	struct ember_hist_layout_opts lo = { .sz = sizeof(lo), .sort_order = "dso,sym" };
	struct annotate_sources *srcs = NULL;
	struct seen warned = { 0 };
	char bad[64], why[256];
	int err;

	if (ember_hist_layout__setup(&an->layout, &lo, bad, sizeof(bad)))
		return 1;
	if (an->o.vmlinux) {
		int r = is_elf(an->o.vmlinux);

		if (r < 0) {
			fprintf(stderr, "ember annotate: -k %s: %s\n", an->o.vmlinux, strerror(-r));
			return 1;
		}
		if (r)
			an->vmlinux = an->o.vmlinux;
		so.symbol.kallsyms = r ? NULL : an->o.vmlinux;
	}
	an->session = session_open("annotate", an->o.input, &so);
	if (!an->session)
		return 1;
	an->nr_events = ember_data_reader__nr_attrs(ember_session__reader(an->session));
	an->hists = ember_annotate_hists__new(an->nr_events);
	an->order = calloc(an->nr_events ? an->nr_events : 1, sizeof(*an->order));
	an->counted_period = calloc(an->nr_events ? an->nr_events : 1, sizeof(uint64_t));
	an->counted_samples = calloc(an->nr_events ? an->nr_events : 1, sizeof(uint64_t));
	srcs = annotate_sources__new(an->o.prefix, an->prefix_strip);
	an->cache = ember_annotate_cache__new();
	if (an->po.print_line && !(an->srclines = ember_srclines__new())) {
		err = -ENOMEM;
		goto out;
	}
	if (!an->hists || !an->order || !an->counted_period || !an->counted_samples || !srcs ||
	    !an->cache) {
		err = -ENOMEM;
		goto out;
	}
	if (an->o.cpus && (err = setup_cpus(an)))
		goto out;
	err = ember_session__process(an->session, &ops, an);
	if (err)
		goto out;
	if (ember_session__nothing_usable(an->session, why, sizeof(why))) {
		fprintf(stderr, "ember annotate: %s\n", why);
		err = 1;
		goto out;
	}
	for (uint32_t ev = 0; ev < an->nr_events && !err; ev++) {
		if (!an->order[ev])
			continue;
		err = ember_hist__resort(an->order[ev]);
	}
	if (!err && an->tui && an->nr_counted && start_browser(an))
		an->tui = false;
	err = err ?: annotate_groups(an, srcs, &warned);
	if (an->tui)
		stop_browser(an);
	/* with a symbol asked for and found, the other binaries do not matter */
	if (an->o.symbol && an->nr_counted)
		an->nosyms.nr = 0;
	/* (report's Annotate has its window for what went wrong: the screen is up) */
	for (size_t i = 0; !err && !an->o.quiet && !an->req && i < an->nosyms.nr; i += 2)
		fprintf(stderr, "ember annotate: %s %s: its samples are not annotated\n",
			ember_dso__name((struct ember_dso *)an->nosyms.syms[i]),
			(intptr_t)an->nosyms.syms[i + 1] == -ENOENT ?
				"not found (nor in the build-id cache)" :
				"has no symbols (stripped)");
	/*
	 * perf exits 0 whatever it could annotate; a file with no sample past
	 * the filters gets its two lines (a binary without symbols said why)
	 */
	if (!err && !an->nr_counted && !an->nosyms.nr && !an->req)
		fprintf(stderr, "Error:\nThe %s data has no samples!\n",
			ember_session__path(an->session));
out:
	if (err < 0)
		fprintf(stderr, "ember annotate: %s: %s\n", ember_session__path(an->session),
			strerror(-err));
	fflush(stdout);
	free(an->nosyms.syms);
	free(warned.syms);
	annotate_sources__delete(srcs);
	ember_srclines__delete(an->srclines);
	free(an->prev_srcline);
	ember_annotate_cache__delete(an->cache);
	for (uint32_t ev = 0; an->order && ev < an->nr_events; ev++)
		ember_hist__delete(an->order[ev]);
	free(an->order);
	free(an->counted_period);
	free(an->counted_samples);
	ember_hist_filters__delete(an->cpus);
	ember_annotate_hists__delete(an->hists);
	ember_session__delete(an->session);
	return err ? 1 : 0;
}

int annotate__browse_symbol(const struct annotate_browse_req *req)
{
	struct annotate an = {
		.po = { .source = true },
		.o = {
			.input = req->input,
			.force = req->force,
			.symfs = req->symfs,
			.symbol = req->sym,
			.dsos = req->dso,
			.source = true,
			.demangle = true,
		},
		.tui = true,
		.warn = stderr,
		.req = req,
	};
	int r = run(&an);

	if (!an.nr_printed && req->why && !req->why[0])
		snprintf(req->why, req->whysz, "no samples of %s in %s", req->sym, req->input);
	return r || !an.nr_printed;
}

/*
 * perf 6.1's options ember does not do: each says so, a usage error,
 * rather than being taken and ignored
 */
static int refuse_unsupported(const struct annotate_opts *o)
{
	const struct {
		bool given;
		const char *opt, *why;
	} no[] = {
		{ o->stdio2, "--stdio2", "perf's second text layout is not done; use --stdio" },
		{ o->dump_raw_trace, "-D/--dump-raw-trace", "use 'ember report -D'" },
		{ o->itrace != NULL, "--itrace", "ember reads no instruction traces (AUX data)" },
		{ !o->demangle, "--no-demangle", "the instructions' names are always demangled" },
		{ o->demangle_kernel, "--demangle-kernel",
		  "kernel names are shown as kallsyms has them" },
		{ o->stdio_color && !strcmp(o->stdio_color, "always"), "--stdio-color=always",
		  "ember prints no colors" },
	};

	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		if (no[i].given) {
			fprintf(stderr, "ember annotate: %s is not supported: %s\n", no[i].opt,
				no[i].why);
			return 2;
		}
	}
	if (o->stdio_color && strcmp(o->stdio_color, "never") && strcmp(o->stdio_color, "auto") &&
	    strcmp(o->stdio_color, "always")) {
		fprintf(stderr,
			"ember annotate: --stdio-color takes always, never or auto, not '%s'\n",
			o->stdio_color);
		return 2;
	}
	if (o->prefix_strip && !o->prefix) {
		fprintf(stderr, "ember annotate: --prefix-strip requires --prefix\n");
		return 2;
	}
	return 0;
}

int cmd_annotate(int argc, const char **argv)
{
	struct annotate an = { .po = { .source = true } };
	struct annotate_opts *o = &an.o;
	const struct option options[] = {
		OPT_STRING('C', "cpu", &o->cpus, "cpu", "list of cpus to profile"),
		OPT_STRING('d', "dsos", &o->dsos, "dso[,dso...]", "only consider symbols in these dsos"),
		OPT_BOOLEAN('D', "dump-raw-trace", &o->dump_raw_trace, "dump raw trace in ASCII (not supported)"),
		OPT_BOOLEAN('f', "force", &o->force, "don't complain, do it"),
		OPT_STRING('i', "input", &o->input, "file", "input file name"),
		OPT_STRING('k', "vmlinux", &o->vmlinux, "file", "vmlinux pathname (or a kallsyms file)"),
		OPT_BOOLEAN('l', "print-line", &o->print_line, "print matching source lines (may be slow)"),
		OPT_STRING('M', "disassembler-style", &o->disassembler_style, "disassembler style", "Specify disassembler style (e.g. -M intel for intel syntax)"),
		OPT_BOOLEAN('m', "modules", &o->modules, "load module symbols (always: from kallsyms)"),
		OPT_BOOLEAN('n', "show-nr-samples", &o->show_nr_samples, "Show a column with the number of samples"),
		OPT_BOOLEAN('P', "full-paths", &o->full_paths, "Don't shorten the displayed pathnames"),
		OPT_BOOLEAN('q', "quiet", &o->quiet, "do not show any warnings or messages"),
		OPT_STRING('s', "symbol", &o->symbol, "symbol", "symbol to annotate"),
		OPT_INCR('v', "verbose", &o->verbose, "be more verbose (show symbol address, etc)"),
		OPT_BOOLEAN(0, "asm-raw", &o->asm_raw, "Display raw encoding of assembly instructions (default)"),
		OPT_BOOLEAN(0, "demangle", &o->demangle, "Enable symbol demangling"),
		OPT_BOOLEAN(0, "demangle-kernel", &o->demangle_kernel, "Enable kernel symbol demangling (not supported)"),
		OPT_BOOLEAN(0, "group", &o->group, "Show event group information together"),
		OPT_BOOLEAN(0, "ignore-vmlinux", &o->ignore_vmlinux, "don't load vmlinux even if found"),
		{ OPTION_STRING, 0, "itrace", &o->itrace, "opts", "Instruction Tracing options (not supported)", NULL, OPTF_OPTARG, "" },
		OPT_STRING(0, "objdump", &o->objdump, "path", "objdump binary to use for disassembly and annotations (none is: capstone decodes)"),
		OPT_STRING(0, "percent-limit", &o->percent_limit, "percent", "Don't show entries under that percent"),
		OPT_STRING(0, "percent-type", &o->percent_type, "local-period", "Set percent type local/global-period/hits"),
		OPT_STRING(0, "prefix", &o->prefix, "prefix", "Add prefix to source file path names in programs (with --prefix-strip)"),
		OPT_STRING(0, "prefix-strip", &o->prefix_strip, "N", "Strip first N entries of source file path name in programs (with --prefix)"),
		OPT_BOOLEAN(0, "show-total-period", &o->show_total_period, "Show a column with the sum of periods"),
		OPT_BOOLEAN(0, "skip-missing", &o->skip_missing, "Skip symbols that cannot be annotated"),
		OPT_BOOLEAN(0, "source", &o->source, "Interleave source code with assembly code (default)"),
		OPT_BOOLEAN(0, "stdio", &o->stdio, "Use the stdio interface"),
		OPT_STRING(0, "stdio-color", &o->stdio_color, "mode", "'never' or 'auto' ('always' is not supported)"),
		OPT_BOOLEAN(0, "stdio2", &o->stdio2, "Use the stdio interface (perf's second layout: not supported)"),
		OPT_STRING(0, "symfs", &o->symfs, "directory", "Look for files with symbols relative to this directory"),
		OPT_BOOLEAN(0, "tui", &o->tui, "Use the TUI interface (the default on a terminal)"),
		OPT_END()
	};
	int argc2, r;

	o->source = true;
	o->demangle = true;
	argc2 = parse_options(argc, argv, options, annotate_usage, 0);
	if ((r = parse_options_exit_code(argc2)) >= 0)
		return r;
	if (argc2 > 1) {
		fprintf(stderr, "ember annotate: one symbol at a time (got '%s' and '%s')\n", argv[0],
			argv[1]);
		return 2;
	}
	if (argc2 == 1)
		o->symbol = argv[0];
	if ((r = refuse_unsupported(o)))
		return r;
	if (o->disassembler_style && strcmp(o->disassembler_style, "intel") &&
	    strcmp(o->disassembler_style, "att")) {
		fprintf(stderr, "ember annotate: -M takes 'intel' or 'att', not '%s'\n",
			o->disassembler_style);
		return 2;
	}
	if (o->percent_type && parse_percent_type(o->percent_type, &an.po.percent_type)) {
		fprintf(stderr,
			"ember annotate: --percent-type takes local-period, global-period, "
			"local-hits or global-hits, not '%s'\n",
			o->percent_type);
		return 2;
	}
	/* perf reads the number as strtof() does: what is not one is 0, no limit */
	if (o->percent_limit)
		an.min_percent = strtod(o->percent_limit, NULL);
	if (o->prefix_strip) {
		char *end;
		long n = strtol(o->prefix_strip, &end, 10);

		if (*end || n < 0 || n > INT_MAX) {
			fprintf(stderr, "ember annotate: --prefix-strip takes a number, not '%s'\n",
				o->prefix_strip);
			return 2;
		}
		an.prefix_strip = (int)n;
	}
	if (o->objdump && !o->quiet)
		fprintf(stderr, "ember annotate: --objdump %s is not used: ember decodes the "
				"instructions with capstone and runs no objdump\n",
			o->objdump);
	/* the browser on a terminal (--tui or not), as perf's; the text elsewhere */
	an.tui = !o->stdio && isatty(STDOUT_FILENO);
	an.warn = stderr;
	an.po.show_nr_samples = o->show_nr_samples;
	an.po.show_total_period = o->show_total_period;
	an.po.source = o->source;
	an.po.asm_raw = o->asm_raw;
	an.po.print_line = o->print_line;
	an.po.verbose = o->verbose > 0;
	return run(&an);
}
