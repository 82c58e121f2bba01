// SPDX-License-Identifier: GPL-2.0-only
/*
 * Whole runs of the collapser on small texts: naming rules, counts,
 * event filter, the script's quirks, and bad input (noise, NUL bytes,
 * giant lines, huge counts) that must neither crash nor hang.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <ember/collapse.h>
#include "collapse/sbuf.h"
#include "test.h"

static int append(void *ctx, const char *stack, size_t len, const char *count)
{
	struct sbuf *sb = ctx;

	if (sbuf_add(sb, stack, len) || sbuf_addc(sb, ' ') || sbuf_adds(sb, count) ||
	    sbuf_addc(sb, '\n'))
		return -1;
	return 0;
}

/* Runs text through a collapser fed in chunks of `chunk` bytes; returns the output (freed by the caller). */
static char *run(const struct ember_collapse_opts *o, const char *text, size_t len, size_t chunk)
{
	struct ember_collapse *c = ember_collapse__new(o);
	struct sbuf out = { 0 };

	if (!c)
		return NULL;
	for (size_t off = 0; off < len; off += chunk)
		ember_collapse__feed(c, text + off, len - off < chunk ? len - off : chunk);
	ember_collapse__end_file(c);
	ember_collapse__foreach(c, append, &out);
	ember_collapse__delete(c);
	sbuf_addc(&out, '\0');
	return out.buf;
}

static void fold_is(struct unit_test *t, const struct ember_collapse_opts *o, const char *text,
		    const char *want)
{
	size_t len = strlen(text);

	for (size_t chunk = 1; chunk <= len + 1; chunk = chunk < 8 ? chunk + 1 : chunk * 3) {
		char *got = run(o, text, len, chunk);
		bool same = got && !strcmp(got, want);

		CHECK_STR(got, want);
		free(got);
		if (!same)
			break;
	}
}

static const char two_samples[] =
	"# ========\n"
	"# cmdline : /usr/bin/perf record -g ./a.out\n"
	"V8 WorkerThread 24636/25607 [000] 94564.109216:     100 cycles: \n"
	"\tffffffff8103ce3b native_safe_halt+0x5 ([kernel.kallsyms])\n"
	"\t7f722d142778 Ljava/io/PrintStream;::print (/tmp/perf-19982.map)\n"
	"\t7f0000001000 [unknown] (/usr/lib/libfoo.so.1)\n"
	"\t0 [unknown] ([unknown])\n"
	"\n"
	"java 7/8 [001] 94564.2: 50 cycles:\n"
	"\t1000 Lorg/mozilla/Ctx;.call(Lorg/x;)V (/tmp/perf-7.map)\n"
	"\t2000 inl_leaf->inl_mid->outer+0x10 (/usr/bin/x)\n"
	"\n"
	"java 7/8 [001] 94564.3: 7 instructions:\n"
	"\t1000 skipped (/usr/bin/x)\n"
	"\n";

TEST(collapse_fold_names)
{
	struct ember_collapse_opts o = { .sz = sizeof(o) };

	fold_is(t, &o, two_samples,
		"V8_WorkerThread;[unknown];[libfoo.so.1];Ljava/io/PrintStream:::print;native_safe_halt 100\n"
		"java;inl_leaf;inl_mid_[i];outer_[i];org/mozilla/Ctx:.call 50\n");
	o.include_tid = o.annotate_kernel = o.annotate_jit = o.include_addrs = true;
	fold_is(t, &o, two_samples,
		"V8_WorkerThread-24636/25607;[unknown <0>];[libfoo.so.1 <7f0000001000>];"
		"Ljava/io/PrintStream:::print_[j];native_safe_halt_[k] 100\n"
		"java-7/8;inl_leaf;inl_mid_[i];outer_[i];org/mozilla/Ctx:.call_[j] 50\n");
	o = (struct ember_collapse_opts){ .sz = sizeof(o), .include_pid = true,
					  .event_filter = "instructions" };
	fold_is(t, &o, two_samples, "java-7;skipped 7\n");
}

