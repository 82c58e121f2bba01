// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * An instruction's text as objdump -d prints it, from capstone's: the
 * mnemonic padded to six columns, operands joined by a bare comma,
 * numbers in hex (negative immediates as the operand size's unsigned
 * value), AT&T size suffixes only where no register gives the size, the
 * scale of an indexed address always written, Intel's size words in
 * capitals. Branch targets and RIP-relative comments are the caller's.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "annotate/insn-text.h"

struct out {
	char *buf;
	size_t size, len;
};

static void put(struct out *o, const char *s, size_t n)
{
	for (size_t i = 0; i < n && o->len + 1 < o->size; i++)
		o->buf[o->len++] = s[i];
	o->buf[o->len] = '\0';
}

static void puts_(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

static void put_hex(struct out *o, uint64_t v)
{
	char tmp[24];

	snprintf(tmp, sizeof(tmp), "0x%" PRIx64, v);
	puts_(o, tmp);
}

static uint64_t mask_to(int64_t v, unsigned int size)
{
	if (size == 0 || size >= 8)
		return (uint64_t)v;
	return (uint64_t)v & ((1ULL << (size * 8)) - 1);
}

/* Parses a number capstone printed ("-8", "0x2eb0", "12") at *p; returns its length, 0 if none. */
static size_t parse_num(const char *p, int64_t *v, bool *neg)
{
	const char *s = p;
	uint64_t u = 0;

	*neg = *s == '-';
	if (*neg)
		s++;
	if (!isdigit((unsigned char)*s))
		return 0;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		while (isxdigit((unsigned char)*s)) {
			u = u * 16 + (uint64_t)(isdigit((unsigned char)*s) ? *s - '0' :
						 (tolower((unsigned char)*s) - 'a' + 10));
			s++;
		}
	} else {
		while (isdigit((unsigned char)*s))
			u = u * 10 + (uint64_t)(*s++ - '0');
	}
	if (isalnum((unsigned char)*s) || *s == '_')
		return 0;
	*v = *neg ? -(int64_t)u : (int64_t)u;
	return (size_t)(s - p);
}

/* Where the operand walk is, for the syntax's step. */
struct walk {
	unsigned int imm_size;
	bool zero_disp;
	bool start;			/* at the start of an operand (or of a token, AT&T) */
	const char *ops;		/* the operands walked (what p points into) */
	const char *mem_tail;		/* Intel: what to write before the next ']' */
	bool mem_scale;			/* Intel: "*1" to write after the index register */
	bool rip_neg;			/* Intel: a displacement below rip, as unsigned */
	/* Intel: the size of a scalar compare's memory operand, which capstone calls xmmword */
	const char *scalar_size;
	int mem_regs;			/* Intel: registers written in this [...] */
};

/* One step of an operand walk: writes what it read at p, returns how many bytes (>= 1). */
typedef size_t (*step_fn)(struct out *o, const char *p, struct walk *w);

/* Capstone's operands, ", "-separated, each step of the syntax writing objdump's form. */
static void operands(struct out *o, const char *ops, struct walk *w, step_fn step)
{
	const char *p = ops;

	w->start = true;
	while (*p) {
		if (*p == ',' && p[1] == ' ') {
			puts_(o, ",");
			p += 2;
			w->start = true;
			continue;
		}
		p += step(o, p, w);
	}
}

static size_t att_step(struct out *o, const char *p, struct walk *w)
{
	const char *close;
	int64_t v;
	bool neg;
	size_t n;
	int commas = 0;

	if (*p == '$' && (n = parse_num(p + 1, &v, &neg))) {
		puts_(o, "$");
		put_hex(o, mask_to(v, w->imm_size));
		w->start = false;
		return 1 + n;
	}
	if (w->start && (n = parse_num(p, &v, &neg))) {
		/* a displacement or an absolute address */
		if (neg && p[n] == '(') {
			puts_(o, "-");
			put_hex(o, (uint64_t)-v);
		} else {
			put_hex(o, (uint64_t)v);
		}
		w->start = false;
		return n;
	}
	if (*p != '(') {
		w->start = *p == ':' || *p == '*' || *p == ' ';
		put(o, p, 1);
		return 1;
	}
	/* (base,index,scale): no spaces, the scale always written */
	close = strchr(p, ')');
	if (w->start && w->zero_disp)
		puts_(o, "0x0");
	if (!close)
		close = p + strlen(p) - 1;
	for (const char *q = p; q < close; q++) {
		if (*q == ' ')
			continue;
		if (*q == ',')
			commas++;
		put(o, q, 1);
	}
	if (commas == 1)
		puts_(o, ",1");
	if (*close == ')')
		puts_(o, ")");
	w->start = false;
	return (size_t)(close - p) + 1;
}

