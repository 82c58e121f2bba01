// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/probe's definition parser: every form of perf-probe(1)'s PROBE
 * SYNTAX and PROBE ARGUMENT, the combinations perf refuses, and bad
 * input (truncated, oversized, garbage), each refused with a reason.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <ember/probe.h>
#include "test.h"

static char point[256];

/* Parse spec; returns the error, and the point as perf shows it in `point`. */
static int parse(struct ember_probe_def *def, const char *spec)
{
	int err = ember_probe_def__parse(def, spec);

	point[0] = '\0';
	if (!err)
		ember_probe_def__point(def, point, sizeof(point));
	return err;
}

TEST(probe_parse_function_forms)
{
	struct ember_probe_def d;

	CHECK_EQ(parse(&d, "add"), 0);
	CHECK_STR(d.function, "add");
	CHECK(!d.group && !d.event && !d.file && !d.lazy && !d.retprobe && !d.nr_args);
	CHECK_STR(point, "add");
	CHECK(!ember_probe_def__needs_dwarf(&d));
	ember_probe_def__exit(&d);

	CHECK_EQ(parse(&d, "add%return"), 0);
	CHECK(d.retprobe);
	CHECK_STR(point, "add%return");
	ember_probe_def__exit(&d);

	CHECK_EQ(parse(&d, "add+0x2"), 0);
	CHECK_EQ(d.offset, 2);
	CHECK_STR(point, "add+2");
	ember_probe_def__exit(&d);

	CHECK_EQ(parse(&d, "add:3"), 0);
	CHECK_EQ(d.line, 3);
	CHECK_STR(point, "add:3");
	CHECK(ember_probe_def__needs_dwarf(&d));
	ember_probe_def__exit(&d);

	CHECK_EQ(parse(&d, "add@src/t.c:3"), 0);
	CHECK_STR(d.function, "add");
	CHECK_STR(d.file, "src/t.c");
	CHECK_EQ(d.line, 3);
	CHECK_STR(point, "add:3@src/t.c");
	ember_probe_def__exit(&d);

	CHECK_EQ(parse(&d, "add;a b*"), 0);
	CHECK_STR(d.lazy, "a");	/* blanks end the point: the rest are arguments */
	ember_probe_def__exit(&d);

	CHECK_EQ(parse(&d, "add;a\\=*"), 0);
	CHECK_STR(d.lazy, "a\\=*");
	ember_probe_def__exit(&d);

	CHECK_EQ(parse(&d, "0x1149"), 0);
	CHECK(d.abs);
	CHECK_EQ(d.abs_address, 0x1149);
	ember_probe_def__exit(&d);

	/* a glob is a function */
	CHECK_EQ(parse(&d, "*a*"), 0);
	CHECK_STR(d.function, "*a*");
	ember_probe_def__exit(&d);
}

TEST(probe_parse_file_forms)
{
	struct ember_probe_def d;

	CHECK_EQ(parse(&d, "t.c:12"), 0);
	CHECK(!d.function);
	CHECK_STR(d.file, "t.c");
	CHECK_EQ(d.line, 12);
	CHECK_STR(point, "@t.c:12");
	ember_probe_def__exit(&d);

	CHECK_EQ(parse(&d, "src/t.c;foo()"), 0);
	CHECK_STR(d.file, "src/t.c");
	CHECK_STR(d.lazy, "foo()");
	ember_probe_def__exit(&d);

	/* no '.' before ':': a function and a line */
	CHECK_EQ(parse(&d, "main:3"), 0);
	CHECK_STR(d.function, "main");
	ember_probe_def__exit(&d);

	/* a long path is shown by its last 30 characters, from a '/' */
	CHECK_EQ(parse(&d, "f@/very/long/directory/name/that/goes/on/src.c"), 0);
	CHECK_STR(point, "f@name/that/goes/on/src.c");
	ember_probe_def__exit(&d);
}