TEST(collapse_fold_counts)
{
	struct ember_collapse_opts o = { .sz = sizeof(o) };

	/* period 0 counts 1 ("0" is false in Perl), "00" counts 0, no period counts 1 */
	fold_is(t, &o, "a1 1 1.0: 0 e:\n\ta1 f (m)\n\na1 1 1.0: 00 e:\n\ta1 f (m)\n\n"
		       "a1 1 1.0: e:\n\ta1 f (m)\n\n", "a1;f 2\n");
	/* exact to 2^64-1, then a double printed as Perl prints it */
	fold_is(t, &o, "ab 1 1.0: 18446744073709551615 e:\n\n", "ab 18446744073709551615\n");
	fold_is(t, &o, "ab 1 1.0: 18446744073709551615 e:\n\nab 1 1.0: 1 e:\n\n",
		"ab 1.84467440737096e+19\n");
	fold_is(t, &o, "ab 1 1.0: 000000000000000000000000000000000000000042 e:\n\n", "ab 42\n");
	fold_is(t, &o, "ab 1 1.0: 123456789012345678901 e:\n\n", "ab 1.23456789012346e+20\n");
}

TEST(collapse_fold_quirks)
{
	struct ember_collapse_opts o = { .sz = sizeof(o) };

	/* no blank line at the end: the last sample is lost, as in the script */
	fold_is(t, &o, "ab 1 1.0: 1 e:\n\tf1 x (m)\n\nab 1 1.0: 1 e:\n\tf2 y (m)\n", "ab;x 1\n");
	/* a comm has two bytes or more: a lone "0" runs on to the next number */
	fold_is(t, &o, "0 1 1.0: 1 e:\n\tf1 x (m)\n\n", "0_1_1.0:;x 1\n");
	/* a header skipped by the filter leaves the previous root: its frames join that sample */
	fold_is(t, &o, "ab 1 1.0: 1 e:\n\tf1 x (m)\nab 1 1.0: 1 other:\n\tf2 y (m)\n\n", "ab;y;x 1\n");
	/* tracepoint headers do not end in "EVENT:": never filtered, count 1 */
	fold_is(t, &o, "ab 1 1.0: 5 e:\n\nab 1 1.0: 9 sched:sched_switch: prev=1\n\tf x (m)\n\n",
		"ab 5\nab;x 1\n");
	/* sorted by bytes, ';' (0x3b) after ':' and before 'A' */
	fold_is(t, &o, "ab 1 1.0: 1 e:\n\tf1 B (m)\n\nab 1 1.0: 1 e:\n\tf1 a;b (m)\n\n"
		       "ab 1 1.0: 1 e:\n\n",
		"ab 1\nab;B 1\nab;a:b 1\n");
	/* symbols starting with '(' and empty splits give no frame */
	fold_is(t, &o, "ab 1 1.0: 1 e:\n\tf1 (x) (m)\n\tf2 -> (m)\n\tf3 ->z (m)\n\n", "ab;;z_[i] 1\n");
	/* Go methods keep their parentheses, C++ loses them except (anonymous namespace) */
	fold_is(t, &o, "ab 1 1.0: 1 e:\n\t1 net/http.(*Client).Do (m)\n\t2 ns::(anonymous namespace)::f(int) (m)\n"
		       "\t3 \"q'uo\"te (m)\n\n",
		"ab;quote;ns::(anonymous namespace)::f;net/http.(*Client).Do 1\n");
}

/*
 * The frame cache and the id-keyed stack table: the same output as the
 * texts would give, whatever the names hold.
 */
TEST(collapse_fold_cache_and_ids)
{
	struct ember_collapse_opts o = { .sz = sizeof(o) };

	/* a root holding ';' counts with the frames its text equals: "a;b" + "c" is "a" + "b;c" */
	fold_is(t, &o, "a;b 1 1.0: 1 e:\n\t1 c (m)\n\nab 1 1.0: 2 e:\n\t1 x (m)\n\n"
		       "a;b 1 1.0: 4 e:\n\t2 c+0x1 (m)\n\n",
		"a;b;c 5\nab;x 2\n");
	fold_is(t, &o, "a;b 1 1.0: 1 e:\n\t1 c (m)\n\naa 1 1.0: 2 e:\n\t1 b->c (m)\n\n",
		"a;b;c 1\naa;b;c_[i] 2\n");
	/* sorted by bytes across names: digits and '!' sort before ';', the end before all */
	fold_is(t, &o, "ab 1 1.0: 1 e:\n\t1 x (m)\n\t1 foo (m)\n\nab 1 1.0: 1 e:\n\t1 foo1 (m)\n\n"
		       "ab 1 1.0: 1 e:\n\t1 foo! (m)\n\nab 1 1.0: 1 e:\n\t1 foo (m)\n\n"
		       "ab 1 1.0: 1 e:\n\t1 fo (m)\n\nab 1 1.0: 1 e:\n\t1 (x (m)\n\t1 a (m)\n\n",
		"ab;a 1\nab;fo 1\nab;foo 1\nab;foo! 1\nab;foo1 1\nab;foo;x 1\n");
	/* the same frame line under a java root and another names differently */
	fold_is(t, &o, "java 1 1.0: 1 e:\n\t1 La/b (m)\n\nperl 1 1.0: 1 e:\n\t1 La/b (m)\n\n"
		       "java 1 1.0: 1 e:\n\t2 La/b (m)\n\n",
		"java;a/b 2\nperl;La/b 1\n");
	/* --addrs: [unknown] takes the address, so lines differing only there stay apart */
	o.include_addrs = true;
	fold_is(t, &o, "ab 1 1.0: 1 e:\n\t10 [unknown] (/x/m)\n\nab 1 1.0: 1 e:\n\t20 [unknown] (/x/m)\n\n"
		       "ab 1 1.0: 1 e:\n\t30 f (/x/m)\n\nab 1 1.0: 1 e:\n\t40 f (/x/m)\n\n",
		"ab;[m <10>] 1\nab;[m <20>] 1\nab;f 2\n");
	/* the regular expression backtracking into the address: "(" right after it */
	o.include_addrs = false;
	fold_is(t, &o, "ab 1 1.0: 1 e:\n\t12 (a)\n\t34 (a)\n\t5  (a)\n\n", "ab; ;4;2 1\n");
}

