// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Event and group modifiers (":u", ":ppp", "}:S"), applied to the attr
 * exactly as perf 6.1's get_event_modifier() does.
 */
#include "event/parse-events-priv.h"

#define MOD_CHARS "ukhpPGHSDIWeb"
#define MOD_HINT \
	"modifiers: u k h (user, kernel, hypervisor), p pp ppp P (precise), G H (guest, host), " \
	"S (read sample), D (pinned), I (non idle), W (weak group), e (exclusive), b (bpf counter)"

/* perf's check_modifier(): known letters, each once except 'p' (at most 3). */
static int check_mods(struct parser *p, int start, int end)
{
	const char *s = p->spec;
	int np = 0;

	for (int i = start; i < end; i++) {
		if (!strchr(MOD_CHARS, s[i]))
			return parse_fail(p, -EINVAL, i, MOD_HINT, "unknown modifier '%c'", s[i]);
		if (s[i] == 'p') {
			if (++np > 3)
				return parse_fail(p, -EINVAL, i, NULL,
						  "bad modifier: at most 3 'p' (precise 0-3)");
		} else if (memchr(s + start, s[i], i - start)) {
			return parse_fail(p, -EINVAL, i, NULL, "bad modifier: '%c' given twice",
					  s[i]);
		}
	}
	return 0;
}

/*
 * Apply modifier letters as perf's get_event_modifier() does. Event
 * modifiers (add false) start from nothing excluded; group modifiers
 * (add true) build on each member's own. Returns -EINVAL when the
 * precise levels add up past 3.
 */
static int apply_mods(struct ember_evsel *evsel, const char *m, size_t len, bool add,
		      bool leader)
{
	struct perf_event_attr *a = &evsel->attr;
	int eu = add && a->exclude_user, ek = add && a->exclude_kernel;
	int eh = add && a->exclude_hv, eH = add && a->exclude_host;
	int eG = add && a->exclude_guest, eI = add && a->exclude_idle;
	int precise = add ? a->precise_ip : 0;
	int pinned = add && a->pinned, exclusive = add && a->exclusive;
	int exclude = eu | ek | eh;
	int exclude_GH = add && !evsel->exclude_guest_default;
	bool precise_max = false;

	for (size_t i = 0; i < len; i++) {
		switch (m[i]) {
		case 'u':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			if (!exclude_GH)
				eG = 1;
			eu = 0;
			break;
		case 'k':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			ek = 0;
			break;
		case 'h':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			eh = 0;
			break;
		case 'G':
			if (!exclude_GH)
				exclude_GH = eG = eH = 1;
			eG = 0;
			break;
		case 'H':
			if (!exclude_GH)
				exclude_GH = eG = eH = 1;
			eH = 0;
			break;
		case 'I':
			eI = 1;
			break;
		case 'p':
			precise++;
			/* precise sampling needs exclude_guest */
			if (!exclude_GH)
				eG = 1;
			break;
		case 'P':
			precise_max = true;
			break;
		case 'D':
			pinned = 1;
			break;
		case 'e':
			exclusive = 1;
			break;
		default:	/* S, W, b: read from evsel->modifiers by the commands */
			break;
		}
	}
	if (precise > 3)
		return -EINVAL;
	a->exclude_user = eu;
	a->exclude_kernel = ek;
	a->exclude_hv = eh;
	a->exclude_host = eH;
	a->exclude_guest = eG;
	a->exclude_idle = eI;
	a->precise_ip = precise;
	evsel->exclude_guest_default = !exclude_GH;
	evsel->precise_max = precise_max;
	if (leader) {
		a->pinned = pinned;
		a->exclusive = exclusive;
	}
	return 0;
}

/* Check and apply the event modifiers spec[start, end) to evsels first.. */
int parse_events__event_mods(struct parser *p, int first, int start, int end)
{
	int ret;

	if (start >= end)
		return 0;
	ret = check_mods(p, start, end);
	if (ret)
		return ret;
	for (int i = first; i < p->nr; i++)
		apply_mods(p->evsels[i], p->spec + start, end - start, false, true);
	return 0;
}

int parse_events__group_mods(struct parser *p, int first, int start, int end)
{
	int ret = check_mods(p, start, end);

	if (ret)
		return ret;
	for (int i = first; i < p->nr; i++) {
		/* Only the group's leader is pinned or exclusive. */
		if (apply_mods(p->evsels[i], p->spec + start, end - start, true, i == first))
			return parse_fail(p, -EINVAL, start, NULL,
					  "bad modifier: precise levels add up past 3");
	}
	return 0;
}
