// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The reading loop: each record from the reader is either queued by time
 * or delivered at once; delivery feeds the machine (maps, comms, threads),
 * counts what perf report counts, and hands samples, resolved, and every
 * other record to the caller.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "data/format.h"
#include "session/session-priv.h"
#include "symbol/dso.h"

static __attribute__((noinline)) int grow_event_stats(struct ember_session *s, uint32_t nr)
{
	struct ember_session_event_stats *ev = realloc(s->events, nr * sizeof(*ev));

	if (!ev)
		return -ENOMEM;
	memset(ev + s->stats.nr_events, 0, (nr - s->stats.nr_events) * sizeof(*ev));
	s->events = ev;
	s->stats.events = ev;
	s->stats.nr_events = nr;
	return 0;
}

/* Inline, the growth apart: this runs for every sample. */
static inline struct ember_session_event_stats *event_stats(struct ember_session *s,
							    const struct ember_data_attr *attr)
{
	uint32_t nr = ember_data_reader__nr_attrs(s->reader);

	/* Pipe mode: an ATTR record may add an event after open. */
	if (nr > s->stats.nr_events && grow_event_stats(s, nr))
		return NULL;
	return attr && attr->idx < s->stats.nr_events ? &s->events[attr->idx] : NULL;
}

static int deliver_sample(struct ember_session *s, const struct perf_event_header *hdr,
			  uint64_t file_offset, const struct ember_data_attr *attr)
{
	struct ember_session_event_stats *ev;
	struct ember_session_sample ss;
	struct ember_sample sample;

	/* = { .hdr = hdr, .file_offset = file_offset }, without a rep stos */
	zero_small(&ss, sizeof(ss));
	ss.hdr = hdr;
	ss.file_offset = file_offset;

	/*
	 * ember_data_reader__parse_sample(), with the attr it finds kept: one
	 * lookup, none when the queue kept the one found to order the sample.
	 */
	ss.attr = attr ? attr : ember_data_reader__attr_of(s->reader, hdr);
	if (!ss.attr || ember_sample__parse(&sample, hdr, &ss.attr->attr)) {
		s->stats.nr_invalid_samples++;
		return 0;
	}
	ss.callchain_recorded = sample.callchain_nr;
	if (session__add_user_frames(s, &ss.attr->attr, &sample) < 0)
		return -ENOMEM;
	ss.sample = &sample;
	s->stats.nr_samples++;
	ev = event_stats(s, ss.attr);
	if (ev) {
		ev->nr_samples++;
		ev->total_period += sample.period;
	}
	if (s->opts.lazy_sample_ip && (sample.cpumode == PERF_RECORD_MISC_KERNEL ||
					sample.cpumode == PERF_RECORD_MISC_USER)) {
		/* What ember_thread__resolve() sets before it looks anything up. */
		ss.thread = ember_machine__findnew_thread(s->machine, (pid_t)sample.pid,
							  (pid_t)sample.tid);
		if (!ss.thread)
			return -ENOMEM;
		ss.al.thread = ss.thread;
		ss.al.comm = ember_thread__comm(ss.thread);
		ss.al.ip = ss.al.addr = sample.ip;
		ss.al.cpumode = sample.cpumode;
		return s->ops->sample ? s->ops->sample(s, &ss, s->ctx) : 0;
	}
	if (ember_machine__resolve(s->machine, (pid_t)sample.pid, (pid_t)sample.tid,
				   sample.cpumode, sample.ip, &ss.al) == -ENOMEM)
		return -ENOMEM;
	ss.thread = ss.al.thread;
	return s->ops->sample ? s->ops->sample(s, &ss, s->ctx) : 0;
}

static void count_lost_samples(struct ember_session *s, const struct perf_event_header *hdr)
{
	const struct ember_record_lost_samples *ev = (const void *)hdr;
	struct ember_session_event_stats *es;

	if (hdr->size < sizeof(*ev))
		return;
	s->stats.nr_lost_samples += ev->lost;
	es = event_stats(s, ember_data_reader__attr_of(s->reader, hdr));
	if (es)
		es->nr_lost_samples += ev->lost;
}

