// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember probe's adding: each definition parsed, resolved to its places,
 * each place named as perf names it, every line checked, and only then
 * written, so that a failure leaves no probe half-made (what was written
 * before it is removed again). With -D the lines are printed instead,
 * with -n nothing is written; the messages are perf's.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <ember/probe.h>
#include "core/escape.h"
#include "probe/probe.h"

/* One definition and the places it resolved to. */
struct probe_def {
	struct ember_probe_def def;
	char *text;		/* as typed, controls escaped, for messages */
	struct ember_probe_trace *traces;
	int nr;
	struct ember_probe_dwarf *dwarf;	/* owns the arguments taken from DWARF */
};

/* Event names taken: those in tracefs, and those this run gave so far. */
struct names {
	const struct ember_probe_events *file;
	const char **added;
	size_t nr_added;
	size_t nr_seen;		/* the added names taken: all but the current definition's */
	bool multiprobe;	/* tracefs appends a probe to an event of the same name */
};

static bool name_taken(const char *event, void *arg)
{
	const struct names *n = arg;

	for (size_t i = 0; i < ember_probe_events__nr(n->file); i++)
		if (!strcmp(ember_probe_events__get(n->file, i)->event, event))
			return true;
	for (size_t i = 0; i < n->nr_seen; i++)
		if (!strcmp(n->added[i], event))
			return true;
	return false;
}

static bool is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* The file ember would write: whether the kernel has it. */
static bool has_events_file(const char *tracefs, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", tracefs, name);
	return !stat(path, &st);
}

/* Parse one definition; 0 or the exit code, the message printed. */
static int parse_def(struct probe_def *pd, const char *text, int idx, bool verbose)
{
	FILE *fp = open_memstream(&pd->text, &(size_t){ 0 });
	int err;

	/* a newline typed in a definition must not break its message in two */
	if (fp) {
		escape_puts(fp, text, ESCAPE_JSON_BYTES);
		if (fclose(fp)) {
			free(pd->text);
			pd->text = NULL;
		}
	}
	if (!pd->text) {
		fprintf(stderr, "ember probe: out of memory\n");
		return 1;
	}
	err = ember_probe_def__parse(&pd->def, text);
	if (!err && verbose) {
		const struct ember_probe_def *d = &pd->def;

		fprintf(stderr, "probe-definition(%d): %s\n", idx, pd->text);
		fprintf(stderr, "symbol:%s file:%s line:%u offset:%llu return:%d lazy:%s\n",
			d->function ? d->function : "(null)", d->file ? d->file : "(null)", d->line,
			(unsigned long long)d->offset, d->retprobe, d->lazy ? d->lazy : "(null)");
		fprintf(stderr, "%u arguments\n", d->nr_args);
	}
	if (err == -ENOMEM) {
		fprintf(stderr, "ember probe: out of memory\n");
		return 1;
	}
	if (err) {
		fprintf(stderr, "ember probe: bad probe definition '%s': %s\n", pd->text,
			pd->def.err);
		return 2;
	}
	return 0;
}

/*
 * Why the symbol table gave no place, in perf's words (where: the binary,
 * or "kernel"), and its "Error: Failed to add events."; the exit code.
 */
static int symbol_failure(const struct probe_opts *o, const struct probe_def *pd, int err,
			  const char *where, size_t max)
{
	if (err == -ENOMEM) {
		fprintf(stderr, "ember probe: out of memory\n");
		return 1;
	}
	if (o->quiet)
		return 1;
	switch (err) {
	case -ENOENT:
		fprintf(stderr, "Failed to find symbol %s in %s\n", pd->def.function, where);
		break;
	case -E2BIG:
		fprintf(stderr, "ember probe: too many functions matched '%s' in %s (more than %zu; "
			"see --max-probes)\n", pd->def.function, where, max);
		break;
	case -ERANGE:
		fprintf(stderr, "Offset %llu is bigger than the size of %s\n",
			(unsigned long long)pd->def.offset, pd->def.function);
		break;
	case -ENODATA:
		fprintf(stderr, "Failed to find symbol %s in %s: it has no symbols\n",
			pd->def.function, where);
		break;
	case -EACCES:
		fprintf(stderr, "Failed to find symbol %s in %s: kallsyms shows no addresses "
			"(run as root, or sysctl kernel.kptr_restrict=0)\n", pd->def.function, where);
		break;
	default:
		fprintf(stderr, "Failed to read the symbols of %s: %s\n", where, strerror(-err));
	}
	fprintf(stderr, "  Error: Failed to add events.\n");
	return 1;
}

static size_t max_places(const struct probe_opts *o)
{
	return (size_t)(o->max_probes > 0 ? o->max_probes : PROBE_MAX_DEFS);
}

