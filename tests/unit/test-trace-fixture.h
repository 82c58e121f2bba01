/* SPDX-License-Identifier: GPL-2.0-only */
/* A TRACING_DATA blob built from fixed formats, for the lib/trace unit tests. */
#ifndef EMBER_TEST_TRACE_FIXTURE_H
#define EMBER_TEST_TRACE_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#define FX_ID_SCHED_SWITCH	372
#define FX_ID_EXEC		365
#define FX_ID_HRTIMER		459

extern const char fx_header_page[], fx_header_event[];
extern const char fx_sched_switch[], fx_exec[], fx_hrtimer[];
extern const char fx_kallsyms[], fx_printk[], fx_cmdlines[];

/*
 * The fixture blob: systems "sched" (sched_switch, sched_process_exec) and
 * "timer" (hrtimer_expire_entry), kallsyms, printk formats, cmdlines.
 * malloc'ed; the caller frees.
 */
void *fx_blob(size_t *size);

/* A blob with only `format`, of system `sys` (no kallsyms, printk or cmdlines). malloc'ed. */
void *fx_blob_one(const char *sys, const char *format, size_t *size);

/* Raw samples of the fixture's events. Each returns its size; buf holds 128 bytes. */
size_t fx_raw_sched_switch(uint8_t *buf, const char *prev, int prev_pid, int prev_prio,
			   long prev_state, const char *next, int next_pid);
size_t fx_raw_exec(uint8_t *buf, const char *filename, int pid);
size_t fx_raw_hrtimer(uint8_t *buf, uint64_t timer, int64_t now, uint64_t function);

#endif