/*
 * A header ending as the last one did takes its event and period from a
 * memo: the same answers as reading it again, whatever comes before.
 */
TEST(collapse_fold_event_memo)
{
	struct ember_collapse_opts o = { .sz = sizeof(o) };

	/* the same end after another ':' and a shorter line */
	fold_is(t, &o, "ab 1 1.0: 5 e:\n\ncd 2 2.0:: 5 e:\n\nab 1 : 5 e:\n\n", "ab 10\ncd 5\n");
	/* a filtered event between two of the first one, then another period */
	fold_is(t, &o, "ab 1 1.0: 5 e:\n\nab 1 1.0: 5 x:\n\tf1 y (m)\n\nab 1 1.0: 7 e:\n\n", "ab 12\n");
	/* no period, then the same end with one, then a period of "0" */
	fold_is(t, &o, "ab 1 1.0: e:\n\nab 1 1.0: 3: e:\n\nab 1 1.0: 3: 0 e:\n\nab 1 1.0: 3: 0 e: \n\n",
		"ab 4\n");
}

/*
 * Stacks are added to the table a little late (their lookups prefetched
 * meanwhile): the statistics and the output count them all the same,
 * with or without end_file(), the same stack pending twice counted once.
 */
TEST(collapse_fold_pending_stacks)
{
	static const char text[] = "ab 1 1.0: 1 e:\n\t1 x (m)\n\nab 1 1.0: 2 e:\n\t1 y (m)\n\n"
				   "ab 1 1.0: 4 e:\n\t1 x (m)\n\nab 1 1.0: 8 e:\n\t1 x (m)\n\n";
	struct ember_collapse_opts o = { .sz = sizeof(o) };
	struct ember_collapse_stats st;
	struct sbuf out = { 0 };
	struct ember_collapse *c;

	for (size_t end = 0; end < 4; end++) {
		size_t len = strlen(text) - (end == 3 ? 2 * 25 : end == 2 ? 25 : 0);

		c = ember_collapse__new(&o);
		CHECK(c != NULL);
		if (!c)
			return;
		ember_collapse__feed(c, text, len);
		ember_collapse__stats(c, &st);
		CHECK_EQ(st.samples, end == 3 ? 2 : end == 2 ? 3 : 4);
		CHECK_EQ(st.stacks, 2);
		if (end == 1)
			ember_collapse__end_file(c);
		sbuf_reset(&out);
		ember_collapse__foreach(c, append, &out);
		CHECK_STR(out.buf, end == 3 ? "ab;x 1\nab;y 2\n" : end == 2 ? "ab;x 5\nab;y 2\n" :
								 "ab;x 13\nab;y 2\n");
		ember_collapse__stats(c, &st);
		CHECK_EQ(st.stacks, 2);
		ember_collapse__delete(c);
	}
	sbuf_free(&out);
	/* both pending, the same new stack */
	c = ember_collapse__new(&o);
	CHECK(c != NULL);
	if (!c)
		return;
	ember_collapse__feed(c, text + 50, 50);
	ember_collapse__stats(c, &st);
	CHECK_EQ(st.samples, 2);
	CHECK_EQ(st.stacks, 1);
	ember_collapse__delete(c);
}

