// SPDX-License-Identifier: GPL-2.0-only
/*
 * -F/--fields as perf script 6.1 understands it. The rules (and their
 * quirks) were taken from perf's behaviour, checked against perf 6.1:
 *  - a list without "type:" replaces the fields of every type, and a
 *    field invalid for a type is skipped there with a warning;
 *  - "type:list" replaces one type's fields, an invalid field is an error;
 *  - any '+' or '-' in the argument (even the one in "bpf-output") keeps
 *    the current fields and edits them; "+a,b" or "a,+b" is an error;
 *  - fields a sample cannot fill are dropped quietly from the defaults
 *    but are an error when named in an untyped list or with '+'.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include "script/fields.h"

#ifndef PERF_TYPE_SYNTH
#define PERF_TYPE_SYNTH 0x80000000U	/* perf's own type for itrace events */
#endif

static const struct {
	const char *name;
	uint64_t field;
} field_names[] = {
	{ "comm", SF_COMM },
	{ "tid", SF_TID },
	{ "pid", SF_PID },
	{ "time", SF_TIME },
	{ "cpu", SF_CPU },
	{ "event", SF_EVNAME },
	{ "trace", SF_TRACE },
	{ "ip", SF_IP },
	{ "sym", SF_SYM },
	{ "dso", SF_DSO },
	{ "addr", SF_ADDR },
	{ "symoff", SF_SYMOFFSET },
	{ "srcline", SF_SRCLINE },
	{ "period", SF_PERIOD },
	{ "iregs", SF_IREGS },
	{ "uregs", SF_UREGS },
	{ "brstack", SF_BRSTACK },
	{ "brstacksym", SF_BRSTACKSYM },
	{ "data_src", SF_DATA_SRC },
	{ "weight", SF_WEIGHT },
	{ "bpf-output", SF_BPF_OUTPUT },
	{ "callindent", SF_CALLINDENT },
	{ "insn", SF_INSN },
	{ "insnlen", SF_INSNLEN },
	{ "brstackinsn", SF_BRSTACKINSN },
	{ "brstackoff", SF_BRSTACKOFF },
	{ "synth", SF_SYNTH },
	{ "phys_addr", SF_PHYS_ADDR },
	{ "metric", SF_METRIC },
	{ "misc", SF_MISC },
	{ "srccode", SF_SRCCODE },
	{ "ipc", SF_IPC },
	{ "tod", SF_TOD },
	{ "data_page_size", SF_DATA_PAGE_SIZE },
	{ "code_page_size", SF_CODE_PAGE_SIZE },
	{ "ins_lat", SF_INS_LAT },
	{ "brstackinsnlen", SF_BRSTACKINSNLEN },
	{ "machine_pid", SF_MACHINE_PID },
	{ "vcpu", SF_VCPU },
};

#define NR_FIELDS (sizeof(field_names) / sizeof(field_names[0]))

#define SF_BASE (SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVNAME)
#define SF_SAMPLE (SF_BASE | SF_IP | SF_SYM | SF_SYMOFFSET | SF_DSO)

void script_fields__init(struct script_fields *f)
{
	memset(f, 0, sizeof(*f));
	for (int i = 0; i < SCRIPT_OT_MAX; i++) {
		f->t[i].fields = SF_SAMPLE | SF_PERIOD;
		f->t[i].invalid = SF_TRACE | SF_BPF_OUTPUT;
	}
	f->t[SCRIPT_OT_SW].fields |= SF_BPF_OUTPUT;
	f->t[SCRIPT_OT_SW].invalid = SF_TRACE;
	f->t[SCRIPT_OT_TRACEPOINT].fields = SF_BASE | SF_TRACE;
	f->t[SCRIPT_OT_TRACEPOINT].invalid = 0;
	f->t[SCRIPT_OT_RAW].fields |= SF_ADDR | SF_DATA_SRC | SF_WEIGHT | SF_PHYS_ADDR |
				      SF_DATA_PAGE_SIZE | SF_CODE_PAGE_SIZE | SF_INS_LAT;
	f->t[SCRIPT_OT_SYNTH].fields = SF_SAMPLE | SF_SYNTH;
}

int script_fields__otype(uint32_t attr_type)
{
	if (attr_type == PERF_TYPE_SYNTH)
		return SCRIPT_OT_SYNTH;
	if (attr_type < PERF_TYPE_MAX)
		return (int)attr_type;
	return SCRIPT_OT_OTHER;
}

