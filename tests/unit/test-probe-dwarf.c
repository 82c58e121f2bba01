// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/probe's variables from DWARF on the probevars workload (built next
 * to this binary, -O1 -g): parameters in registers, members and elements
 * as offsets and dereferences, strings, perf's types and names, statics
 * at an address uprobes take, $params, -V's lines, and perf's words for
 * what cannot be placed. The offsets are the C layout's (x86_64 ABI).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ember/probe.h>
#include "test.h"

struct conv {
	struct ember_probe_def def;
	struct ember_probe_trace t;
	char msg[1024];
	int err;
};

/* The arguments of spec's first place in path, converted with d. */
static void convert(struct conv *c, struct ember_probe_dwarf *d, const char *path,
		    const char *spec)
{
	memset(c, 0, sizeof(*c));
	c->err = ember_probe_def__parse(&c->def, spec);
	if (c->err)
		return;
	c->err = ember_probe__resolve_uprobe(&c->def, path, &c->t, 1);
	if (c->err != 1)
		return;
	c->err = ember_probe_dwarf__args(d, &c->def, &c->t, 1, c->msg, sizeof(c->msg));
}

/* "name=value:type" of argument i, as the line shows it. */
static const char *arg_text(const struct conv *c, unsigned int i, char *buf, size_t size)
{
	const struct ember_probe_trace_arg *a = &c->t.args[i];

	snprintf(buf, size, "%s=%s%s%s", a->name ? a->name : "", a->value, a->type ? ":" : "",
		 a->type ? a->type : "");
	return buf;
}

static int collect_line(const char *line, void *arg)
{
	char *out = arg;

	strcat(out, line);
	strcat(out, "|");
	return 0;
}

