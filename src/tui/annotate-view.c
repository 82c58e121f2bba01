// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rows of perf annotate's browser (perf 6.1's annotation_line__write()
 * and disasm_line__scnprintf(), their layout, our own code):
 *
 *   PERCENT|ADDR: G INSN OPERANDS       an instruction
 *   PERCENT|      SOURCE TEXT           any other line
 *
 * PERCENT is "%6.2f " per event (or the samples, or the period), "Percent"
 * on the top row when that row has none; ADDR the offset of a jump target
 * (all addresses with o); G perf's graph: a jump down or up inside the
 * symbol, a call or a jump out, a ret.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tui/annotate-view.h"

/* printf at buf + *pos, *pos moved past it (kept in size); what printf counted */
static int cat(char *buf, size_t size, size_t *pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int cat(char *buf, size_t size, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*pos >= size)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(buf + *pos, size - *pos, fmt, ap);
	va_end(ap);
	if (n < 0)
		return 0;
	*pos = *pos + (size_t)n < size ? *pos + (size_t)n : size - 1;
	return n;
}

/* perf's hex_width(): the hex digits of x. */
static int hex_width(uint64_t x)
{
	int n = 1;

	while ((x >>= 4))
		n++;
	return n;
}

static uint64_t sym_size(const struct ember_annotation *a)
{
	size_t n = ember_annotation__nr_insns(a);
	const struct ember_annotation_insn *last = n ? ember_annotation__insn(a, n - 1) : NULL;

	return last ? last->offset + last->size : 0;
}

/* An instruction's name (its first word) and operands. */
static void split_insn(const char *text, char *name, size_t size, const char **ops)
{
	size_t n = strcspn(text, " \t");

	snprintf(name, size, "%.*s", (int)n, text);
	*ops = text + n + strspn(text + n, " \t");
}

static int width_of(int n)
{
	char tmp[16];

	return snprintf(tmp, sizeof(tmp), "%d", n);
}

static long row_of_offset(const struct tui_annotate_view *v, uint64_t offset)
{
	for (size_t r = 0; r < v->nr_rows; r++)
		if (v->rows[r].insn >= 0 &&
		    ember_annotation__insn(v->a, (size_t)v->rows[r].insn)->offset == offset)
			return (long)r;
	return -1;
}

static void classify(struct tui_annotate_view *v, struct tui_annotate_row *r, const char *plt)
{
	const struct ember_annotation_insn *in = ember_annotation__insn(v->a, (size_t)r->insn);
	uint64_t start = ember_annotation__addr(v->a);
	char name[32];
	const char *ops;

	split_insn(r->text, name, sizeof(name), &ops);
	if (!strcmp(name, "ret") || !strcmp(name, "retq"))
		r->kind = 'r';
	else if (!strcmp(name, "call") || !strcmp(name, "callq"))
		r->kind = 'c';
	else if (name[0] == 'j')
		r->kind = 'j';
	if (r->kind != 'j')
		return;
	/* perf's jump__parse(): out of [start, end] (end included) is a call's */
	r->outside = !in->has_target || in->target < start || in->target > start + sym_size(v->a);
	if (!r->outside && !plt)
		r->target_row = row_of_offset(v, in->target - start);
}

static int build_rows(struct tui_annotate_view *v, const struct annotate_lines *l)
{
	const char *plt = strstr(v->sym_name, "@plt");
	int line_nr = 0, max_jumps = 0;

	v->rows = calloc(l->nr ? l->nr : 1, sizeof(*v->rows));
	v->shown = calloc(l->nr ? l->nr : 1, sizeof(*v->shown));
	v->hot = calloc(l->nr ? l->nr : 1, sizeof(*v->hot));
	if (!v->rows || !v->shown || !v->hot)
		return -ENOMEM;
	for (size_t i = 0; i < l->nr; i++) {
		struct tui_annotate_row *r = &v->rows[v->nr_rows];

		if (l->lines[i].insn < 0 && annotate__is_marker(l->lines[i].text, &line_nr))
			continue;
		r->text = l->lines[i].text + strspn(l->lines[i].text, " \t");
		r->insn = l->lines[i].insn;
		r->line_nr = line_nr++;
		r->target_row = -1;
		v->nr_rows++;
	}
	for (size_t i = 0; i < v->nr_rows; i++) {
		struct tui_annotate_row *r = &v->rows[i];
		char name[32];
		const char *ops;

		if (r->insn < 0)
			continue;
		classify(v, r, plt);
		split_insn(r->text, name, sizeof(name), &ops);
		if ((int)strlen(name) > v->max_name)
			v->max_name = (int)strlen(name);
		if (r->target_row >= 0) {
			struct tui_annotate_row *t = &v->rows[r->target_row];

			if (++t->jump_sources > max_jumps)
				max_jumps = t->jump_sources;
		}
	}
	v->target_w = hex_width(sym_size(v->a));
	v->max_addr_w = hex_width(ember_annotation__addr(v->a) + sym_size(v->a));
	v->jumps_w = width_of(max_jumps);
	return 0;
}