const char *script_fields__type_name(int otype)
{
	switch (otype) {
	case SCRIPT_OT_HW:
		return "hardware";
	case SCRIPT_OT_SW:
		return "software";
	case SCRIPT_OT_TRACEPOINT:
		return "tracepoint";
	case SCRIPT_OT_HW_CACHE:
		return "hardware-cache";
	default:
		return "unknown";
	}
}

const char *script_fields__name(uint64_t field)
{
	for (size_t i = 0; i < NR_FIELDS; i++)
		if (field_names[i].field == field)
			return field_names[i].name;
	return "";
}

uint64_t script_fields__lookup(const char *name)
{
	for (size_t i = 0; i < NR_FIELDS; i++)
		if (!strcmp(field_names[i].name, name))
			return field_names[i].field;
	return 0;
}

static bool any_set_by_user(const struct script_fields *f)
{
	for (int i = 0; i < SCRIPT_OT_MAX; i++)
		if (f->t[i].set_by_user)
			return true;
	return false;
}

static int type_prefix(const char *s)
{
	static const struct {
		const char *name;
		int otype;
	} prefixes[] = {
		{ "hw", SCRIPT_OT_HW },		{ "sw", SCRIPT_OT_SW },
		{ "trace", SCRIPT_OT_TRACEPOINT }, { "raw", SCRIPT_OT_RAW },
		{ "break", SCRIPT_OT_BREAKPOINT }, { "synth", SCRIPT_OT_SYNTH },
	};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strcmp(s, prefixes[i].name))
			return prefixes[i].otype;
	return -1;
}

enum change { CHANGE_DEFAULT, CHANGE_SET, CHANGE_ADD, CHANGE_REMOVE };

/* One field of a list; *change carries the list's mode from field to field. */
static int apply_field(struct script_fields *f, int otype, char *tok, enum change *change,
		       FILE *err)
{
	uint64_t bit;

	if (*tok == '+' || *tok == '-') {
		if (*change == CHANGE_SET)
			goto badmix;
		*change = *tok == '+' ? CHANGE_ADD : CHANGE_REMOVE;
		tok++;
	} else {
		if (*change != CHANGE_SET && *change != CHANGE_DEFAULT)
			goto badmix;
		*change = CHANGE_SET;
	}

	bit = script_fields__lookup(tok);
	if (!bit && !strcmp(tok, "flags")) {
		f->print_flags = *change != CHANGE_REMOVE;
		return 0;
	}
	if (!bit) {
		fprintf(err, "ember script: Invalid field requested: '%s'.\n", tok);
		return -EINVAL;
	}
	if (*change != CHANGE_REMOVE)
		f->unsupported |= bit & SF_UNSUPPORTED;

	if (otype < 0) {
		for (int j = 0; j < SCRIPT_OT_MAX; j++) {
			struct script_field_set *t = &f->t[j];

			if (t->invalid & bit) {
				fprintf(err, "'%s' not valid for %s events. Ignoring.\n", tok,
					script_fields__type_name(j));
				continue;
			}
			if (*change == CHANGE_REMOVE) {
				t->fields &= ~bit;
				t->user_set &= ~bit;
				t->user_unset |= bit;
			} else {
				t->fields |= bit;
				t->user_set |= bit;
				t->user_unset &= ~bit;
			}
			t->set_by_user = true;
			t->wildcard = true;
		}
		return 0;
	}

	if (f->t[otype].invalid & bit) {
		fprintf(err, "ember script: '%s' not valid for %s events.\n", tok,
			script_fields__type_name(otype));
		return -EINVAL;
	}
	/* perf does not record typed fields as user-set: missing data drops them quietly */
	if (*change == CHANGE_REMOVE)
		f->t[otype].fields &= ~bit;
	else
		f->t[otype].fields |= bit;
	f->t[otype].set_by_user = true;
	f->t[otype].wildcard = true;
	return 0;

badmix:
	fprintf(err, "ember script: Cannot mix +-field with overridden fields\n");
	return -EINVAL;
}

