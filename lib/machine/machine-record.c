// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A side-band record as the kernel writes it, checked and decoded onto
 * the machine: what a file's reader (the session) and a live reader of
 * ring buffers (ember top) both feed it.
 */
#include <errno.h>
#include <string.h>
#include <ember/machine.h>
#include "data/format.h"

/* A string field that runs to the end of the record: NUL-terminated inside it? */
static bool str_in_record(const struct perf_event_header *hdr, const char *str)
{
	const char *end = (const char *)hdr + hdr->size;

	return str < end && memchr(str, '\0', end - str);
}

static int machine_mmap(struct ember_machine *m, const struct perf_event_header *hdr)
{
	const struct ember_record_mmap *ev = (const void *)hdr;

	if (hdr->size < sizeof(*ev) + 1 || !str_in_record(hdr, ev->filename))
		return -EINVAL;
	return ember_machine__process_mmap(m, hdr->misc, ev->pid, ev->tid, ev->start, ev->len,
					   ev->pgoff, ev->filename);
}

static int machine_mmap2(struct ember_machine *m, const struct perf_event_header *hdr)
{
	const struct ember_record_mmap2 *ev = (const void *)hdr;
	struct ember_dso_id id = { 0 };

	if (hdr->size < sizeof(*ev) + 1 || !str_in_record(hdr, ev->filename))
		return -EINVAL;
	if (hdr->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		id.build_id_size = ev->build_id_size < EMBER_BUILD_ID_MAX ? ev->build_id_size
									   : EMBER_BUILD_ID_MAX;
		memcpy(id.build_id, ev->build_id, id.build_id_size);
	} else {
		id.maj = ev->maj;
		id.min = ev->min;
		id.ino = ev->ino;
		id.ino_generation = ev->ino_generation;
	}
	return ember_machine__process_mmap2(m, hdr->misc, ev->pid, ev->tid, ev->start, ev->len,
					    ev->pgoff, ev->prot, ev->flags, ev->filename, &id);
}

static int machine_comm(struct ember_machine *m, const struct perf_event_header *hdr)
{
	const struct ember_record_comm *ev = (const void *)hdr;

	if (hdr->size < sizeof(*ev) + 1 || !str_in_record(hdr, ev->comm))
		return -EINVAL;
	return ember_machine__process_comm(m, hdr->misc, ev->pid, ev->tid, ev->comm);
}

static int machine_task(struct ember_machine *m, const struct perf_event_header *hdr)
{
	const struct ember_record_task *ev = (const void *)hdr;

	if (hdr->size < sizeof(*ev))
		return -EINVAL;
	if (hdr->type == PERF_RECORD_FORK)
		return ember_machine__process_fork(m, hdr->misc, ev->pid, ev->tid, ev->ppid,
						   ev->ptid);
	return ember_machine__process_exit(m, ev->pid, ev->tid);
}

static int machine_ksymbol(struct ember_machine *m, const struct perf_event_header *hdr)
{
	const struct ember_record_ksymbol *ev = (const void *)hdr;

	if (hdr->size < sizeof(*ev) + 1 || !str_in_record(hdr, ev->name))
		return -EINVAL;
	return ember_machine__process_ksymbol(m, ev->addr, ev->len, ev->ksym_type, ev->flags,
					      ev->name);
}

int ember_machine__process_event(struct ember_machine *m, const struct perf_event_header *hdr)
{
	switch (hdr->type) {
	case PERF_RECORD_MMAP:
		return machine_mmap(m, hdr);
	case PERF_RECORD_MMAP2:
		return machine_mmap2(m, hdr);
	case PERF_RECORD_COMM:
		return machine_comm(m, hdr);
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return machine_task(m, hdr);
	case PERF_RECORD_KSYMBOL:
		return machine_ksymbol(m, hdr);
	default:
		return 0;
	}
}