static bool is_size_word(const char *w, size_t n)
{
	static const char *const words[] = { "byte", "word", "dword", "qword", "tbyte", "xword",
					     "xmmword", "ymmword", "zmmword", "ptr" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == n && !strncmp(words[i], w, n))
			return true;
	return false;
}

/*
 * Intel memory "[base + index]": objdump writes the scale always, right
 * after the index (*scale_one), and an encoded 0 displacement (returned:
 * the tail before ']').
 */
static const char *intel_memory(const char *p, bool zero_disp, bool *scale_one)
{
	const char *close = strchr(p, ']');
	bool has_num = false, has_scale = false;
	int regs = 0;

	if (!close)
		return NULL;
	for (const char *q = p + 1; q < close; q++) {
		if (*q == '*')
			has_scale = true;
		else if (isdigit((unsigned char)*q) && (q[-1] == ' ' || q[-1] == '['))
			has_num = true;
		else if (isalpha((unsigned char)*q) && !isalnum((unsigned char)q[-1]))
			regs++;
	}
	*scale_one = regs == 2 && !has_scale;
	return zero_disp && !has_num ? "+0x0" : NULL;
}

static size_t intel_step(struct out *o, const char *p, struct walk *w)
{
	const char *q = p;
	int64_t v;
	bool neg;
	size_t n;

	if (*p == '[') {
		const char *close = strchr(p, ']');
		int64_t abs;
		bool aneg;
		size_t an;

		/* a segment's absolute address, "fs:[0x28]": objdump writes fs:0x28 */
		if (p > w->ops && p[-1] == ':' && close && (an = parse_num(p + 1, &abs, &aneg)) &&
		    p + 1 + an == close) {
			put_hex(o, (uint64_t)abs);
			return (size_t)(close - p) + 1;
		}
		w->mem_tail = intel_memory(p, w->zero_disp, &w->mem_scale);
		w->mem_regs = 0;
	}
	if (*p == ']') {
		if (w->mem_tail)
			puts_(o, w->mem_tail);
		w->mem_tail = NULL;
		w->mem_scale = false;
	}
	if (*p == ' ' && (p[1] == '+' || p[1] == '-') && p[2] == ' ') {
		/* objdump: [rip+0xffffffffffffd9a4], a 64-bit sum, not [rip-0x265c] */
		if (p[1] == '-' && p - w->ops >= 3 && !strncmp(p - 3, "rip", 3)) {
			puts_(o, "+");
			w->rip_neg = true;
			return 3;
		}
		put(o, p + 1, 1);
		return 3;
	}
	if (isalpha((unsigned char)*p) || *p == '_') {
		while (isalnum((unsigned char)*q) || *q == '_')
			q++;
		/* capstone's "ptr [m]" without a size (xsave's area): objdump writes "[m]" */
		if (w->start && q - p == 3 && !strncmp(p, "ptr", 3) && *q == ' ')
			return 4;
		if (is_size_word(p, (size_t)(q - p))) {
			/* capstone's size of an operand where objdump's differs */
			bool xmm = q - p == 7 && !strncmp(p, "xmmword", 7);
			const char *size = q - p == 5 && !strncmp(p, "xword", 5) ? "TBYTE" :
					   xmm ? w->scalar_size : NULL;

			if (size) {
				puts_(o, size);
				w->start = false;
				return (size_t)(q - p);
			}
			for (const char *c = p; c < q; c++) {
				char up = (char)toupper((unsigned char)*c);

				put(o, &up, 1);
			}
		} else {
			put(o, p, (size_t)(q - p));
			if (w->mem_scale && ++w->mem_regs == 2)
				puts_(o, "*1");
		}
		w->start = false;
		return (size_t)(q - p);
	}
	/* a scale is decimal */
	if (p > w->ops && p[-1] == '*' && isdigit((unsigned char)*p)) {
		put(o, p, 1);
		return 1;
	}
	if ((n = parse_num(p, &v, &neg))) {
		if (w->rip_neg)
			put_hex(o, -(uint64_t)v);
		else
			put_hex(o, w->start ? mask_to(v, w->imm_size) : (uint64_t)v);
		w->rip_neg = false;
		w->start = false;
		return n;
	}
	put(o, p, 1);
	return 1;
}