int script_fields__parse(struct script_fields *f, const char *arg, FILE *err)
{
	char *str = strdup(arg), *list, *tok, *save = NULL;
	enum change change = CHANGE_DEFAULT;
	int otype = -1, ret = 0;

	if (!str)
		return -ENOMEM;

	list = strchr(str, ':');
	if (list) {
		*list++ = '\0';
		otype = type_prefix(str);
		if (otype < 0) {
			fprintf(err, "ember script: Invalid event type in field string.\n");
			ret = -EINVAL;
			goto out;
		}
		if (f->t[otype].set_by_user)
			fprintf(err, "Overriding previous field request for %s events.\n",
				script_fields__type_name(otype));
		if (!strpbrk(list, "+-")) {
			f->t[otype].fields = 0;
			f->t[otype].set_by_user = true;
			f->t[otype].wildcard = false;
		}
	} else {
		list = str;
		if (!*str) {
			fprintf(err, "ember script: Cannot set fields to 'none' for all event types.\n");
			ret = -EINVAL;
			goto out;
		}
		if (!strpbrk(str, "+-")) {
			if (any_set_by_user(f))
				fprintf(err, "Overriding previous field request for all events.\n");
			for (int j = 0; j < SCRIPT_OT_MAX; j++) {
				f->t[j].fields = 0;
				f->t[j].set_by_user = true;
				f->t[j].wildcard = true;
			}
		}
	}

	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		ret = apply_field(f, otype, tok, &change, err);
		if (ret)
			break;
	}
out:
	free(str);
	return ret;
}

/* ---- checks against the file's events ----------------------------------- */

static bool has_tracepoints(const struct script_file_info *info)
{
	for (uint32_t i = 0; i < info->nr_events; i++)
		if (info->events[i].type == PERF_TYPE_TRACEPOINT)
			return true;
	return false;
}

/*
 * A field whose data the samples lack: dropped from defaults, an error
 * when the user asked for it (unless allow_user_set).
 */
static int need(struct script_fields *f, const struct script_event_info *ev, uint64_t bits,
		const char *what, uint64_t field, bool allow_user_set, FILE *err)
{
	struct script_field_set *t = &f->t[script_fields__otype(ev->type)];

	if (ev->sample_type & bits)
		return 0;
	if (t->user_set & field) {
		if (allow_user_set)
			return 0;
		fprintf(err,
			"ember script: Samples for '%s' event do not have %s attribute set. "
			"Cannot print '%s' field.\n",
			ev->name, what, script_fields__name(field));
		return -EINVAL;
	}
	t->fields &= ~field;
	return 0;
}