TEST(collapse_fold_srcline)
{
	struct ember_collapse_opts o = { .sz = sizeof(o), .srcline = true };

	fold_is(t, &o,
		"a.out 1 1.0: 10 cycles:\n"
		"\t408ebb some_method+0x8b (/full/a.out)\n"
		"  uniform_int_dist.h:300\n"
		"\t7f6d213c2750 [unknown] ([unknown])\n"
		"\t7f6d2148eb25 __libc_start_main+0xd5 (/lib64/libc-2.33.so)\n"
		"  libc-2.33.so[27b25]\n"
		"\n",
		"a.out;__libc_start_main:libc-2.33.so;[unknown];some_method:uniform_int_dist.h:300 10\n");
}

TEST(collapse_fold_bad_input)
{
	struct ember_collapse_opts o = { .sz = sizeof(o) };
	struct ember_collapse_stats st;
	struct ember_collapse *c;
	size_t big = 4 << 20;
	char *buf = malloc(big), *out;
	unsigned seed = 12345;

	CHECK(buf != NULL);
	if (!buf)
		return;
	/* empty input: no output */
	out = run(&o, "", 0, 1);
	CHECK_STR(out, "");
	free(out);

	/* noise, NUL bytes included: no crash, whatever it makes of it */
	for (size_t i = 0; i < big; i++) {
		seed = seed * 1103515245 + 12345;
		buf[i] = (char)(seed >> 16);
	}
	c = ember_collapse__new(&o);
	CHECK(c != NULL);
	CHECK_EQ(ember_collapse__feed(c, buf, big), 0);
	CHECK_EQ(ember_collapse__end_file(c), 0);
	ember_collapse__stats(c, &st);
	CHECK(st.lines > 0);
	ember_collapse__delete(c);

	/* a giant header and a giant frame line: linear time, one stack */
	memset(buf, 'x', big);
	memcpy(buf, "ab 1 1.0: 1 e:\n\t1 ", 18);
	buf[big - 5] = ' ';
	buf[big - 4] = '(';
	buf[big - 3] = 'm';
	buf[big - 2] = ')';
	buf[big - 1] = '\n';
	c = ember_collapse__new(&o);
	CHECK_EQ(ember_collapse__feed(c, buf, big), 0);
	CHECK_EQ(ember_collapse__feed(c, "\n", 1), 0);
	ember_collapse__stats(c, &st);
	CHECK_EQ(st.samples, 1);
	CHECK_EQ(st.stacks, 1);
	ember_collapse__delete(c);

	/* a line of blanks and digits, the worst case for the lazy comm: still linear */
	for (size_t i = 0; i < big; i++)
		buf[i] = i % 3 ? '1' : ' ';
	buf[0] = 'a';
	buf[big - 1] = 'x';
	c = ember_collapse__new(&o);
	CHECK_EQ(ember_collapse__line(c, buf, big), 0);
	ember_collapse__delete(c);
	free(buf);
}

TEST(collapse_naming_helpers)
{
	struct ember_collapse_opts o = { .sz = sizeof(o), .include_tid = true,
					 .annotate_kernel = true };
	char buf[128];

	CHECK_EQ(ember_collapse__root_name(&o, "V8 Worker", "12", "13", buf, sizeof(buf)), 15);
	CHECK_STR(buf, "V8_Worker-12/13");
	ember_collapse__root_name(&o, "swapper", "0", "0", buf, sizeof(buf));
	CHECK_STR(buf, "swapper-?/0");
	ember_collapse__root_name(&o, "bash", NULL, "77", buf, sizeof(buf));
	CHECK_STR(buf, "bash-?/77");
	CHECK_EQ(ember_collapse__frame_names(&o, "bash", "ffffffff81000000", "do_idle+0x1f",
					     "[kernel.kallsyms]", buf, sizeof(buf)), 11);
	CHECK_STR(buf, "do_idle_[k]");
	CHECK_EQ(ember_collapse__frame_names(&o, "bash", "0", "[unknown]", "/usr/lib/libc.so.6", buf,
					     sizeof(buf)), 11);
	CHECK_STR(buf, "[libc.so.6]");
	CHECK_EQ(ember_collapse__frame_names(&o, "bash", "0", "(skip)", "x", buf, sizeof(buf)), -1);
	CHECK_EQ(ember_collapse__frame_names(&o, "bash", "0", "a->b", "x", buf, 3), 7);
	CHECK_STR(buf, "a;");
}