/*
 * The places of one definition in the -x binary (or the kernel's vmlinux,
 * at its file offsets, for resolve_kprobe()); 0 or the exit code.
 */
static int resolve_uprobe(struct probe_opts *o, struct probe_def *pd)
{
	size_t max = max_places(o);
	int n;

	pd->traces = calloc(max, sizeof(*pd->traces));
	if (!pd->traces) {
		fprintf(stderr, "ember probe: out of memory\n");
		return 1;
	}
	/* DWARF's places first, as perf (src/probe/places.c: told when they fail) */
	n = probe_places_dwarf(o, &pd->def, pd->traces, max);
	if (n == -1)
		return 1;
	/* the symbol table's without DWARF */
	if (n == -ENODATA)
		n = ember_probe__resolve_uprobe(&pd->def, o->exec, pd->traces, max);
	if (n >= 0) {
		pd->nr = n;
		return probe_vars__args(o, &pd->def, pd->traces, n, &pd->dwarf);
	}
	return symbol_failure(o, pd, n, o->kernel ? "kernel" : o->exec, max);
}

/*
 * A kernel function's places: with the kernel's vmlinux (-k, or the
 * running kernel's found), from its DWARF and symbols as for a binary,
 * then written against their symbols (-k: perf's offline kernel) or _text;
 * without one, from kallsyms. An address is written as it is.
 */
static int resolve_kprobe(struct probe_opts *o, struct probe_def *pd)
{
	size_t max = max_places(o);
	struct ember_probe_trace *t;
	int n;

	if (o->kernel) {
		n = resolve_uprobe(o, pd);
		if (n)
			return n;
		n = ember_probe__kernel_places(o->exec, !o->vmlinux, pd->traces, (size_t)pd->nr);
		if (n)
			fprintf(stderr, "ember probe: cannot name the places of '%s' in %s: %s\n",
				pd->text, o->exec, strerror(-n));
		return n ? 1 : 0;
	}
	if (!pd->def.abs) {
		pd->traces = calloc(max, sizeof(*pd->traces));
		if (!pd->traces) {
			fprintf(stderr, "ember probe: out of memory\n");
			return 1;
		}
		n = ember_probe__resolve_kprobe(&pd->def, NULL, pd->traces, max);
		if (n < 0)
			return symbol_failure(o, pd, n, "kernel", max);
		pd->nr = n;
		return 0;
	}
	pd->traces = calloc(1, sizeof(*pd->traces));
	if (!pd->traces) {
		fprintf(stderr, "ember probe: out of memory\n");
		return 1;
	}
	t = &pd->traces[0];
	t->retprobe = pd->def.retprobe;
	t->offset = pd->def.abs_address;
	snprintf(t->event, sizeof(t->event), "abs_%llx", (unsigned long long)pd->def.abs_address);
	t->nr_args = pd->def.nr_args;
	for (unsigned int i = 0; i < pd->def.nr_args; i++) {
		t->args[i].name = pd->def.args[i].name;
		t->args[i].value = pd->def.args[i].var;
		t->args[i].type = pd->def.args[i].type;
	}
	pd->nr = 1;
	return 0;
}

static int remember(struct names *names, const char *event)
{
	const char **p = realloc(names->added, (names->nr_added + 1) * sizeof(*p));

	if (!p)
		return -ENOMEM;
	names->added = p;
	p[names->nr_added++] = event;
	return 0;
}