/* The rows shown: all, or the instructions only (s). */
void tui_annotate_view__filter(struct tui_annotate_view *v)
{
	v->nr_shown = 0;
	for (size_t i = 0; i < v->nr_rows; i++)
		if (!v->hide_source || v->rows[i].insn >= 0)
			v->shown[v->nr_shown++] = i;
}

/* perf's annotation__update_column_widths() */
void tui_annotate_view__update_widths(struct tui_annotate_view *v)
{
	v->addr_w = v->use_offset ? v->target_w : v->max_addr_w;
	if (v->show_nr_jumps)
		v->addr_w += v->jumps_w + 1;
}

static int nr_columns(const struct tui_annotate_view *v)
{
	return (int)v->sp->nr_events;
}

int tui_annotate_view__pcnt_width(const struct tui_annotate_view *v)
{
	return (v->po->show_total_period ? 12 : 7) * nr_columns(v);
}

static double row_percent(const struct tui_annotate_view *v, const struct tui_annotate_row *r,
			  uint32_t e)
{
	return annotate__insn_percent(v->sp, v->po, (size_t)r->insn, e);
}

static double max_percent(const struct tui_annotate_view *v, const struct tui_annotate_row *r)
{
	double max = 0.0;

	for (uint32_t e = 0; r->insn >= 0 && e < v->sp->nr_events; e++) {
		double p = row_percent(v, r, e);

		max = p > max ? p : max;
	}
	return max;
}

/* perf's tree of the hot lines: by the events' percents, the later line above its equal */
static int cmp_hot(const void *pa, const void *pb, void *ctx)
{
	const struct tui_annotate_view *v = ctx;
	const struct tui_annotate_row *x = &v->rows[*(const size_t *)pa],
				      *y = &v->rows[*(const size_t *)pb];

	for (uint32_t e = 0; e < v->sp->nr_events; e++) {
		double p = row_percent(v, x, e), q = row_percent(v, y, e);

		if (p != q)
			return p < q ? -1 : 1;
	}
	return *(const size_t *)pa < *(const size_t *)pb ? -1 : 1;
}

static void sort_hot(struct tui_annotate_view *v)
{
	v->nr_hot = 0;
	/* perf leaves out of its tree the instructions under 0.01 % */
	for (size_t i = 0; i < v->nr_rows; i++)
		if (v->rows[i].insn >= 0 && max_percent(v, &v->rows[i]) >= 0.01)
			v->hot[v->nr_hot++] = i;
	qsort_r(v->hot, v->nr_hot, sizeof(*v->hot), cmp_hot, v);
}