TEST(probe_parse_names)
{
	struct ember_probe_def d;

	CHECK_EQ(parse(&d, "myg:myev=add"), 0);
	CHECK_STR(d.group, "myg");
	CHECK_STR(d.event, "myev");
	CHECK_STR(d.function, "add");
	ember_probe_def__exit(&d);

	CHECK_EQ(parse(&d, "ev=add%return"), 0);
	CHECK(!d.group);
	CHECK_STR(d.event, "ev");
	ember_probe_def__exit(&d);

	CHECK_EQ(parse(&d, "bad-name=add"), -EINVAL);
	CHECK(strstr(d.err, "bad-name") != NULL);
	CHECK_EQ(parse(&d, "g-x:ev=add"), -EINVAL);
	CHECK(strstr(d.err, "g-x") != NULL);
	CHECK_EQ(parse(&d, "=add"), -EINVAL);
	CHECK_EQ(parse(&d, "g:=add"), -EINVAL);
	CHECK_EQ(parse(&d, "1ev=add"), -EINVAL);
}

TEST(probe_parse_args)
{
	struct ember_probe_def d;
	char buf[128];

	CHECK_EQ(parse(&d, "add %di %si:s32 foo=+8(%si):x32 +0(%di):string $retval:u64@user"), -EINVAL);
	CHECK(strstr(d.err, "type") != NULL);

	CHECK_EQ(parse(&d, "add %di %si:s32 foo=+8(%si):x32 +0(%di):string"), 0);
	CHECK_EQ(d.nr_args, 4);
	CHECK_STR(d.args[0].var, "%di");
	CHECK(!d.args[0].name && !d.args[0].type);
	CHECK_STR(d.args[1].type, "s32");
	CHECK_STR(d.args[2].name, "foo");
	CHECK_STR(d.args[2].var, "+8(%si)");
	CHECK_STR(d.args[3].type, "string");
	ember_probe_arg__format(&d.args[2], buf, sizeof(buf));
	CHECK_STR(buf, "foo=+8(%si):x32");
	CHECK(!ember_probe_def__needs_dwarf(&d));
	ember_probe_def__exit(&d);

	CHECK_EQ(parse(&d, "add%return $retval:s64"), 0);
	CHECK_STR(d.args[0].var, "$retval");
	CHECK(!ember_probe_def__needs_dwarf(&d));
	ember_probe_def__exit(&d);

	/* $vars and $params stand for variables: DWARF, as perf's need_dwarf */
	CHECK_EQ(parse(&d, "add $vars"), 0);
	CHECK(ember_probe_def__needs_dwarf(&d));
	ember_probe_def__exit(&d);
	CHECK_EQ(parse(&d, "add %di $params"), 0);
	CHECK(ember_probe_def__needs_dwarf(&d));
	ember_probe_def__exit(&d);

	/* members: the variable, the accesses, a name from the last member */
	CHECK_EQ(parse(&d, "take p->name:string a.b[2] r=x->y.z"), 0);
	CHECK_STR(d.args[0].var, "p");
	CHECK_STR(d.args[0].fields, "->name");
	CHECK_STR(d.args[0].name, "name");
	CHECK_EQ(d.args[0].nr_fields, 1);
	CHECK_STR(d.args[1].var, "a");
	CHECK_STR(d.args[1].fields, ".b[2]");
	CHECK_STR(d.args[1].name, "b");
	CHECK_EQ(d.args[1].nr_fields, 2);
	CHECK_STR(d.args[2].name, "r");
	CHECK_STR(d.args[2].var, "x");
	CHECK(ember_probe_def__needs_dwarf(&d));
	ember_probe_arg__format(&d.args[1], buf, sizeof(buf));
	CHECK_STR(buf, "b=a.b[2]");
	ember_probe_def__exit(&d);

	CHECK_EQ(parse(&d, "take p@user"), 0);
	CHECK(d.args[0].user_access);
	CHECK_STR(d.args[0].var, "p");
	ember_probe_def__exit(&d);

	CHECK_EQ(parse(&d, "take a[x]"), -EINVAL);
	CHECK_EQ(parse(&d, "take a-b"), -EINVAL);
	CHECK_EQ(parse(&d, "take a->"), -EINVAL);
	CHECK_EQ(parse(&d, "take a:"), -EINVAL);
	CHECK_EQ(parse(&d, "take a:u128"), -EINVAL);
	CHECK_EQ(parse(&d, "take bad-name=%di"), -EINVAL);
	CHECK_EQ(parse(&d, "take x="), -EINVAL);
	/* a return probe cannot fetch locals */
	CHECK_EQ(parse(&d, "take%return p"), -EINVAL);
}

