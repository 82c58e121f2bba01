// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rows of the annotate browser (src/tui/annotate-view.c) without a
 * screen, on the hotloop workload's hot_a: samples on one instruction
 * make it the hottest, its percent column, perf's simplified text (the
 * RIP-relative operand named, objdump's comment dropped, the jump's
 * target as an offset with the target row marked), the views o and J,
 * and the file P writes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ember/annotate.h>
#include "tui/annotate-view.h"
#include "test.h"

struct fixture {
	struct ember_dso *dso;
	const struct ember_symbol *sym;
	struct ember_annotation *a;
	struct ember_annotate_hists *hists;
	struct annotate_sources *srcs;
	struct annotate_lines lines;
	bool have_lines;
	struct annotate_symbol_print sp;
	struct annotate_print_opts po;
	uint32_t event;
	uint64_t total;
	struct tui_annotate_view v;
};

/* The instruction whose text starts with text, its index; -1 when none. */
static long insn_named(const struct ember_annotation *a, const char *text)
{
	for (size_t i = 0; i < ember_annotation__nr_insns(a); i++)
		if (!strncmp(ember_annotation__insn(a, i)->text, text, strlen(text)))
			return (long)i;
	return -1;
}

/* The row of instruction insn. */
static const struct tui_annotate_row *row_of(const struct tui_annotate_view *v, long insn)
{
	for (size_t r = 0; r < v->nr_rows; r++)
		if (v->rows[r].insn == insn)
			return &v->rows[r];
	return NULL;
}

/* hot_a with 3 samples on its add, 1 on its first mov; 0, or why not (skip). */
static const char *setup(struct fixture *fx)
{
	char path[4096];
	struct ember_addr_location al = {0};
	long add;
	int n;

	memset(fx, 0, sizeof(*fx));
	if (!unit_workload_path("hotloop", path, sizeof(path)))
		return "the hotloop workload is not built";
	fx->dso = ember_dso__open(path, NULL);
	n = fx->dso ? ember_dso__load(fx->dso) : -1;
	for (int i = 0; i < n && !fx->sym; i++)
		if (!strcmp(ember_symbol__name(ember_dso__symbol(fx->dso, (size_t)i)), "hot_a"))
			fx->sym = ember_dso__symbol(fx->dso, (size_t)i);
	if (!fx->sym)
		return "no hot_a in hotloop";
	fx->a = ember_annotation__new(
	    fx->dso, fx->sym,
	    &(struct ember_annotation_opts){.sz = sizeof(struct ember_annotation_opts)});
	if (!fx->a)
		return "hotloop cannot be disassembled here";
	add = insn_named(fx->a, "add    %rax,%rdx");
	if (add < 0)
		return "hot_a has no add %rax,%rdx here (another compiler)";
	fx->hists = ember_annotate_hists__new(1);
	fx->srcs = annotate_sources__new(NULL, 0);
	if (!fx->hists || !fx->srcs)
		return "no memory";
	al.dso = fx->dso;
	al.sym = fx->sym;
	al.addr = ember_symbol__start(fx->sym) + ember_annotation__insn(fx->a, (size_t)add)->offset;
	for (int i = 0; i < 3; i++)
		ember_annotate_hists__add(fx->hists, &al, 0, 100);
	al.addr = ember_symbol__start(fx->sym);
	ember_annotate_hists__add(fx->hists, &al, 0, 100);
	if (annotate_lines__build(&fx->lines, fx->a, "hot_a", true, false, fx->srcs))
		return "no memory";
	fx->have_lines = true;
	fx->total = 400;
	fx->sp = (struct annotate_symbol_print){
	    .a = fx->a,
	    .hist = ember_annotate_hists__find(fx->hists, fx->dso, fx->sym),
	    .events = &fx->event,
	    .nr_events = 1,
	    .dso_name = "hotloop",
	    .dso_long_name = path,
	    .dso_short_name = "hotloop",
	    .event_name = "cpu-clock:ppp",
	    .total_period = &fx->total,
	};
	fx->sp.dso_long_name = "/path/to/hotloop";
	if (tui_annotate_view__init(&fx->v, &fx->sp, &fx->lines, &fx->po, "hot_a", NULL))
		return "no memory";
	return NULL;
}

