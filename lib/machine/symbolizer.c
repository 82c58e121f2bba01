// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Symbolising addresses of running processes: a machine fed from
 * /proc/PID/maps and /proc/PID/comm, the way perf record synthesizes
 * MMAP2/COMM records for processes already running.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <linux/perf_event.h>
#include "core/clock.h"
#include "machine/machine.h"

/* Re-read a process's maps at most this often when addresses miss them. */
#define SYMBOLIZER_REREAD_NS (100 * 1000 * 1000ULL)

struct pid_state {
	pid_t pid;
	uint64_t read_ns;	/* when /proc/PID/maps was last read, 0: never */
	struct pid_state *next;
};

struct ember_symbolizer {
	struct ember_machine *machine;
	struct pid_state *pids[256];
};

struct ember_symbolizer *ember_symbolizer__new(const struct ember_symbol_opts *opts)
{
	struct ember_symbolizer *s = calloc(1, sizeof(*s));

	if (!s) {
		errno = ENOMEM;
		return NULL;
	}
	s->machine = ember_machine__new(opts);
	if (!s->machine) {
		free(s);
		return NULL;
	}
	return s;
}

void ember_symbolizer__delete(struct ember_symbolizer *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < sizeof(s->pids) / sizeof(s->pids[0]); i++) {
		struct pid_state *p = s->pids[i];

		while (p) {
			struct pid_state *next = p->next;

			free(p);
			p = next;
		}
	}
	ember_machine__delete(s->machine);
	free(s);
}

struct ember_machine *ember_symbolizer__machine(struct ember_symbolizer *s)
{
	return s->machine;
}

static struct pid_state **symbolizer__slot(struct ember_symbolizer *s, pid_t pid)
{
	struct pid_state **p = &s->pids[(unsigned int)pid % (sizeof(s->pids) / sizeof(s->pids[0]))];

	while (*p && (*p)->pid != pid)
		p = &(*p)->next;
	return p;
}

/* Turns /proc/PID/maps lines into MMAP2 records, as perf's synthesize does. */
static int symbolizer__read_maps(struct ember_symbolizer *s, pid_t pid)
{
	char path[64], *line = NULL;
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "re");
	if (f) {
		char comm[64];

		if (fgets(comm, sizeof(comm), f)) {
			comm[strcspn(comm, "\n")] = '\0';
			ember_machine__process_comm(s->machine, PERF_RECORD_MISC_COMM_EXEC, pid, pid,
						    comm);
		}
		fclose(f);
	}
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	while (getline(&line, &n, f) > 0) {
		struct ember_dso_id id = { 0 };
		uint64_t start, end, pgoff, ino;
		char perms[8], *name;
		unsigned int maj, min;
		uint32_t prot = 0;
		int pos = 0;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %x:%x %" SCNu64 " %n",
			   &start, &end, perms, &pgoff, &maj, &min, &ino, &pos) < 7 || !pos)
			continue;
		/* perf record synthesizes executable maps only (without --data). */
		if (perms[2] != 'x')
			continue;
		name = line + pos;
		name[strcspn(name, "\n")] = '\0';
		if (!*name)
			name = "//anon";
		else if (strlen(name) > 10 && !strcmp(name + strlen(name) - 10, " (deleted)"))
			name[strlen(name) - 10] = '\0';
		prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
		       PROT_EXEC;
		id.maj = maj;
		id.min = min;
		id.ino = ino;
		ember_machine__process_mmap2(s->machine, PERF_RECORD_MISC_USER, pid, pid, start,
					     end - start, pgoff, prot,
					     perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE, name,
					     ino ? &id : NULL);
	}
	free(line);
	fclose(f);
	return 0;
}

/* Reads pid's maps when never read, or (rate-limited) again when `miss`. */
static int symbolizer__refresh(struct ember_symbolizer *s, pid_t pid, bool miss)
{
	struct pid_state **slot = symbolizer__slot(s, pid), *p = *slot;
	uint64_t now = clock_now_ns();
	int err;

	if (p && (!miss || now - p->read_ns < SYMBOLIZER_REREAD_NS))
		return 0;
	if (!p) {
		p = calloc(1, sizeof(*p));
		if (!p)
			return -ENOMEM;
		p->pid = pid;
		*slot = p;
	}
	err = symbolizer__read_maps(s, pid);
	p->read_ns = now;
	return err;
}

int ember_symbolizer__resolve(struct ember_symbolizer *s, pid_t pid, uint64_t ip,
			      struct ember_addr_location *res)
{
	/* The upper half of the address space is the kernel's (x86-64, arm64, ...). */
	uint8_t cpumode = ip >> 63 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	struct ember_thread *t;
	int err;

	err = symbolizer__refresh(s, pid, false);
	t = machine__findnew_thread(s->machine, pid, pid);
	if (!t)
		return -ENOMEM;
	if (ember_thread__resolve(t, cpumode, ip, res) && cpumode == PERF_RECORD_MISC_USER &&
	    !err) {
		/* Outside every known map: a library loaded since? */
		if (symbolizer__refresh(s, pid, true) == 0)
			ember_thread__resolve(t, cpumode, ip, res);
	}
	if (res->sym)
		return 0;
	if (err == -ESRCH && !res->map)
		return -ESRCH;
	return -ENOENT;
}

void ember_symbolizer__forget(struct ember_symbolizer *s, pid_t pid)
{
	struct pid_state **slot = symbolizer__slot(s, pid), *p = *slot;
	struct ember_thread *t;

	if (p) {
		*slot = p->next;
		free(p);
	}
	t = ember_machine__find_thread(s->machine, pid, pid);
	if (t)
		machine__remove_thread(s->machine, t);
}