TEST(probe_dwarf_vars)
{
	struct ember_probe_dwarf *d;
	char path[PATH_MAX], buf[256], where[128], lines[1024] = "";
	static struct conv c;

	if (!unit_workload_path("probevars", path, sizeof(path))) {
		t->skip_reason = "no workloads/probevars next to unit-tests (make)";
		return;
	}
	d = ember_probe_dwarf__open(path);
	CHECK(d != NULL);
	if (!d)
		return;

	convert(&c, d, path, "pv_record r scale");
	CHECK_EQ(c.err, 0);
	CHECK_EQ(c.t.nr_args, 2);
	CHECK_STR(arg_text(&c, 0, buf, sizeof(buf)), "r=%di:x64");
	CHECK_STR(arg_text(&c, 1, buf, sizeof(buf)), "scale=%si:s32");
	ember_probe_def__exit(&c.def);

	convert(&c, d, path,
		"pv_record r->id r->name:string r->at.taps[2] r->label:string r->prev->id "
		"r->name[3] r->kind n=scale:x r[0].weight r->name");
	CHECK_EQ(c.err, 0);
	CHECK_STR(arg_text(&c, 0, buf, sizeof(buf)), "id=+0(%di):s32");
	CHECK_STR(arg_text(&c, 1, buf, sizeof(buf)), "name=+4(%di):string");
	CHECK_STR(arg_text(&c, 2, buf, sizeof(buf)), "taps=+44(%di):s16");
	CHECK_STR(arg_text(&c, 3, buf, sizeof(buf)), "label=+0(+24(%di)):string");
	CHECK_STR(arg_text(&c, 4, buf, sizeof(buf)), "id=+0(+64(%di)):s32");
	CHECK_STR(arg_text(&c, 5, buf, sizeof(buf)), "name=+7(%di):s8");
	CHECK_STR(arg_text(&c, 6, buf, sizeof(buf)), "kind=+49(%di):x8");
	CHECK_STR(arg_text(&c, 7, buf, sizeof(buf)), "n=%si:x32");
	CHECK_STR(arg_text(&c, 8, buf, sizeof(buf)), "weight=+56(%di):s64");
	/* an array has no basic type: the kernel's default */
	CHECK_STR(arg_text(&c, 9, buf, sizeof(buf)), "name=+4(%di)");
	ember_probe_def__exit(&c.def);

	/* names from casts, a struct cut to 64 bits with perf's note */
	convert(&c, d, path, "pv_label label:string tag:s r->x");
	CHECK_EQ(c.err, -ENOENT);	/* no r in pv_label */
	ember_probe_def__exit(&c.def);
	convert(&c, d, path, "pv_label label:string tag:s");
	CHECK_EQ(c.err, 0);
	CHECK_STR(arg_text(&c, 0, buf, sizeof(buf)), "label_string=+0(%di):string");
	CHECK_STR(arg_text(&c, 1, buf, sizeof(buf)), "tag_s=%si:s8");
	ember_probe_def__exit(&c.def);
	convert(&c, d, path, "pv_record r->at");
	CHECK_EQ(c.err, 0);
	CHECK_STR(arg_text(&c, 0, buf, sizeof(buf)), "at=+32(%di):x64");
	CHECK_STR(c.msg, "pv_point exceeds max-bitwidth. Cut down to 64 bits.\n");
	ember_probe_def__exit(&c.def);

	/* statics: an address relative to the mapping, read through for a string */
	convert(&c, d, path, "pv_globals which pv_total pv_motto:string");
	CHECK_EQ(c.err, 0);
	CHECK_STR(arg_text(&c, 0, buf, sizeof(buf)), "which=%di:s32");
	CHECK(!strncmp(c.t.args[1].value, "@+0x", 4));
	CHECK_STR(c.t.args[1].type, "s32");
	CHECK(!strncmp(c.t.args[2].value, "+0(@+0x", 7));
	ember_probe_def__exit(&c.def);

	/* $params: what has a place at the entry, in DWARF order; other args kept */
	convert(&c, d, path, "pv_link %ax $params");
	CHECK_EQ(c.err, 0);
	CHECK_EQ(c.t.nr_args, 3);
	CHECK_STR(c.t.args[0].value, "%ax");
	CHECK_STR(arg_text(&c, 1, buf, sizeof(buf)), "r=%di:x64");
	CHECK_STR(arg_text(&c, 2, buf, sizeof(buf)), "prev=%si:x64");
	ember_probe_def__exit(&c.def);

	/* a variable some places lack: perf's immediate there, typed as where found */
	{
		static struct ember_probe_trace two[2];
		struct ember_probe_def def;
		char msg[256];

		CHECK_EQ(ember_probe_def__parse(&def, "pv_l* r"), 0);
		CHECK_EQ(ember_probe__resolve_uprobe(&def, path, two, 2), 2);
		CHECK_EQ(ember_probe_dwarf__args(d, &def, two, 2, msg, sizeof(msg)), 0);
		CHECK_STR(two[0].event, "pv_label");
		CHECK_STR(two[0].args[0].value, "\\0xdeade12d");
		CHECK_STR(two[0].args[0].type, "x64");
		CHECK_STR(two[1].args[0].value, "%di");
		ember_probe_def__exit(&def);
		CHECK_EQ(ember_probe_def__parse(&def, "pv_l* nosuch"), 0);
		CHECK_EQ(ember_probe__resolve_uprobe(&def, path, two, 2), 2);
		CHECK_EQ(ember_probe_dwarf__args(d, &def, two, 2, msg, sizeof(msg)), -ENOENT);
		ember_probe_def__exit(&def);
	}

	/* perf's words for what it cannot do */
	convert(&c, d, path, "pv_record nosuch");
	CHECK_EQ(c.err, -ENOENT);
	CHECK(strstr(c.msg, "Failed to find the location of the 'nosuch' variable") != NULL);
	ember_probe_def__exit(&c.def);
	convert(&c, d, path, "pv_record r.id");
	CHECK_EQ(c.err, -EINVAL);
	CHECK_STR(c.msg, "Semantic error: id must be referred by '->'\n");
	ember_probe_def__exit(&c.def);
	convert(&c, d, path, "pv_record r->nope");
	CHECK_EQ(c.err, -EINVAL);
	CHECK_STR(c.msg, "r(type:pv_record) has no member nope.\n");
	ember_probe_def__exit(&c.def);
	convert(&c, d, path, "pv_record scale:string");
	CHECK_EQ(c.err, -EINVAL);
	CHECK_STR(c.msg, "Failed to cast into string: scale(int) is not a pointer nor array.\n");
	ember_probe_def__exit(&c.def);
	convert(&c, d, path, "pv_byvalue p.x");
	CHECK_EQ(c.err, -ENOTSUP);
	CHECK_STR(c.msg, "Structure on a register is not supported yet.\n");
	ember_probe_def__exit(&c.def);
	/* DWARF 5 bitfields have no byte offset: perf 6.1 refuses them */
	convert(&c, d, path, "pv_record r->flags");
	CHECK_EQ(c.err, -ENOENT);
	CHECK_STR(c.msg, "Failed to get the offset of flags.\n");
	ember_probe_def__exit(&c.def);

	/* -V's lines, sorted, at the entry */
	convert(&c, d, path, "pv_record");
	CHECK_EQ(c.err, 0);
	CHECK_EQ(ember_probe_dwarf__vars(d, &c.t, "pv_record", false, where, sizeof(where),
					 collect_line, lines), 0);
	CHECK_STR(where, "pv_record+0");
	CHECK_STR(lines, "int\tscale|struct pv_record*\tr|");
	ember_probe_def__exit(&c.def);
	ember_probe_dwarf__delete(d);

	CHECK(ember_probe_dwarf__open("/nonexistent/binary") == NULL);
}