/* A general-purpose register sets an operation's size; %xmm, %st or a segment does not. */
static bool is_gpr(const char *p)
{
	return strncmp(p, "%xmm", 4) && strncmp(p, "%ymm", 4) && strncmp(p, "%zmm", 4) &&
	       strncmp(p, "%st", 3) && strncmp(p, "%mm", 3) && strncmp(p, "%k", 2);
}

/* AT&T: capstone writes every size suffix; objdump only where no register operand sets it. */
static bool has_register_operand(const char *ops)
{
	const char *p = ops;

	while (*p) {
		const char *end = p;
		int depth = 0;

		while (*end && (depth || *end != ',')) {
			depth += *end == '(';
			depth -= *end == ')';
			end++;
		}
		while (*p == ' ' || *p == '*')
			p++;
		if (*p == '%' && is_gpr(p) && !memchr(p, ':', (size_t)(end - p)) &&
		    !memchr(p, '(', (size_t)(end - p)))
			return true;
		p = *end ? end + 1 : end;
	}
	return false;
}

static void att_mnemonic(char *m, size_t msize, const char *mnemonic, const char *base,
			 const char *ops, bool always_strip)
{
	const char *word = strrchr(mnemonic, ' ');	/* after a prefix: "lock cmpxchgl" */
	size_t bl = strlen(base), ml, at;

	word = word ? word + 1 : mnemonic;
	ml = strlen(word);
	at = (size_t)(word - mnemonic) + bl;
	snprintf(m, msize, "%s", mnemonic);
	if (ml != bl + 1 || strncmp(word, base, bl) || !strchr("bwlq", word[bl]) || at >= msize)
		return;
	if (always_strip || has_register_operand(ops))
		m[at] = '\0';
}

/* (v)(u)comisd and (v)(u)comiss compare a 64- or 32-bit scalar: objdump's QWORD, DWORD */
static const char *scalar_compare_size(const char *m)
{
	if (*m == 'v')
		m++;
	if (*m == 'u')
		m++;
	if (!strcmp(m, "comisd"))
		return "QWORD";
	if (!strcmp(m, "comiss"))
		return "DWORD";
	return NULL;
}

void insn_text__format(char *buf, size_t size, const struct insn_text_in *in)
{
	struct out o = { buf, size, 0 };
	const char *opstr = in->ops, *seg;
	char m[64], ops[256];

	if (!size)
		return;
	buf[0] = '\0';
	if (in->intel)
		snprintf(m, sizeof(m), "%s", in->mnemonic);
	else
		att_mnemonic(m, sizeof(m), in->mnemonic, in->base, in->ops, in->branch_or_stack);
	/* a segment override on a nop (padding) is a prefix to objdump: "cs nopw 0x0(...)" */
	if (!strncmp(in->mnemonic, "nop", 3) && (seg = strstr(in->ops, in->intel ? "cs:" : "%cs:"))) {
		size_t ml = strlen(m);

		if (ml + 4 <= sizeof(m)) {
			memmove(m + 3, m, ml + 1);
			memcpy(m, "cs ", 3);
		}
		snprintf(ops, sizeof(ops), "%.*s%s", (int)(seg - in->ops), in->ops,
			 seg + (in->intel ? 3 : 4));
		opstr = ops;
	}
	puts_(&o, m);
	if (in->target_text) {
		for (size_t n = strlen(m); n < 6; n++)
			puts_(&o, " ");
		puts_(&o, " ");
		puts_(&o, in->target_text);
		return;
	}
	if (!*opstr)
		return;
	for (size_t n = strlen(m); n < 6; n++)
		puts_(&o, " ");
	puts_(&o, " ");
	operands(&o, opstr,
		 &(struct walk){ .imm_size = in->imm_size, .zero_disp = in->zero_disp, .ops = opstr,
				 .scalar_size = scalar_compare_size(in->mnemonic) },
		 in->intel ? intel_step : att_step);
}

