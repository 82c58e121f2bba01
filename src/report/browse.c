// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember report on a terminal: each event's histogram in the TUI's
 * browser (src/tui/), perf's title line over it; with several events,
 * perf's menu of the events first, TAB and shift-TAB between them.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/array.h"
#include "annotate/annotate.h"
#include "report/run.h"
#include "tui/dialog.h"
#include "tui/hist-browser.h"
#include "tui/screen.h"

struct browse {
	struct report *rep;
	uint32_t idx;		/* the event shown */
	char *switch_to;	/* s: the file chosen, reported on once the screen is given back */
};

#define MAX_DATA_FILES 32	/* perf's menu of them holds as many */

static const char *thread_comm(const void *thread)
{
	return ember_thread__comm((const struct ember_thread *)thread);
}

static const struct ember_hist *shown_hist(const struct report *rep, uint32_t idx)
{
	const struct ember_hist *h = ember_hist_feed__hist(rep->feed, idx);

	/* perf skips the events without samples, as --stdio does */
	return h && ember_hist__stats(h)->nr_samples ? h : NULL;
}

/*
 * perf's hists__scnprintf_title(): "Samples: 5K of event 'cycles', Event
 * count (approx.): N" (title), or the events menu's "5K cycles".
 */
static void samples_line(const struct report *rep, uint32_t idx, unsigned long nr,
			 uint64_t period, bool title, char *buf, size_t size)
{
	char unit, name[256];

	nr = report_convert_unit(nr, &unit);
	report_event_name(rep->session, ember_data_reader__attr(rep->reader, idx), name,
			  sizeof(name));
	if (title)
		snprintf(buf, size, "Samples: %lu%c of event '%s', Event count (approx.): %" PRIu64,
			 nr, unit, name, period);
	else
		snprintf(buf, size, "%lu%c%s%s", nr, unit, unit == ' ' ? "" : " ", name);
}

static void title(void *ctx, uint64_t nr_samples, uint64_t period, char *buf, size_t size)
{
	const struct browse *br = ctx;

	samples_line(br->rep, br->idx, nr_samples, period, true, buf, size);
}

/*
 * i: perf's header window, the lines --header-only prints between its
 * "# ========" lines (perf_header__fprintf_info()'s, in full), over the
 * whole screen, scrolled until q.
 */
