// SPDX-License-Identifier: GPL-2.0-only
/*
 * ember top in the browser, as perf top without --stdio: report's
 * histogram browser (src/tui/) over the live histogram, perf top's title
 * ("Samples: 12K of event 'cpu-clock', 4000 Hz, Event count (approx.):
 * N lost: 0/0 drop: 0/0") and help line, its keys z (zero the history)
 * and f (stop and restart the events).
 *
 * The ring buffers are emptied into a queue every tenth of a second; at
 * each refresh (-d) the entries shown are decayed, the queued records
 * processed and the histograms sorted, and the browser reads them again:
 * between two refreshes the histogram it walks does not change.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "report/report.h"
#include "top/top.h"
#include "tui/dialog.h"
#include "tui/hist-browser.h"
#include "tui/screen.h"

#define TOP_DRAIN_MS 100

static const char top_helpline[] = "For a higher level overview, try: ember top --sort comm,dso";

struct browse {
	struct top *t;
	int idx;		/* the event shown */
	double next;		/* the next refresh, in seconds */
	bool enabled;		/* f: the events are on */
	int err;		/* what ended the browser, negative errno */
	char helpline[128];
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct ember_evsel *shown_evsel(const struct browse *br)
{
	struct ember_evsel *e = ember_evlist__next(br->t->evlist, NULL);

	for (int i = 0; e && i < br->idx; i++)
		e = ember_evlist__next(br->t->evlist, e);
	return e;
}

/* perf's hists__scnprintf_title() for top: the samples, the event, its frequency, the period. */
static void title(void *ctx, uint64_t nr_samples, uint64_t period, char *buf, size_t size)
{
	const struct browse *br = ctx;
	struct ember_evsel *e = shown_evsel(br);
	char unit;
	unsigned long nr = report_convert_unit(nr_samples, &unit);

	/* perf prints sample_freq, the same bits as the period with -c */
	snprintf(buf, size,
		 "Samples: %lu%c of event '%s', %" PRIu64 " Hz, Event count (approx.): %" PRIu64, nr,
		 unit, ember_evsel__name(e), (uint64_t)ember_evsel__attr(e)->sample_period, period);
}

/* After the zooms, as perf top's: what was lost since the last refresh and in all, -z. */
static void title_end(void *ctx, char *buf, size_t size)
{
	const struct browse *br = ctx;
	const struct top *t = br->t;

	snprintf(buf, size, " lost: %" PRIu64 "/%" PRIu64 " drop: 0/0%s", t->lost, t->lost_total,
		 t->o.zero ? " [z]" : "");
}

/* A refresh: what was shown decayed, the records queued since added, all sorted again. */
static int refresh(struct browse *br)
{
	struct top *t = br->t;
	int err;

	err = top_display__decay(t);
	t->lost = 0;
	if (!err)
		err = top_live__queue(t);
	if (!err)
		err = top_live__take_queued(t);
	if (!err)
		err = top_display__resort(t);
	return err;
}

static int update(void *ctx, const struct ember_hist **hist)
{
	struct browse *br = ctx;
	struct top *t = br->t;
	double now = now_s();

	br->err = top_live__queue(t);
	if (br->err)
		return -1;
	/* perf refreshes nothing while the events are off */
	if (!br->enabled || now < br->next)
		return 0;
	br->next += t->o.delay_secs;
	if (br->next < now)
		br->next = now + t->o.delay_secs;
	br->err = refresh(br);
	if (br->err || top_live__targets_gone(t))
		return -1;
	*hist = t->hists[br->idx];
	return 1;
}

static int key(void *ctx, int key)
{
	struct browse *br = ctx;
	struct top *t = br->t;

	switch (key) {
	case 'z':
		t->o.zero = !t->o.zero;
		return 1;
	case 'f':
		if (br->enabled)
			ember_evlist__disable(t->evlist);
		else
			ember_evlist__enable(t->evlist);
		br->enabled = !br->enabled;
		snprintf(br->helpline, sizeof(br->helpline), "%s",
			 br->enabled ? "Press 'f' to disable the events or 'h' to see other hotkeys" :
				       "Press 'f' again to re-enable the events");
		br->next = now_s() + t->o.delay_secs;
		return 1;
	}
	return 0;
}

int top_browse__run(struct top *t, char *why, size_t whysz)
{
	struct report_print_opts po = {
		.show_header = true,
		.min_percent = t->o.min_percent,
	};
	struct browse br = { .t = t, .enabled = true };
	struct tui_hist_browser_opts bo = {
		.po = &po,
		.title = title,
		.title_end = title_end,
		.ctx = &br,
		.helpline = br.helpline,
		.events = t->nr_hists > 1,
		.update = update,
		.update_ms = TOP_DRAIN_MS,
		.key = key,
		.help = "z             Toggle zeroing of samples\n"
			"f             Enable/Disable events",
	};
	enum tui_hist_action a;
	int ret = 0;

	snprintf(br.helpline, sizeof(br.helpline), "%s", top_helpline);
	/* the first screen: what came while the processes were read */
	br.err = top_live__queue(t);
	if (!br.err)
		br.err = top_live__take_queued(t);
	if (!br.err)
		br.err = top_display__resort(t);
	if (br.err) {
		fprintf(stderr, "ember top: %s\n", strerror(-br.err));
		return 1;
	}
	br.next = now_s() + t->o.delay_secs;
	if (tui_screen__init(why, whysz))
		return -1;
	for (;;) {
		bo.hist = t->hists[br.idx];
		a = tui_hist_browser__run(&bo);
		if (a == TUI_HIST_NEXT)
			br.idx = (br.idx + 1) % t->nr_hists;
		else if (a == TUI_HIST_PREV)
			br.idx = (br.idx + t->nr_hists - 1) % t->nr_hists;
		/* ESC with several events: perf goes back to their menu, which asks */
		else if (a != TUI_HIST_BACK || tui_dialog__yesno("Do you really want to exit?"))
			break;
	}
	tui_screen__exit();
	if (a == TUI_HIST_ERROR)
		br.err = -ENOMEM;
	if (br.err) {
		fprintf(stderr, "ember top: %s\n", strerror(-br.err));
		ret = 1;
	}
	return ret;
}