/* Group and event for each place of one definition, as perf names them; 0 or the exit code. */
static int name_places(struct probe_opts *o, struct probe_def *pd, struct names *names)
{
	bool allow_suffix = o->force;
	char group[EMBER_PROBE_NAME_MAX];
	int err;

	/*
	 * Where tracefs appends probes to an event, perf gives a definition's
	 * places one name (the probes go in one event); elsewhere each later
	 * place takes the next suffix.
	 */
	names->nr_seen = names->nr_added;

	if (pd->def.group)
		err = snprintf(group, sizeof(group), "%s", pd->def.group) >= (int)sizeof(group) ?
			      -ENAMETOOLONG : 0;
	else if (o->exec && !o->kernel)
		err = ember_probe__exec_group(o->exec, group, sizeof(group));
	else
		err = snprintf(group, sizeof(group), "probe") < 0 ? -EINVAL : 0;
	if (err) {
		fprintf(stderr, "ember probe: the group name for '%s' is too long (tracefs takes "
			"fewer than %d characters)\n", pd->text, EMBER_PROBE_NAME_MAX);
		return 1;
	}
	for (int i = 0; i < pd->nr; i++) {
		struct ember_probe_trace *t = &pd->traces[i];
		char base[EMBER_PROBE_NAME_MAX], event[EMBER_PROBE_NAME_MAX];
		const char *from = pd->def.event;
		int n;

		/* a plain function names its events (FUNC_L3 for FUNC:3); else each place's function */
		if (!from)
			from = pd->def.function && !is_glob(pd->def.function) && !pd->def.abs ?
				       pd->def.function : t->event;
		if (!pd->def.event && pd->def.function && pd->def.line && !pd->def.lazy &&
		    !pd->def.offset)
			n = snprintf(base, sizeof(base), "%s_L%u", pd->def.function, pd->def.line);
		else
			n = snprintf(base, sizeof(base), "%s", from);
		if (n >= (int)sizeof(base))
			err = -ENAMETOOLONG;
		else
			err = ember_probe__event_name(base, t->retprobe, allow_suffix, name_taken,
						      names, event, sizeof(event));
		switch (err) {
		case 0:
			break;
		case -EEXIST:
			fprintf(stderr,
				"ember probe: event \"%s\" already exists; remove it with 'ember probe "
				"-d %s:%s' or force a duplicate with -f\n",
				event, group, event);
			return 1;
		case -ENAMETOOLONG:
			fprintf(stderr, "ember probe: the event name for '%s' is too long (tracefs "
				"takes fewer than %d characters)%s\n",
				pd->text, EMBER_PROBE_NAME_MAX,
				pd->def.event ? "" : "; name it with EVENT=");
			return 1;
		case -ERANGE:
			fprintf(stderr, "ember probe: too many events are on %s\n", from);
			return 1;
		default:
			fprintf(stderr, "ember probe: \"%s\" is an invalid event name; name it with "
				"EVENT=\n", from);
			return 1;
		}
		strcpy(t->group, group);
		strcpy(t->event, event);
		if (remember(names, t->event)) {
			fprintf(stderr, "ember probe: out of memory\n");
			return 1;
		}
		if (!names->multiprobe)
			names->nr_seen = names->nr_added;
		/* the places after the first of one definition take suffixes (perf's rule) */
		allow_suffix = true;
	}
	return 0;
}

/* The line of each place, checked; -D prints them. 0 or the exit code. */
static int check_lines(struct probe_opts *o, struct probe_def *pds, size_t nr)
{
	char line[EMBER_PROBE_LINE_MAX];

	for (size_t i = 0; i < nr; i++) {
		for (int k = 0; k < pds[i].nr; k++) {
			const struct ember_probe_trace *t = &pds[i].traces[k];
			const char *why = NULL;
			int n = ember_probe_trace__format(t, line, sizeof(line), &why);

			if (n == -ENAMETOOLONG)
				why = "its line is longer than tracefs takes (4095 characters)";
			if (n < 0) {
				fprintf(stderr, "ember probe: '%s' cannot be defined: %s\n", pds[i].text,
					why ? why : strerror(-n));
				return 1;
			}
			if (o->definition)
				printf("%s\n", line);
		}
	}
	return 0;
}

/* Remove what this run wrote before a failure, newest first. */
static void undo(struct probe_opts *o, struct probe_def *pds, size_t upto_def, int upto_place)
{
	for (size_t i = upto_def + 1; i-- > 0;) {
		int last = i == upto_def ? upto_place : pds[i].nr;

		for (int k = last; k-- > 0;) {
			const struct ember_probe_trace *t = &pds[i].traces[k];

			ember_probe__del(o->tracefs, t->uprobe, t->group, t->event);
		}
	}
}

static int write_all(struct probe_opts *o, struct probe_def *pds, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		for (int k = 0; k < pds[i].nr; k++) {
			const struct ember_probe_trace *t = &pds[i].traces[k];
			const char *why = NULL;
			char line[EMBER_PROBE_LINE_MAX];
			int err;

			if (o->verbose > 0 &&
			    ember_probe_trace__format(t, line, sizeof(line), NULL) > 0)
				fprintf(stderr, "Writing event: %s\n", line);
			err = ember_probe__add(o->tracefs, t, &why);

			if (!err)
				continue;
			undo(o, pds, i, k);
			if (err == -EINVAL && !why)
				fprintf(stderr, "ember probe: the kernel refused %s:%s ('%s'); see %s/error_log\n",
					t->group, t->event, pds[i].text, o->tracefs);
			else
				fprintf(stderr, "ember probe: cannot add %s:%s: %s\n", t->group, t->event,
					why ? why : strerror(-err));
			return 1;
		}
	}
	return 0;
}