/* A kernel record (type < 64), in its turn; attr: its event, if known already (or NULL). */
static int deliver_kernel_record(const struct perf_event_header *hdr, uint64_t file_offset,
				 const void *attr, void *ctx)
{
	struct ember_session *s = ctx;
	struct ember_data_record rec = { .hdr = hdr, .offset = file_offset };
	struct ember_sample id;
	const struct ember_sample *idp = NULL;
	int err = 0;

	switch (hdr->type) {
	case PERF_RECORD_SAMPLE:
		return deliver_sample(s, hdr, file_offset, attr);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
	case PERF_RECORD_KSYMBOL:
		err = ember_machine__process_event(s->machine, hdr);
		break;
	case PERF_RECORD_LOST:
		if (hdr->size >= sizeof(struct ember_record_lost)) {
			s->stats.nr_lost_records++;
			s->stats.nr_lost += ((const struct ember_record_lost *)hdr)->lost;
		}
		break;
	case PERF_RECORD_LOST_SAMPLES:
		count_lost_samples(s, hdr);
		break;
	}
	/* A malformed side-band record is skipped, as perf skips what it cannot use. */
	if (err == -ENOMEM)
		return err;
	if (!s->ops->record)
		return 0;
	if (!ember_data_reader__parse_sample(s->reader, hdr, &id))
		idp = &id;
	return s->ops->record(s, &rec, idp, s->ctx);
}

/*
 * The time a kernel record sorts by; false when it has none (deliver it
 * now). *attrp: its event (NULL: none found).
 */
static bool record_time(struct ember_session *s, const struct perf_event_header *hdr,
			uint64_t *time, const struct ember_data_attr **attrp)
{
	const struct ember_data_attr *attr = ember_data_reader__attr_of(s->reader, hdr);
	struct ember_sample sample;

	*attrp = attr;
	if (!attr || !(attr->attr.sample_type & PERF_SAMPLE_TIME))
		return false;
	if (hdr->type == PERF_RECORD_SAMPLE) {
		/*
		 * The time sits after the fixed id, ip and pid/tid words, as
		 * perf's evlist__parse_sample_timestamp() reads it: no full
		 * decode here, the sample is decoded once, when delivered.
		 */
		uint64_t type = attr->attr.sample_type;
		size_t i = !!(type & PERF_SAMPLE_IDENTIFIER) + !!(type & PERF_SAMPLE_IP) +
			   !!(type & PERF_SAMPLE_TID);
		const uint64_t *words = (const void *)(hdr + 1);

		if (sizeof(*hdr) + (i + 1) * sizeof(*words) > hdr->size)
			return false;
		sample.time = words[i];
	} else if (!attr->attr.sample_id_all ||
		   ember_data_reader__parse_sample(s->reader, hdr, &sample)) {
		return false;
	}
	/* perf's queue refuses time 0 (and -1): such records are delivered at once */
	if (!sample.time || sample.time == UINT64_MAX)
		return false;
	*time = sample.time;
	return true;
}

static int flush(struct ember_session *s, uint64_t limit)
{
	return ordered_queue__flush(&s->queue, limit, deliver_kernel_record, s);
}

static int handle_record(struct ember_session *s, const struct ember_data_record *rec)
{
	const struct perf_event_header *hdr = rec->hdr;
	const struct ember_data_attr *attr = NULL;
	uint64_t time;
	int ret;

	if (!data_record_known(hdr->type)) /* unknown: the reader counts it */
		return 0;
	if (hdr->type >= EMBER_RECORD_HEADER_ATTR) {
		/* The record first, then what its round flushes, in perf's order (perf -D shows it). */
		ret = s->ops->record ? s->ops->record(s, rec, NULL, s->ctx) : 0;
		if (ret)
			return ret;
		if (hdr->type == EMBER_RECORD_FINISHED_ROUND && s->ordered) {
			/* perf's two-round rule: a round may still hold older records. */
			ret = flush(s, s->queue.next_flush);
			if (ret)
				return ret;
			s->queue.next_flush = s->queue.max_time;
		}
		return 0;
	}
	if (s->ordered && record_time(s, hdr, &time, &attr))
		return ordered_queue__push(&s->queue, hdr, time, rec->offset, attr);
	return deliver_kernel_record(hdr, rec->offset, attr, s);
}

int session__process(struct ember_session *s)
{
	struct ember_data_record rec;
	int ret, err;

	while ((err = ember_data_reader__next(s->reader, &rec)) > 0) {
		s->stats.nr_records++;
		ret = handle_record(s, &rec);
		if (ret)
			goto out;
	}
	/* What was read before a read error still counts: deliver it. */
	ret = flush(s, UINT64_MAX);
	if (!ret)
		ret = err;
out:
	s->stats.truncated = ember_data_reader__truncated(s->reader);
	s->stats.nr_unknown = ember_data_reader__nr_unknown(s->reader);
	s->stats.nr_unordered = s->queue.nr_unordered;
	return ret;
}

/*
 * Whether a callchain entry is the sample's own ip, resolved already by
 * deliver_sample() (the first entry mostly is): the chain then takes that
 * resolution instead of looking up the map and the symbol again. Not a
 * kernel address delivered without its symbol: that may be one deferred
 * while kernel symbols load (ember_session__defer_kernel_symbols()), to be
 * resolved anew.
 */
