// SPDX-License-Identifier: GPL-2.0-only
/*
 * probevars N: variables for ember probe to read through DWARF. Each of
 * N rounds fills a struct record (an id, a name array, a label pointer,
 * a nested struct with an array, bitfields, a link to the previous
 * record) and passes it to functions that take it by pointer
 * (pv_record), its nested struct by value (pv_byvalue: in two registers,
 * whose members perf does not read), a string (pv_label),
 * a counter kept in a local whose address is taken (pv_sum, on the stack
 * through the frame base) and globals (pv_globals). Return values of
 * several types: int, unsigned long, char *, a struct pointer. main
 * asks libc's getenv for PROBEVARS_TAG once, a libc function with a
 * string argument to probe.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pv_point {
	int x;
	int y;
	short taps[4];
};

struct pv_record {
	int id;
	char name[16];
	const char *label;
	struct pv_point at;
	unsigned int flags : 3;
	unsigned int level : 5;
	unsigned char kind;
	long weight;
	struct pv_record *prev;
};

int pv_total;
static unsigned long pv_calls;
const char *pv_motto = "probe me";
static volatile long sink;

__attribute__((noinline)) int pv_record(struct pv_record *r, int scale)
{
	int local = r->id * scale;

	sink += local + r->at.taps[2];
	return local + r->at.y;
}

__attribute__((noinline)) long pv_byvalue(struct pv_point p, long bias)
{
	sink += p.x;
	return p.x + p.y + p.taps[1] + bias;
}

__attribute__((noinline)) size_t pv_label(const char *label, unsigned char tag)
{
	sink += tag;
	return strlen(label);
}

__attribute__((noinline)) static void pv_bump(long *counter, long by)
{
	*counter += by;
}

__attribute__((noinline)) unsigned long pv_sum(int n)
{
	long acc = 0;

	for (int i = 0; i < n; i++)
		pv_bump(&acc, i);
	return (unsigned long)acc;
}

__attribute__((noinline)) const char *pv_globals(int which)
{
	pv_total += which;
	pv_calls++;
	return which & 1 ? pv_motto : "even";
}

__attribute__((noinline)) struct pv_record *pv_link(struct pv_record *r, struct pv_record *prev)
{
	r->prev = prev;
	return prev ? prev : r;
}

int main(int argc, char **argv)
{
	static const char *const labels[] = { "red", "green", "blue" };
	int n = argc > 1 ? atoi(argv[1]) : 10;
	struct pv_record recs[2];
	long total = 0;

	const char *tag = getenv("PROBEVARS_TAG");

	memset(recs, 0, sizeof(recs));
	for (int i = 0; i < n; i++) {
		struct pv_record *r = &recs[i & 1];

		r->id = i;
		snprintf(r->name, sizeof(r->name), "rec-%d", i);
		r->label = labels[i % 3];
		r->at.x = i;
		r->at.y = 2 * i;
		for (int k = 0; k < 4; k++)
			r->at.taps[k] = (short)(10 * k + i);
		r->flags = (unsigned int)i & 7;
		r->level = (unsigned int)(i + 3) & 31;
		r->kind = (unsigned char)('a' + i % 26);
		r->weight = 1000 + i;
		pv_link(r, i ? &recs[(i - 1) & 1] : NULL);
		total += pv_record(r, 3);
		total += pv_byvalue(r->at, i);
		total += (long)pv_label(r->label, r->kind);
		total += (long)pv_sum(i % 5);
		total += (long)strlen(pv_globals(i));
	}
	printf("%ld %d %lu %s\n", total, pv_total, pv_calls, tag ? tag : "-");
	return 0;
}