/* A string instruction's operands: '#' its register, '@' its size word (Intel) */
static const struct {
	const char *name, *att, *intel;
	bool repz;			/* f3 is repz (the compares), not rep */
} string_ops[] = {
	{ "movs", "%ds:(%rsi),%es:(%rdi)", "@ PTR es:[rdi],@ PTR ds:[rsi]", false },
	{ "cmps", "%es:(%rdi),%ds:(%rsi)", "@ PTR ds:[rsi],@ PTR es:[rdi]", true },
	{ NULL, NULL, NULL, false },	/* a8, a9: test with an immediate */
	{ "stos", "%#,%es:(%rdi)", "@ PTR es:[rdi],#", false },
	{ "lods", "%ds:(%rsi),%#", "#,@ PTR ds:[rsi]", false },
	{ "scas", "%es:(%rdi),%#", "#,@ PTR es:[rdi]", true },
};

int insn_text__string_op(char *buf, size_t size, const unsigned char *bytes, size_t len,
			 bool intel)
{
	static const char *const regs[4] = { "al", "ax", "eax", "rax" };
	static const char *const ptr[4] = { "BYTE", "WORD", "DWORD", "QWORD" };
	static const char suffix[4] = { 'b', 'w', 'l', 'q' };
	const char *rep = "", *fmt;
	bool opsize = false, rexw = false;
	char mnem[32], ops[96];
	size_t i = 0, n = 0;
	int w, k;

	for (; i < len; i++) {
		if (bytes[i] == 0xf3)
			rep = "rep ";
		else if (bytes[i] == 0xf2)
			rep = "repnz ";
		else if (bytes[i] == 0x66)
			opsize = true;
		else if ((bytes[i] & 0xf0) == 0x40)
			rexw = bytes[i] & 8;
		else
			break;
	}
	if (i + 1 != len || bytes[i] < 0xa4 || bytes[i] > 0xaf)
		return 0;
	k = (bytes[i] - 0xa4) / 2;
	if (!string_ops[k].name)
		return 0;
	w = !(bytes[i] & 1) ? 0 : rexw ? 3 : opsize ? 1 : 2;
	if (string_ops[k].repz && !strcmp(rep, "rep "))
		rep = "repz ";
	/* objdump keeps the size suffix where no register tells it (AT&T movs, cmps) */
	if (!intel && k < 2)
		snprintf(mnem, sizeof(mnem), "%s%s%c", rep, string_ops[k].name, suffix[w]);
	else
		snprintf(mnem, sizeof(mnem), "%s%s", rep, string_ops[k].name);
	for (fmt = intel ? string_ops[k].intel : string_ops[k].att; *fmt && n + 8 < sizeof(ops);
	     fmt++) {
		const char *word = *fmt == '#' ? regs[w] : *fmt == '@' ? ptr[w] : NULL;

		if (word)
			n += (size_t)snprintf(ops + n, sizeof(ops) - n, "%s", word);
		else
			ops[n++] = *fmt;
	}
	ops[n] = '\0';
	snprintf(buf, size, "%-6s %s", mnem, ops);
	return 1;
}

size_t insn_text__data16(const unsigned char *bytes, size_t len)
{
	size_t n = 0;

	while (n < len && bytes[n] == 0x66)
		n++;
	/* 66 .. 66 [2e] 0f 1f: a nopw; the last 66 is its operand size */
	if (n < 2 || n >= len)
		return 0;
	if (bytes[n] == 0x2e)
		n++;
	if (n + 1 >= len || bytes[n] != 0x0f || bytes[n + 1] != 0x1f)
		return 0;
	while (n && bytes[n - 1] != 0x66)
		n--;
	return n - 1;
}