static void header_window(const struct report *rep)
{
	char *text = NULL, *p, **lines = NULL;
	size_t size = 0, nr = 0, alloc = 0;
	FILE *fp = open_memstream(&text, &size);

	if (!fp)
		return;
	ember_data_reader__fprintf_header(rep->reader, fp, true);
	if (fclose(fp) || !text)
		goto out;
	for (p = text; *p;) {
		char *nl = strchr(p, '\n');

		if (nl)
			*nl = '\0';
		if (strcmp(p, "# ========") && strcmp(p, "#")) {
			if (array__reserve((void **)&lines, &alloc, nr, sizeof(*lines)))
				goto out;
			lines[nr++] = p;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	tui_dialog__menu("Header information", (const char *const *)lines, (int)nr,
			 "Press 'q' to exit");
out:
	free(lines);
	free(text);
}

/* Whether the file at path starts as perf.data does ("PERFILE2" either way round, "PERFFILE"). */
static bool is_data_file(const char *path)
{
	char magic[8];
	FILE *fp = fopen(path, "r");
	bool yes;

	if (!fp)
		return false;
	yes = fread(magic, 1, 8, fp) == 8 &&
	      (!memcmp(magic, "PERFILE2", 8) || !memcmp(magic, "2ELIFREP", 8) ||
	       !memcmp(magic, "PERFFILE", 8));
	fclose(fp);
	return yes;
}

/*
 * s: perf's switch_data_file(): the regular files of $PWD that are
 * perf.data files (32 at most, in the directory's order), in a menu; the
 * one chosen goes to br->switch_to. Whether one was.
 */
static bool choose_data_file(struct browse *br)
{
	const char *pwd = getenv("PWD");
	char *names[MAX_DATA_FILES], *paths[MAX_DATA_FILES];
	struct dirent *d;
	int nr = 0, choice = -1, i;
	DIR *dir = pwd ? opendir(pwd) : NULL;

	if (!dir)
		return false;
	while (nr < MAX_DATA_FILES && (d = readdir(dir)) != NULL) {
		char *path;

		if (d->d_type != DT_REG || asprintf(&path, "%s/%s", pwd, d->d_name) < 0)
			continue;
		if (!is_data_file(path) || !(names[nr] = strdup(d->d_name))) {
			free(path);
			continue;
		}
		paths[nr++] = path;
	}
	closedir(dir);
	if (nr)
		choice = tui_dialog__menu("", (const char *const *)names, nr,
					  "ESC: exit, ENTER|->: Select option");
	for (i = 0; i < nr; i++) {
		free(names[i]);
		if (i == choice)
			br->switch_to = paths[i];
		else
			free(paths[i]);
	}
	return choice >= 0;
}

/*
 * The report again, on another file: this command line with "-i path"
 * after it (the last -i is the one taken), in this process. Returns only
 * when it cannot be started.
 */
static void report_again(const struct report *rep, const char *path)
{
	const char **argv = calloc(rep->argc + 4, sizeof(*argv));
	int n = 0;

	if (!argv)
		return;
	argv[n++] = "ember";
	for (int i = 0; i < rep->argc; i++)
		argv[n++] = rep->argv[i];
	argv[n++] = "-i";
	argv[n++] = path;
	fflush(NULL);
	execv("/proc/self/exe", (char *const *)argv);
	fprintf(stderr, "ember report: cannot start again on %s: %s\n", path, strerror(errno));
	free(argv);
}

/* The report's own keys: i, s. */
static int key(void *ctx, int key)
{
	struct browse *br = ctx;

	switch (key) {
	case 'i':
		header_window(br->rep);
		return 1;
	case 's':
		/* the browser is left, the terminal given back, then the report starts again */
		if (choose_data_file(br))
			return -1;
		tui_dialog__text("Warning:",
				 "Won't switch the data files due to\n"
				 "no valid data file get selected!\n",
				 true);
		return 1;
	}
	return 0;
}

/* Annotate: the entry's symbol in the annotate browser, perf's title (with the frequency) on top */
static void annotate(void *ctx, const struct ember_hist_entry *e)
{
	const struct browse *br = ctx;
	const struct report *rep = br->rep;
	const struct ember_data_attr *attr = ember_data_reader__attr(rep->reader, br->idx);
	const struct ember_hist_stats *st = ember_hist__stats(shown_hist(rep, br->idx));
	char title[1024], line[1024], why[1024] = "", *freq;
	struct annotate_browse_req req = {
		.input = ember_session__path(rep->session),
		.force = rep->o.force,
		.symfs = rep->o.symfs,
		.kallsyms = rep->o.kallsyms,
		.event = br->idx,
		.dso = e->dso_long_name ? e->dso_long_name : e->dso_name,
		.sym = e->sym_name,
		.title = title,
		.why = why,
		.whysz = sizeof(why),
	};

	samples_line(rep, br->idx, st->nr_samples, st->total_period, true, line, sizeof(line));
	/* perf's annotate title has " 4000 Hz," after the event's name */
	freq = strstr(line, "', Event count");
	if (freq)
		snprintf(title, sizeof(title), "%.*s', %d Hz,%s", (int)(freq - line), line,
			 (int)attr->attr.sample_freq, freq + 2);
	else
		snprintf(title, sizeof(title), "%s", line);
	if (annotate__browse_symbol(&req) && why[0])
		tui_dialog__text("Error", why, true);
}

/* The events with samples, in the file's order; their number. *out is malloc'ed. */
static uint32_t events(const struct report *rep, uint32_t **out)
{
	uint32_t i, n = 0, nr = ember_hist_feed__nr_hists(rep->feed);

	*out = calloc(nr ? nr : 1, sizeof(**out));
	if (!*out)
		return 0;
	for (i = 0; i < nr; i++)
		if (shown_hist(rep, i))
			(*out)[n++] = i;
	return n;
}

/* perf's "Available samples" menu: the event chosen, or negative to leave. */
static int event_menu(const struct report *rep, const uint32_t *ev, uint32_t nr)
{
	char (*texts)[300] = calloc(nr, sizeof(*texts));
	const char **items = calloc(nr, sizeof(*items));
	uint32_t i;
	int choice = -1;

	if (texts && items) {
		for (i = 0; i < nr; i++) {
			const struct ember_hist *h = shown_hist(rep, ev[i]);

			samples_line(rep, ev[i], ember_hist__stats(h)->nr_samples, 0, false,
				     texts[i], sizeof(texts[i]));
			items[i] = texts[i];
		}
		/* ESC asks, as perf's menu does; q leaves */
		do
			choice = tui_dialog__menu("Available samples", items, nr,
						  "ESC: exit, ENTER|->: Browse histograms");
		while (choice == -1 && !tui_dialog__yesno("Do you really want to exit?"));
	}
	free(texts);
	free(items);
	return choice;
}

int report__browse(struct report *rep)
{
	struct report_print_opts po = {
		.show_header = true,
		.filter_relative = rep->o.filter_relative,
		.min_percent = rep->o.min_percent,
		.dso_filter = rep->o.dsos != NULL,
		.thread_comm = thread_comm,
	};
	struct browse br = { .rep = rep };
	struct tui_hist_browser_opts bo = {
		.po = &po,
		.title = title,
		.ctx = &br,
		.key = key,
		.help = "i             Show header information\n"
			"s             Switch to another data file in PWD",
		.annotate = annotate,
	};
	uint32_t *ev, nr = events(rep, &ev);
	char why[256];
	int cur = 0, ret = 0;

	if (!ev)
		return 1;
	if (tui_screen__init(why, sizeof(why))) {
		free(ev);
		return -1;
	}
	bo.events = nr > 1;
	if (nr > 1)
		cur = event_menu(rep, ev, nr);
	while (cur >= 0 && nr) {
		enum tui_hist_action a;

		br.idx = ev[cur];
		bo.hist = shown_hist(rep, br.idx);
		a = tui_hist_browser__run(&bo);
		if (a == TUI_HIST_NEXT)
			cur = (cur + 1) % nr;
		else if (a == TUI_HIST_PREV)
			cur = (cur + nr - 1) % nr;
		else if (a == TUI_HIST_BACK)
			cur = event_menu(rep, ev, nr);
		else {
			ret = a == TUI_HIST_ERROR;
			break;
		}
	}
	tui_screen__exit();
	free(ev);
	if (ret)
		fprintf(stderr, "ember report: the browser ran out of memory\n");
	if (br.switch_to) {
		report_again(rep, br.switch_to);
		free(br.switch_to);
		ret = 1;
	}
	return ret;
}
