// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: lib/probe's parsers, without touching tracefs. The
 * input is a probe definition (perf's PROBE SYNTAX), a -L range (parsed,
 * then refused: no binary) and, as it is, a line as tracefs lists probes; whatever parses is formatted back (the point
 * and arguments as perf shows them, the line as perf writes it), which
 * must then be a line the validator accepts and the parser reads again.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ember/probe.h>

static void roundtrip(const struct ember_probe_trace *t)
{
	struct ember_probe_trace again;
	char line[8192];
	int n;

	n = ember_probe_trace__format(t, line, sizeof(line), NULL);
	if (n < 0)
		return;
	/* a line the writer makes is one line, and reads back */
	if (memchr(line, '\n', (size_t)n) || ember_probe_trace__parse(&again, line, t->uprobe))
		abort();
	if (strcmp(again.group, t->group) || strcmp(again.event, t->event) ||
	    again.nr_args != t->nr_args)
		abort();
	ember_probe_trace__exit(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ember_probe_def def;
	struct ember_probe_trace t;
	char *spec, buf[512];

	if (size > 4096)
		return -1;
	spec = malloc(size + 1);
	if (!spec)
		abort();
	memcpy(spec, data, size);
	spec[size] = '\0';

	if (!ember_probe_def__parse(&def, spec)) {
		ember_probe_def__point(&def, buf, sizeof(buf));
		for (unsigned int i = 0; i < def.nr_args; i++)
			ember_probe_arg__format(&def.args[i], buf, sizeof(buf));
		ember_probe_def__needs_dwarf(&def);
		/* as a uprobe on a fixed binary, named by the definition */
		memset(&t, 0, sizeof(t));
		t.uprobe = true;
		t.retprobe = def.retprobe;
		t.target = "/bin/true";
		t.offset = def.offset;
		snprintf(t.group, sizeof(t.group), "%s", def.group ? def.group : "probe_true");
		snprintf(t.event, sizeof(t.event), "%s", def.event ? def.event : "ev");
		t.nr_args = def.nr_args;
		for (unsigned int i = 0; i < def.nr_args; i++) {
			t.args[i].name = def.args[i].name;
			t.args[i].value = def.args[i].var;
			t.args[i].type = def.args[i].type;
		}
		roundtrip(&t);
		ember_probe_def__exit(&def);
	}
	/* as a -L range: parsed, then refused for a binary that does not exist */
	{
		struct ember_probe_lines lr;

		if (!ember_probe__lines("/nonexistent/ember-fuzz", spec, NULL, &lr, buf, sizeof(buf)))
			abort();
	}
	for (int uprobe = 0; uprobe < 2; uprobe++) {
		if (!ember_probe_trace__parse(&t, spec, uprobe)) {
			roundtrip(&t);
			ember_probe_trace__exit(&t);
		}
	}
	free(spec);
	return 0;
}