/* perf's report of what was added, and how to use it. */
static void show_added(struct probe_opts *o, struct probe_def *pds, size_t nr)
{
	const struct ember_probe_trace *last = NULL;
	char place[1024], arg[1024], name[2 * EMBER_PROBE_NAME_MAX + 2];
	size_t total = 0;

	for (size_t i = 0; i < nr; i++)
		total += (size_t)pds[i].nr;
	fprintf(stderr, "Added new event%s\n", total > 1 ? "s:" : ":");
	for (size_t i = 0; i < nr; i++) {
		ember_probe_def__point(&pds[i].def, place, sizeof(place));
		for (int k = 0; k < pds[i].nr; k++) {
			const struct ember_probe_trace *t = &pds[i].traces[k];

			snprintf(name, sizeof(name), "%s:%s", t->group, t->event);
			fprintf(stderr, "  %-20s (on %s", name, place);
			if (t->uprobe)
				fprintf(stderr, " in %s", t->target);
			if (pds[i].def.nr_args)
				fprintf(stderr, " with");
			for (unsigned int a = 0; a < pds[i].def.nr_args; a++) {
				ember_probe_arg__format(&pds[i].def.args[a], arg, sizeof(arg));
				fprintf(stderr, " %s", arg);
			}
			fprintf(stderr, ")\n");
			last = t;
		}
	}
	if (last) {
		fprintf(stderr, "\nYou can now use it in all ember tools, such as:\n\n");
		fprintf(stderr, "\tember record -e %s:%s -aR sleep 1\n\n", last->group, last->event);
	}
}

/* Whether some definition needs the kernel's debug information (perf looks for it then). */
static bool needs_kernel_dwarf(const struct probe_def *pds, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (!pds[i].def.retprobe && !pds[i].def.abs && ember_probe_def__needs_dwarf(&pds[i].def))
			return true;
	return false;
}

int probe_add(struct probe_opts *o)
{
	bool uprobe = o->exec != NULL;
	struct ember_probe_events *file = NULL;
	struct names names = { 0 };
	struct probe_def *pds;
	size_t nr = 0;
	int ret = 0;

	pds = calloc(o->nr_defs, sizeof(*pds));
	if (!pds) {
		fprintf(stderr, "ember probe: out of memory\n");
		return 1;
	}
	for (; nr < o->nr_defs && !ret; nr++)
		ret = parse_def(&pds[nr], o->defs[nr], (int)nr, o->verbose > 0);
	if (ret)
		goto out;
	/* -D shows the lines a kernel without kprobes would not take, as perf does */
	if (!uprobe && !o->definition && !has_events_file(o->tracefs, "kprobe_events")) {
		fprintf(stderr, "ember probe: cannot probe the kernel: %s/kprobe_events does not "
			"exist (this kernel was built without CONFIG_KPROBES / CONFIG_KPROBE_EVENTS)\n",
			o->tracefs);
		ret = 1;
		goto out;
	}
	if (!uprobe && (o->vmlinux || needs_kernel_dwarf(pds, nr))) {
		ret = probe_kernel_debuginfo(o, "add events");
		if (ret)
			goto out;
	}
	for (size_t i = 0; i < nr && !ret; i++)
		ret = uprobe ? resolve_uprobe(o, &pds[i]) : resolve_kprobe(o, &pds[i]);
	if (ret)
		goto out;
	/* -D shows definitions whatever tracefs holds, as perf does */
	if (!o->definition) {
		file = ember_probe_events__read(o->tracefs, uprobe);
		if (!file) {
			fprintf(stderr, "ember probe: cannot read %s/%s: %s\n", o->tracefs,
				uprobe ? "uprobe_events" : "kprobe_events", strerror(errno));
			ret = 1;
			goto out;
		}
	}
	names.file = file;
	names.multiprobe = probe_multiprobe(o->tracefs);
	for (size_t i = 0; i < nr && !ret; i++) {
		/* a dry run writes nothing, so each definition sees only tracefs (perf's) */
		if (o->dry_run || o->definition)
			names.nr_added = 0;
		ret = name_places(o, &pds[i], &names);
	}
	if (!ret)
		ret = check_lines(o, pds, nr);
	if (ret || o->definition)
		goto out;
	if (!o->dry_run)
		ret = write_all(o, pds, nr);
	if (!ret && !o->quiet)
		show_added(o, pds, nr);
out:
	for (size_t i = 0; i < nr; i++) {
		ember_probe_def__exit(&pds[i].def);
		for (int k = 0; k < pds[i].nr; k++)
			ember_probe_trace__exit(&pds[i].traces[k]);
		free(pds[i].traces);
		free(pds[i].text);
		ember_probe_dwarf__delete(pds[i].dwarf);
	}
	free(pds);
	free(names.added);
	ember_probe_events__delete(file);
	return ret;
}