TEST(probe_parse_refused)
{
	struct ember_probe_def d;

	CHECK_EQ(parse(&d, ""), -EINVAL);
	CHECK_EQ(parse(&d, "   "), -EINVAL);
	CHECK_EQ(parse(&d, NULL), -EINVAL);
	CHECK_EQ(parse(&d, "add:rel"), -EINVAL);
	CHECK(strstr(d.err, "line number") != NULL);
	CHECK_EQ(parse(&d, "add+x"), -EINVAL);
	CHECK_EQ(parse(&d, "add+"), -EINVAL);
	CHECK_EQ(parse(&d, "add+99999999999999999999999"), -EINVAL);
	CHECK_EQ(parse(&d, "add%entry"), -EINVAL);
	CHECK_EQ(parse(&d, "add+4%return"), -EINVAL);
	CHECK(strstr(d.err, "return probe") != NULL);
	CHECK_EQ(parse(&d, "add:3+4"), -EINVAL);
	CHECK_EQ(parse(&d, "add:3;x"), -EINVAL);
	CHECK_EQ(parse(&d, "f@a.c@b.c"), -EINVAL);
	CHECK_EQ(parse(&d, "t.c"), 0);	/* no '.'-file without ':' or ';': a function */
	ember_probe_def__exit(&d);
	CHECK_EQ(parse(&d, "@t.c"), -EINVAL);
	CHECK_EQ(parse(&d, "+4"), -EINVAL);
	CHECK_EQ(parse(&d, "0x12zz"), -EINVAL);
	/* perf drops the offset of an address silently: ember refuses it */
	CHECK_EQ(parse(&d, "0x1149+4"), -EINVAL);
	CHECK_EQ(parse(&d, "%sdt_libc:setjmp"), -EINVAL);
	CHECK_EQ(parse(&d, "add@"), -EINVAL);
}

TEST(probe_parse_bounds)
{
	struct ember_probe_def d;
	size_t n = 4 + 4 * (EMBER_PROBE_MAX_ARGS + 1);
	char *s = malloc(n + 1), *p;

	if (!s) {
		CHECK(s);
		return;
	}
	p = s + sprintf(s, "add");
	for (int i = 0; i <= EMBER_PROBE_MAX_ARGS; i++)
		p += sprintf(p, " %%di");
	CHECK_EQ(parse(&d, s), -E2BIG);
	/* exactly the most is fine */
	s[strlen(s) - 4] = '\0';
	CHECK_EQ(parse(&d, s), 0);
	CHECK_EQ(d.nr_args, EMBER_PROBE_MAX_ARGS);
	ember_probe_def__exit(&d);
	free(s);

	CHECK_EQ(parse(&d, "f a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r"), -E2BIG);
	CHECK_EQ(parse(&d, "f a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q"), 0);
	CHECK_STR(d.args[0].name, "q");
	ember_probe_def__exit(&d);

	/* garbage: refused or parsed, never a crash */
	CHECK(parse(&d, "\x01\xff=:;@+%") < 0);
	CHECK(parse(&d, "a\\") == 0);
	ember_probe_def__exit(&d);
	CHECK(parse(&d, ";;;;") < 0);
}