static void teardown(struct fixture *fx)
{
	tui_annotate_view__exit(&fx->v);
	if (fx->have_lines)
		annotate_lines__exit(&fx->lines);
	annotate_sources__delete(fx->srcs);
	ember_annotate_hists__delete(fx->hists);
	ember_annotation__delete(fx->a);
	ember_dso__delete(fx->dso);
}

TEST(tui_annotate_view_rows)
{
	struct fixture fx;
	const char *why = setup(&fx);
	const struct tui_annotate_row *r, *hot;
	struct tui_annotate_colors c;
	char buf[1024], name[16];
	long add, load, jump;

	if (why) {
		teardown(&fx);
		SKIP(why);
	}
	add = insn_named(fx.a, "add    %rax,%rdx");
	load = insn_named(fx.a, "mov    0x");
	jump = insn_named(fx.a, "j");
	/* the hottest instruction last, the markers left out */
	CHECK(fx.v.nr_hot > 0);
	hot = &fx.v.rows[fx.v.hot[fx.v.nr_hot - 1]];
	CHECK_EQ(hot->insn, add);
	for (size_t i = 0; i < fx.v.nr_rows; i++)
		CHECK(fx.v.rows[i].text[0] != '/');
	/* the percent of the symbol's period, then perf's simplified text */
	tui_annotate_view__row_text(&fx.v, hot, false, 60, buf, sizeof(buf), &c);
	CHECK(!strncmp(buf, " 75.00  ", 8));
	CHECK(strstr(buf, "add %rax,%rdx") != NULL);
	CHECK_EQ((long)strlen(buf), 60);
	/* a RIP-relative load named after its symbol, the comment dropped */
	if (load >= 0) {
		r = row_of(&fx.v, load);
		CHECK(r != NULL);
		tui_annotate_view__row_text(&fx.v, r, false, 60, buf, sizeof(buf), &c);
		CHECK(strstr(buf, "mov sink,%rdx") != NULL);
		CHECK(strchr(buf, '#') == NULL);
	}
	/* the loop's jump: back up to a row that shows its offset */
	CHECK(jump >= 0);
	r = row_of(&fx.v, jump);
	CHECK(r != NULL);
	if (r) {
		const struct ember_annotation_insn *in = ember_annotation__insn(fx.a, (size_t)jump);
		char want[64];

		CHECK_EQ(r->kind, 'j');
		CHECK(r->target_row >= 0);
		CHECK(fx.v.rows[r->target_row].jump_sources >= 1);
		tui_annotate_view__row_text(&fx.v, r, false, 60, buf, sizeof(buf), &c);
		CHECK(strchr(buf, TUI_GRAPH_UP) != NULL);
		sscanf(in->text, "%15s", name);
		snprintf(want, sizeof(want), "%s %lx", name,
			 (unsigned long)(in->target - ember_annotation__addr(fx.a)));
		CHECK(strstr(buf, want) != NULL);
		/* o: objdump's text and every address */
		fx.v.use_offset = false;
		tui_annotate_view__update_widths(&fx.v);
		tui_annotate_view__row_text(&fx.v, r, false, 60, buf, sizeof(buf), &c);
		snprintf(want, sizeof(want), "%lx: ", (unsigned long)in->addr);
		CHECK(strstr(buf, want) != NULL);
		CHECK(strstr(buf, "<hot_a+0x") != NULL);
		fx.v.use_offset = true;
		tui_annotate_view__update_widths(&fx.v);
	}
	/* the top row's title where it has no percent */
	tui_annotate_view__row_text(&fx.v, &fx.v.rows[0], true, 60, buf, sizeof(buf), &c);
	CHECK(!strncmp(buf, "Percent ", 8));
	teardown(&fx);
}

TEST(tui_annotate_view_print)
{
	struct fixture fx;
	const char *why = setup(&fx);
	char *text = NULL;
	size_t len = 0;
	FILE *fp;

	if (why) {
		teardown(&fx);
		SKIP(why);
	}
	fp = open_memstream(&text, &len);
	CHECK(fp != NULL);
	if (fp) {
		CHECK_EQ(tui_annotate_view__fprintf(&fx.v, fp), 0);
		fclose(fp);
		/* perf's head, then a line a row, the graph as UTF-8 arrows */
		CHECK(!strncmp(text, "hot_a() /path/to/hotloop\nEvent: cpu-clock:ppp\n\nPercent",
			       52));
		CHECK(strstr(text, "\u2191 j") != NULL);
		CHECK(strstr(text, " 75.00 ") != NULL);
	}
	free(text);
	teardown(&fx);
}