static bool is_sample_ip(const struct ember_session_sample *ss, uint8_t cpumode, uint64_t ip)
{
	const struct ember_addr_location *al = &ss->al;

	return al->level && ip == ss->sample->ip && cpumode == ss->sample->cpumode &&
	       al->cpumode == cpumode &&
	       al->ip == ip && al->thread == ss->thread &&
	       (al->sym || !al->dso || al->dso->kind != DSO_KIND_KERNEL);
}

static bool host_context(uint64_t ip)
{
	return ip < PERF_CONTEXT_MAX || ip == PERF_CONTEXT_HV || ip == PERF_CONTEXT_KERNEL ||
	       ip == PERF_CONTEXT_USER;
}

int ember_session__callchain(struct ember_session *s, const struct ember_session_sample *ss,
			     const struct ember_addr_location **chain)
{
	return ember_session__callchain_max(s, ss, 0, chain);
}

/* Room for n entries in s->chain. 0 or -ENOMEM. */
static int chain_reserve(struct ember_session *s, size_t n)
{
	struct ember_addr_location *c;

	if (n <= s->chain_alloc)
		return 0;
	n = n < 2 * s->chain_alloc ? 2 * s->chain_alloc : n;
	c = realloc(s->chain, n * sizeof(*c));
	if (!c)
		return -ENOMEM;
	s->chain = c;
	s->chain_alloc = n;
	return 0;
}

/* Inline levels an unwound frame shows at most (perf's addr2line reads them all; none has so many). */
#define MAX_INLINE_LEVELS 32

/*
 * Resolves the words [from, to) of the sample's chain onto s->chain from
 * *n, at most max entries (0: all); unwound: user frames get the
 * entries of their inline levels, as perf's unwinder callback adds them.
 * -EINVAL for a marker perf does not know (the chain is void then),
 * -ENOMEM, else 0.
 */
static int resolve_words(struct ember_session *s, const struct ember_session_sample *ss,
			 uint64_t from, uint64_t to, unsigned int max, bool unwound, size_t *n)
{
	uint8_t cpumode = PERF_RECORD_MISC_USER;

	for (uint64_t i = from, taken = 0; i < to && (!max || taken < max); i++) {
		uint64_t ip = ss->sample->callchain[i];
		struct ember_addr_location al;
		int k;

		/*
		 * perf 6.1 knows only the host markers in a callchain: a guest
		 * one (or a frame-pointer walk's garbage that looks like one,
		 * as 0xfffffffffffff600 in a program built without frame
		 * pointers) makes it discard the chain.
		 */
		switch (host_context(ip) ? ember_callchain__context(ip, &cpumode) : -EINVAL) {
		case 1:
			continue;
		case 0:
			if (is_sample_ip(ss, cpumode, ip))
				al = ss->al;
			else
				ember_thread__resolve(ss->thread, cpumode, ip, &al);
			al.inlined = false;
			al.srcline = NULL;
			taken++;
			if (chain_reserve(s, *n + (unwound ? MAX_INLINE_LEVELS : 1)))
				return -ENOMEM;
			k = unwound && cpumode == PERF_RECORD_MISC_USER && !s->opts.no_inline
				    ? session__inline_frames(s, &al, &s->chain[*n], MAX_INLINE_LEVELS)
				    : 0;
			if (k < 0)
				return k;
			if (!k)
				s->chain[(*n)++] = al;
			*n += k;
			continue;
		default:
			return -EINVAL;
		}
	}
	return 0;
}

int ember_session__callchain_max(struct ember_session *s, const struct ember_session_sample *ss,
				 unsigned int max, const struct ember_addr_location **chain)
{
	const struct ember_sample *sample = ss->sample;
	uint64_t recorded = ss->callchain_recorded < sample->callchain_nr ? ss->callchain_recorded
									  : sample->callchain_nr;
	size_t n = 0;
	int err;

	*chain = s->chain;
	if (!sample->callchain_nr || !ss->thread)
		return 0;
	if (chain_reserve(s, sample->callchain_nr))
		return -ENOMEM;
	/*
	 * The recorded words, then those the session added (the unwound user
	 * frames of a --call-graph dwarf sample): perf's unwinder takes max
	 * entries of its own after the recorded chain's.
	 */
	err = resolve_words(s, ss, 0, recorded, max, false, &n);
	err = err ?: resolve_words(s, ss, recorded, sample->callchain_nr, max, s->unwind, &n);
	*chain = s->chain;
	if (err == -ENOMEM)
		return err;
	if (err) {
		/* perf: the chain seems corrupted, discard all of it (quietly). */
		if (s->invalid_chain_seq != s->stats.nr_samples) {
			s->invalid_chain_seq = s->stats.nr_samples;
			s->stats.nr_invalid_callchains++;
		}
		return 0;
	}
	return (int)n;
}
