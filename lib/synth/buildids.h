/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The build-ids of what a recording mapped executable: the BUILD_ID
 * feature section perf record writes, without reading the file back.
 *
 * perf record finds the dsos that have samples by processing the whole
 * file after recording, then reads their build-ids. A recorder sees every
 * record go by anyway: it notes the executable MMAP/MMAP2 ones as they pass
 * (a hash look-up per map record), the code page of each sample (a compare,
 * or a hash look-up when the page changes; see buildid-hits.h), and reads
 * the note of each distinct file that samples hit, once, at the end: the
 * files perf lists, and [vdso], which perf always lists. With `all`, every
 * file mapped executable, as perf's --buildid-all.
 *
 *	struct ember_synth_buildids *b = ember_synth_buildids__new(false);
 *	ember_synth_buildids__note(b, rec);	for each map record written
 *	ember_synth_buildids__sample(b, rec, ip_off);	for each sample
 *	ember_synth_buildids__read(b, env);	fills env->build_ids
 *	ember_synth_buildids__delete(b);
 */
#ifndef EMBER_LIB_SYNTH_BUILDIDS_H
#define EMBER_LIB_SYNTH_BUILDIDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct ember_env;
struct ember_synth_buildids;

/*
 * A new, empty collector, or NULL (errno ENOMEM). Free with __delete.
 * all: every file mapped executable, hit or not (perf's --buildid-all).
 */
struct ember_synth_buildids *ember_synth_buildids__new(bool all);
/* Free the collector. NULL is fine. */
void ember_synth_buildids__delete(struct ember_synth_buildids *b);

/*
 * Look at one record: an executable MMAP or MMAP2 (kernel, module, file
 * or [vdso]) adds its file once; anything else is ignored. Returns 0 or
 * -ENOMEM.
 */
int ember_synth_buildids__note(struct ember_synth_buildids *b, const struct perf_event_header *rec);

/*
 * Look at one sample: its ip, ip_off bytes into the body (after the
 * identifier, if any), marks the page hit, in the kernel's or the user's
 * mode. Nothing to do with `all`. Returns 0 or -ENOMEM.
 */
int ember_synth_buildids__sample(struct ember_synth_buildids *b, const struct perf_event_header *rec,
				 size_t ip_off);

/* How many distinct files were noted so far. */
size_t ember_synth_buildids__nr(const struct ember_synth_buildids *b);

/*
 * Read the build-id of every noted file samples hit (every one with `all`;
 * [vdso] always) and append an entry per file that has one to
 * env->build_ids (pid -1, the kernel's cpumode for the kernel and modules,
 * the user's for the rest; in the order first seen, as perf orders its
 * dsos), and set the BUILD_ID feature. The kernel's comes from
 * /sys/kernel/notes, a module's from /sys/module/NAME/notes, [vdso]'s from
 * this process's own vdso (the kernel maps one image per ABI), a file's
 * from the notes its program headers point at (the first page, already in
 * the page cache since it was mapped), else from its note sections. Files
 * gone or without a build-id are left out. Returns 0 or -ENOMEM.
 */
int ember_synth_buildids__read(struct ember_synth_buildids *b, struct ember_env *env);

/*
 * The GNU build-id of an ELF image in memory (img, len bytes from its
 * start), found through its PT_NOTE program headers. Returns its length
 * (at most size bytes copied to buf), or -ENODATA.
 */
int ember_synth_buildids__from_image(const void *img, size_t len, uint8_t *buf, size_t size);

#endif