/* perf's x86 instructions whose two operands it parses (mov_ops), naming rip-relative ones */
static bool is_mov_like(const char *name)
{
	static const char *const names[] = {
	    "add",     "addl",	  "addq",     "addsd",	"addw",	   "and",    "andb",	"andl",
	    "andpd",   "andps",	  "andq",     "andw",	"bts",	   "cmovbe", "cmovae",	"cmove",
	    "cmp",     "cmpb",	  "cmpl",     "cmpq",	"cmpw",	   "cmpxch", "cmpxchg", "imul",
	    "lea",     "mov",	  "movapd",   "movaps", "movb",	   "movdqa", "movdqu",	"movl",
	    "movq",    "movsd",	  "movslq",   "movss",	"movzbl",  "movzwl", "movsbl",	"movsbw",
	    "movsbq",  "movswl",  "movswq",   "movzbw", "movzbq",  "movzwq", "mulsd",	"mulss",
	    "or",      "orb",	  "orl",      "orps",	"orq",	   "pand",   "paddq",	"pcmpeqb",
	    "por",     "rclb",	  "rcll",     "sbb",	"sbbl",	   "sub",    "subl",	"subq",
	    "subsd",   "subss",	  "subw",     "test",	"testb",   "testl",  "testq",	"testw",
	    "ucomisd", "ucomiss", "vaddsd",   "vandpd", "vmovdqa", "vmovq",  "vmovsd",	"vmulsd",
	    "vorpd",   "vsubsd",  "vucomisd", "xadd",	"xchg",	   "xor",    "xorb",	"xorpd",
	    "xorps",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/* perf's comment__symbol(): a rip-relative operand named after objdump's "# addr <name>" */
static void operand(char *out, size_t size, const char *op, size_t len, const char *comment)
{
	const char *lt = NULL, *gt = NULL;
	char *end;

	if (comment && memmem(op, len, "(%rip)", 6)) {
		strtoull(comment, &end, 16);
		lt = end != comment ? strchr(end, '<') : NULL;
		gt = lt ? strchr(lt, '>') : NULL;
	}
	if (gt)
		snprintf(out, size, "%.*s", (int)(gt - lt - 1), lt + 1);
	else
		snprintf(out, size, "%.*s", (int)len, op);
}

/*
 * perf's mov__parse() and mov__scnprintf(): "NAME SOURCE,TARGET", the
 * comment dropped; false where perf's parse gives up (its text is then
 * objdump's): no comma, or a source's parenthesis not closed right
 * before one.
 */
static bool mov_text(const char *ops, int w, const char *name, char *buf, size_t size)
{
	const char *comma = strchr(ops, ','), *target, *comment, *end;
	char src[128], dst[128];

	if (!comma)
		return false;
	/* the source's own commas, up to its closing parenthesis */
	if (memchr(ops, '(', comma - ops)) {
		const char *paren = strchr(ops, ')');

		if (!paren || paren[1] != ',')
			return false;
		comma = paren + 1;
	}
	target = comma + 1 + strspn(comma + 1, " \t");
	comment = strchr(comma + 1, '#');
	end = comment ? comment : target + strlen(target);
	while (end > target && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	operand(src, sizeof(src), ops, comma - ops, comment ? comment + 1 : NULL);
	operand(dst, sizeof(dst), target, end - target, comment ? comment + 1 : NULL);
	snprintf(buf, size, "%-*s %s,%s", w, name, src, dst);
	return true;
}

/* perf's dec__scnprintf() for inc and dec: the one operand, named when rip-relative */
static void one_operand_text(const char *ops, int w, const char *name, char *buf, size_t size)
{
	const char *comment = strchr(ops, '#'), *end = comment ? comment : ops + strlen(ops);
	char op[128];

	while (end > ops && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	operand(op, sizeof(op), ops, end - ops, comment ? comment + 1 : NULL);
	snprintf(buf, size, "%-*s %s", w, name, op);
}

/* The instruction as perf's TUI shows it (disasm_line__scnprintf()). */
static void insn_text(const struct tui_annotate_view *v, const struct tui_annotate_row *r,
		      char *buf, size_t size)
{
	const struct ember_annotation_insn *in = ember_annotation__insn(v->a, (size_t)r->insn);
	int w = v->max_name;
	char name[32];
	const char *ops;

	split_insn(r->text, name, sizeof(name), &ops);
	if (!v->use_offset) {
		snprintf(buf, size, "%-*s %s", w, name, ops);
		return;
	}
	if (r->kind == 'j' && !r->outside) {
		/* the operands before the target kept (a 3-operand jump), the target's offset */
		const char *c = strrchr(ops, ',');
		int keep = c ? (int)(c + 1 - ops) : 0;

		snprintf(buf, size, "%-*s %.*s%" PRIx64, w, name, keep, ops,
			 in->target - ember_annotation__addr(v->a));
		return;
	}
	if (r->kind == 'c' || r->kind == 'j') {
		/*
		 * perf's call__scnprintf(), jump__scnprintf() out of the symbol:
		 * a jump back before its start keeps objdump's text
		 */
		bool before = r->kind == 'j' && in->target < ember_annotation__addr(v->a);
		const char *sym = in->has_target && !before && v->symbol_at
				      ? v->symbol_at(v->ctx, in->target)
				      : NULL;
		const char *lt = strchr(ops, '<'), *gt = lt ? strchr(lt, '>') : NULL;

		if (sym)
			snprintf(buf, size, "%-*s %s", w, name, sym);
		else if (r->kind == 'c' && in->has_target && gt)
			snprintf(buf, size, "%-*s %.*s", w, name, (int)(gt - lt - 1), lt + 1);
		else if (r->kind == 'c' && in->has_target)
			snprintf(buf, size, "%-*s *%" PRIx64, w, name, in->target);
		else
			snprintf(buf, size, "%-*s %s", w, name, ops);
		return;
	}
	if (is_mov_like(name) && mov_text(ops, w, name, buf, size))
		return;
	if (!strcmp(name, "inc") || !strcmp(name, "incl") || !strcmp(name, "dec") ||
	    !strcmp(name, "decl")) {
		one_operand_text(ops, w, name, buf, size);
		return;
	}
	snprintf(buf, size, "%-*s %s", w, name, ops);
}

/*
 * A row's text, as perf's annotation_line__write() prints it in width
 * cells (0: as it writes it to a file, padded by its negative widths).
 */
void tui_annotate_view__row_text(const struct tui_annotate_view *v,
				 const struct tui_annotate_row *r, bool first, int width, char *buf,
				 size_t size, struct tui_annotate_colors *c)
{
	const struct annotate_print_opts *po = v->po;
	int pw = tui_annotate_view__pcnt_width(v), printed;
	double max = max_percent(v, r);
	size_t pos = 0;

	buf[0] = '\0';
	c->percent = 0.0;
	c->addr_start = c->addr_len = 0;
	if (r->insn >= 0 && max != 0.0) {
		for (uint32_t e = 0; e < v->sp->nr_events; e++) {
			uint64_t nr = 0, period = 0;

			ember_annotation__sum(v->a, (size_t)r->insn, v->sp->hist, v->sp->events[e],
					      &nr, &period);
			c->percent = row_percent(v, r, e);
			if (po->show_total_period)
				cat(buf, size, &pos, "%11" PRIu64 " ", period);
			else if (po->show_nr_samples)
				cat(buf, size, &pos, "%6" PRIu64 " ", nr);
			else
				cat(buf, size, &pos, "%6.2f ", c->percent);
		}
	} else {
		cat(buf, size, &pos, "%-*s", pw,
		    !first		    ? " "
		    : po->show_total_period ? "Period"
		    : po->show_nr_samples   ? "Samples"
					    : "Percent");
	}
	cat(buf, size, &pos, " ");
	if (!*r->text) {
		cat(buf, size, &pos, "%-*s", width - pw, " ");
		return;
	}
	if (r->insn < 0) {
		if (r->line_nr && v->show_linenr)
			printed = cat(buf, size, &pos, "%-*d ", v->addr_w + 1, r->line_nr);
		else
			printed = cat(buf, size, &pos, "%-*s  ", v->addr_w, " ");
		cat(buf, size, &pos, "%-*s", width - printed - pw + 1, r->text);
		return;
	}
	{
		const struct ember_annotation_insn *in =
		    ember_annotation__insn(v->a, (size_t)r->insn);
		char text[512];

		c->addr_start = (int)pos;
		if (!v->use_offset) {
			printed = cat(buf, size, &pos, "%" PRIx64 ": ", in->addr);
		} else if (r->jump_sources || (r->kind == 'c' && v->offset_level >= 2) ||
			   v->offset_level >= 3) {
			/* O's levels: the jump targets, the calls too, every instruction */
			if (r->jump_sources && v->show_nr_jumps)
				cat(buf, size, &pos, "%*d ", v->jumps_w, r->jump_sources);
			printed = cat(buf, size, &pos, "%*" PRIx64 ": ", v->target_w, in->offset);
		} else {
			printed = cat(buf, size, &pos, "%-*s  ", v->addr_w, " ");
		}
		c->addr_len = (int)pos - c->addr_start;
		switch (r->kind) {
		case 'j':
			cat(buf, size, &pos, "%c ",
			    r->outside ? TUI_GRAPH_RIGHT
			    : in->target - ember_annotation__addr(v->a) > in->offset
				? TUI_GRAPH_DOWN
				: TUI_GRAPH_UP);
			break;
		case 'c':
			cat(buf, size, &pos, "%c ", TUI_GRAPH_RIGHT);
			break;
		case 'r':
			cat(buf, size, &pos, "%c ", TUI_GRAPH_LEFT);
			break;
		default:
			cat(buf, size, &pos, "  ");
		}
		insn_text(v, r, text, sizeof(text));
		cat(buf, size, &pos, "%-*s", width - pw - 3 - printed, text);
	}
}

size_t tui_annotate_view__shown_index(const struct tui_annotate_view *v, size_t row)
{
	for (size_t i = 0; i < v->nr_shown; i++)
		if (v->shown[i] >= row)
			return i;
	return v->nr_shown ? v->nr_shown - 1 : 0;
}

/* perf's is_fused(): the instruction before the jump is fused with it; the rows between. */
int tui_annotate_view__fused(const struct tui_annotate_view *v, size_t jump_row)
{
	const struct tui_annotate_row *j = &v->rows[jump_row];
	char first[32], second[32];
	const char *ops;
	int diff = 1;
	long p = (long)jump_row - 1;

	if (!v->fused_family)
		return 0;
	while (p >= 0 && v->rows[p].insn < 0) {
		p--;
		if (!v->hide_source)
			diff++;
	}
	if (p < 0)
		return 0;
	split_insn(v->rows[p].text, first, sizeof(first), &ops);
	split_insn(j->text, second, sizeof(second), &ops);
	if (strstr(second, "jmp"))
		return 0;
	if (v->fused_amd) {
		if (v->fused_family >= 0x15 &&
		    (!strncmp(first, "test", 4) ||
		     (!strncmp(first, "cmp", 3) && !strstr(first, "xchg"))))
			return diff;
		if (v->fused_family >= 0x19 &&
		    (!strncmp(first, "add", 3) || !strncmp(first, "sub", 3) ||
		     !strncmp(first, "and", 3) || !strncmp(first, "inc", 3) ||
		     !strncmp(first, "dec", 3) || !strncmp(first, "or", 2) ||
		     !strncmp(first, "xor", 3)))
			return diff;
		return 0;
	}
	if (v->fused_family != 6 || v->fused_model < 0x1e)
		return 0;
	if ((strstr(first, "cmp") && !strstr(first, "xchg")) || strstr(first, "test"))
		return diff;
	if (v->fused_model != 0x1e &&
	    (strstr(first, "add") || strstr(first, "sub") || strstr(first, "and") ||
	     strstr(first, "inc") || strstr(first, "dec")))
		return diff;
	return 0;
}

/* perf's x86 ins_is_fused() knows the recording cpu: "Vendor,family,model,..." */
static void setup_fusion(struct tui_annotate_view *v, const char *id)
{
	unsigned int family, model;

	if (!id || sscanf(id, "%*[^,],%u,%u", &family, &model) != 2)
		return;
	v->fused_amd = strstr(id, "AuthenticAMD") != NULL;
	if (!v->fused_amd && !strstr(id, "Intel"))
		return;
	v->fused_family = (int)family;
	v->fused_model = (int)model;
}

int tui_annotate_view__init(struct tui_annotate_view *v, const struct annotate_symbol_print *sp,
			    const struct annotate_lines *lines,
			    const struct annotate_print_opts *po, const char *sym_name,
			    const char *cpuid)
{
	int err;

	*v = (struct tui_annotate_view){
	    .sp = sp,
	    .po = po,
	    .a = sp->a,
	    .sym_name = sym_name,
	    .use_offset = true,
	    .offset_level = 1,
	};
	err = build_rows(v, lines);
	if (err)
		return err;
	setup_fusion(v, cpuid);
	tui_annotate_view__update_widths(v);
	tui_annotate_view__filter(v);
	sort_hot(v);
	return 0;
}

void tui_annotate_view__exit(struct tui_annotate_view *v)
{
	free(v->rows);
	free(v->shown);
	free(v->hot);
	v->rows = NULL;
	v->shown = v->hot = NULL;
}

int tui_annotate_view__fprintf(const struct tui_annotate_view *v, FILE *fp)
{
	static const char *const graphs[] = {[TUI_GRAPH_DOWN] = "↓",
					     [TUI_GRAPH_UP] = "↑",
					     [TUI_GRAPH_RIGHT] = "→",
					     [TUI_GRAPH_LEFT] = "←"};
	char buf[1024];

	fprintf(fp, "%s() %s\nEvent: %s\n\n", v->sym_name, v->sp->dso_long_name, v->sp->event_name);
	for (size_t i = 0; i < v->nr_shown; i++) {
		struct tui_annotate_colors c;

		tui_annotate_view__row_text(v, &v->rows[v->shown[i]], i == 0, 0, buf, sizeof(buf),
					    &c);
		for (const char *p = buf; *p; p++) {
			if (*p >= TUI_GRAPH_DOWN && *p <= TUI_GRAPH_LEFT)
				fputs(graphs[(int)*p], fp);
			else
				fputc(*p, fp);
		}
		fputc('\n', fp);
	}
	return ferror(fp) ? -EIO : 0;
}