static int check_event(struct script_fields *f, const struct script_file_info *info,
		       const struct script_event_info *ev, FILE *err)
{
	uint64_t fl = f->t[script_fields__otype(ev->type)].fields;
	bool allow = info->has_auxtrace;
	uint64_t st = ev->sample_type;

	if (ev->dummy || info->has_stat)
		return 0;
	if ((fl & SF_TRACE) && !has_tracepoints(info)) {
		fprintf(err, "ember script: No trace sample to read. Did you call 'perf record -R'?\n");
		return -EINVAL;
	}
	if ((fl & SF_IP) && need(f, ev, PERF_SAMPLE_IP, "IP", SF_IP, false, err))
		return -EINVAL;
	if ((fl & SF_ADDR) && need(f, ev, PERF_SAMPLE_ADDR, "ADDR", SF_ADDR, allow, err))
		return -EINVAL;
	if ((fl & SF_DATA_SRC) &&
	    need(f, ev, PERF_SAMPLE_DATA_SRC, "DATA_SRC", SF_DATA_SRC, allow, err))
		return -EINVAL;
	if ((fl & SF_WEIGHT) &&
	    need(f, ev, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT", SF_WEIGHT, allow,
		 err))
		return -EINVAL;
	fl = f->t[script_fields__otype(ev->type)].fields;
	if ((fl & SF_SYM) && !(st & (PERF_SAMPLE_IP | PERF_SAMPLE_ADDR))) {
		fprintf(err, "ember script: Display of symbols requested but neither sample IP nor "
			     "sample address available. Hence, no addresses to convert to symbols.\n");
		return -EINVAL;
	}
	if ((fl & SF_SYMOFFSET) && !(fl & SF_SYM)) {
		/* perf's message, missing space included */
		fprintf(err, "ember script: Display of offsets requested but symbol is notselected.\n");
		return -EINVAL;
	}
	if ((fl & SF_DSO) && !(st & (PERF_SAMPLE_IP | PERF_SAMPLE_ADDR))) {
		fprintf(err, "ember script: Display of DSO requested but no address to convert.\n");
		return -EINVAL;
	}
	if ((fl & (SF_SRCLINE | SF_SRCCODE)) && !(fl & SF_IP)) {
		fprintf(err, "ember script: Display of source line number requested but sample IP "
			     "is not selected. Hence, no address to lookup the source line number.\n");
		return -EINVAL;
	}
	if ((fl & (SF_PID | SF_TID)) &&
	    need(f, ev, PERF_SAMPLE_TID, "TID", SF_TID | SF_PID, false, err))
		return -EINVAL;
	if ((fl & SF_TIME) && need(f, ev, PERF_SAMPLE_TIME, "TIME", SF_TIME, false, err))
		return -EINVAL;
	if ((fl & SF_CPU) && need(f, ev, PERF_SAMPLE_CPU, "CPU", SF_CPU, allow, err))
		return -EINVAL;
	if ((fl & SF_IREGS) && need(f, ev, PERF_SAMPLE_REGS_INTR, "IREGS", SF_IREGS, allow, err))
		return -EINVAL;
	if ((fl & SF_UREGS) && need(f, ev, PERF_SAMPLE_REGS_USER, "UREGS", SF_UREGS, false, err))
		return -EINVAL;
	if ((fl & SF_PHYS_ADDR) &&
	    need(f, ev, PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR", SF_PHYS_ADDR, allow, err))
		return -EINVAL;
	if ((fl & SF_DATA_PAGE_SIZE) &&
	    need(f, ev, PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE", SF_DATA_PAGE_SIZE, false,
		 err))
		return -EINVAL;
	if ((fl & SF_CODE_PAGE_SIZE) &&
	    need(f, ev, PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE", SF_CODE_PAGE_SIZE, false,
		 err))
		return -EINVAL;
	if ((fl & SF_INS_LAT) &&
	    need(f, ev, PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT", SF_INS_LAT, false, err))
		return -EINVAL;
	return 0;
}

static const struct script_event_info *first_of(const struct script_file_info *info, int otype)
{
	for (uint32_t i = 0; i < info->nr_events; i++) {
		const struct script_event_info *ev = &info->events[i];

		if (!ev->dummy && script_fields__otype(ev->type) == otype)
			return ev;
	}
	return NULL;
}

int script_fields__check(struct script_fields *f, const struct script_file_info *info,
			 bool *use_callchain, FILE *err)
{
	bool callchains = false;

	for (int j = 0; j < SCRIPT_OT_MAX; j++) {
		const struct script_event_info *ev = first_of(info, j);
		struct script_field_set *t = &f->t[j];

		if (!ev && t->set_by_user && !t->wildcard && j != SCRIPT_OT_SYNTH) {
			fprintf(err,
				"ember script: %s events do not exist. "
				"Remove corresponding -F option to proceed.\n",
				script_fields__type_name(j));
			return -EINVAL;
		}
		if (ev && t->fields && check_event(f, info, ev, err))
			return -EINVAL;
	}

	for (uint32_t i = 0; i < info->nr_events; i++)
		if (info->events[i].sample_type & PERF_SAMPLE_CALLCHAIN)
			callchains = true;
	/* In pipe mode no event is known yet: perf keeps callchains on. */
	*use_callchain = !info->no_callchain && (callchains || info->pipe || !info->nr_events);

	if (*use_callchain && !f->t[SCRIPT_OT_TRACEPOINT].set_by_user) {
		for (uint32_t i = 0; i < info->nr_events; i++) {
			const struct script_event_info *ev = &info->events[i];

			if (ev->type == PERF_TYPE_TRACEPOINT &&
			    (ev->sample_type & PERF_SAMPLE_CALLCHAIN)) {
				f->t[SCRIPT_OT_TRACEPOINT].fields |=
					SF_IP | SF_SYM | SF_SYMOFFSET | SF_DSO;
				break;
			}
		}
	}
	return 0;
}

int script_fields__attr_arrived(struct script_fields *f, const struct script_file_info *info,
				bool use_callchain, FILE *err)
{
	const struct script_event_info *ev;
	uint64_t combined = 0;
	int otype;

	if (!info->nr_events)
		return 0;
	ev = &info->events[info->nr_events - 1];
	if (ev->type >= PERF_TYPE_MAX && ev->type != PERF_TYPE_SYNTH)
		return 0;
	for (uint32_t i = 0; i + 1 < info->nr_events; i++)
		if (info->events[i].type == ev->type)
			return 0;
	if (ev->sample_type && check_event(f, info, ev, err))
		return -EINVAL;

	for (uint32_t i = 0; i < info->nr_events; i++)
		combined |= info->events[i].sample_type;
	otype = script_fields__otype(ev->type);
	if (use_callchain &&
	    ((combined & (PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK)) ||
	     (combined & PERF_SAMPLE_REGS_USER && combined & PERF_SAMPLE_STACK_USER))) {
		if (!(f->t[otype].user_unset & SF_IP))
			f->t[otype].fields |= SF_IP;
		if (!(f->t[otype].user_unset & SF_SYM))
			f->t[otype].fields |= SF_SYM;
	}
	return 0;
}