TEST(probe_dwarf_arg_parse)
{
	struct ember_probe_def def;

	/* an index-only access is named after its variable (perf's) */
	CHECK_EQ(ember_probe_def__parse(&def, "main argv[1]:string"), 0);
	CHECK_STR(def.args[0].name, "argv");
	ember_probe_def__exit(&def);
	/* a variable takes perf's signedness casts, a register does not */
	CHECK_EQ(ember_probe_def__parse(&def, "f a:s b:u c:x"), 0);
	CHECK_STR(def.args[2].type, "x");
	ember_probe_def__exit(&def);
	CHECK_EQ(ember_probe_def__parse(&def, "f %di:s"), -EINVAL);
	ember_probe_def__exit(&def);
	/* a bitfield type as perf writes it from DWARF 4 */
	CHECK_EQ(ember_probe_def__parse(&def, "f +8(%di):b3@29/32"), 0);
	ember_probe_def__exit(&def);
	CHECK_EQ(ember_probe_def__parse(&def, "f +8(%di):b33@0/32"), -EINVAL);
	ember_probe_def__exit(&def);
	/* immediates: perf's constants are signed decimals, its filler hex with 0x */
	{
		struct ember_probe_trace tr = {
			.uprobe = true, .group = "g", .event = "e", .target = "/bin/true",
			.nr_args = 3, .args = { { .value = "\\-1" }, { .value = "\\0xdeade12d" },
						 { .value = "\\0" } },
		};
		char line[256];

		CHECK(ember_probe_trace__format(&tr, line, sizeof(line), NULL) > 0);
		tr.args[0].value = "\\deade12d";	/* perf's: the kernel refuses it */
		CHECK_EQ(ember_probe_trace__format(&tr, line, sizeof(line), NULL), -EINVAL);
	}
	CHECK(ember_probe_def__needs_dwarf_args(&(struct ember_probe_def){ 0 }) == false);
	CHECK_EQ(ember_probe_def__parse(&def, "f $vars"), 0);
	CHECK(ember_probe_def__needs_dwarf_args(&def));
	ember_probe_def__exit(&def);
	CHECK_EQ(ember_probe_def__parse(&def, "f %di +8(%si):u8"), 0);
	CHECK(!ember_probe_def__needs_dwarf_args(&def));
	ember_probe_def__exit(&def);
}
