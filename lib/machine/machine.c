// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Threads, comms and lookups of the machine model, following perf's
 * machine.c/thread.c: threads keyed by tid, a process's threads sharing
 * the leader's maps, FORK copying a parent's maps into a new process,
 * EXIT only marking the thread.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include "core/hash.h"
#include "core/log.h"
#include "machine/machine.h"

static bool comm_eq(const struct hashtab_slot *slot, const void *key)
{
	uint64_t val = slot->val;
	return !strcmp((const char *)(uintptr_t)val, key);
}

const char *machine__intern(struct ember_machine *m, const char *comm)
{
	uint64_t h = hash_str(comm);
	struct hashtab_slot *s;
	char *copy;

	if (hashtab__reserve(&m->comms, 1))
		return NULL;
	s = hashtab__slot(&m->comms, h, comm_eq, comm);
	if (s->val)
		return (const char *)(uintptr_t)s->val;
	copy = arena__strndup(&m->comm_pool, comm, strlen(comm));
	if (copy)
		hashtab__fill(&m->comms, s, h, (uintptr_t)copy);
	return copy;
}

int machine__set_comm(struct ember_machine *m, struct ember_thread *thread, const char *comm,
		      bool exec)
{
	const char *c = machine__intern(m, comm);

	if (!c)
		return -ENOMEM;
	thread->comm = c;
	thread->comm_set = true;
	thread->comm_exec = exec;
	return 0;
}

struct ember_machine *ember_machine__new(const struct ember_symbol_opts *opts)
{
	struct ember_machine *m = calloc(1, sizeof(*m));

	if (!m)
		goto out_nomem;
	if (dsos__init(&m->dsos, opts))
		goto out_free;
	m->kmaps = maps__new(&m->graveyard);
	if (!m->kmaps || hashtab__reserve(&m->threads, 512))
		goto out_delete;
	return m;

out_delete:
	ember_machine__delete(m);
	goto out_nomem;
out_free:
	free(m);
out_nomem:
	errno = ENOMEM;
	return NULL;
}

void ember_machine__delete(struct ember_machine *m)
{
	struct hashtab_slot *s;

	if (!m)
		return;
	hashtab__for_each(&m->threads, s)
		thread__free((struct ember_thread *)(uintptr_t)s->val);
	for (size_t i = 0; i < m->nr_dead; i++)
		thread__free(m->dead[i]);
	maps__put(m->kmaps);
	map_graveyard__exit(&m->graveyard);
	dsos__exit(&m->dsos);
	arena__exit(&m->comm_pool);
	hashtab__exit(&m->comms);
	free(m->dead);
	hashtab__exit(&m->threads);
	free(m);
}

/* A bijection of the tid: equal hashes are equal tids, the table needs no equality. */
static uint64_t tid__hash(pid_t tid)
{
	return hash_mix64((uint32_t)tid);
}

static struct ember_thread *machine__lookup_tid(struct ember_machine *m, pid_t tid)
{
	struct ember_thread *t = m->last_thread;

	if (t && t->tid == tid)
		return t;
	t = (struct ember_thread *)(uintptr_t)hashtab__get(&m->threads, tid__hash(tid),
							   hashtab__eq_hash, NULL);
	if (t)
		m->last_thread = t;
	return t;
}

void machine__remove_thread(struct ember_machine *m, struct ember_thread *thread)
{
	struct hashtab_slot *s = hashtab__slot(&m->threads, tid__hash(thread->tid),
					       hashtab__eq_hash, NULL);

	if (s->val != (uintptr_t)thread)
		return;
	hashtab__remove(&m->threads, s);
	if (m->last_thread == thread)
		m->last_thread = NULL;
	if (m->nr_dead == m->alloc_dead) {
		size_t alloc = m->alloc_dead ? m->alloc_dead * 2 : 64;
		struct ember_thread **d = realloc(m->dead, alloc * sizeof(*d));

		if (!d)
			return; /* leaked, not freed: callers may still hold it */
		m->dead = d;
		m->alloc_dead = alloc;
	}
	m->dead[m->nr_dead++] = thread;
}



/* perf's machine__update_thread_pid(): a thread first seen with pid -1 joins its process. */
static void machine__update_thread_pid(struct ember_machine *m, struct ember_thread *t, pid_t pid)
{
	struct ember_thread *leader;

	if (pid == t->pid || pid == -1 || t->pid != -1)
		return;
	t->pid = pid;
	if (t->pid == t->tid)
		return;
	leader = machine__findnew_thread(m, pid, pid);
	if (!leader || t->maps == leader->maps)
		return;
	maps__put(t->maps);
	t->maps = maps__get(leader->maps);
}

struct ember_thread *machine__findnew_thread(struct ember_machine *m, pid_t pid, pid_t tid)
{
	struct ember_thread *t = machine__lookup_tid(m, tid);
	char comm[32];

	if (t) {
		machine__update_thread_pid(m, t, pid);
		return t;
	}
	if (hashtab__reserve(&m->threads, 1))
		return NULL;
	snprintf(comm, sizeof(comm), ":%d", tid);
	t = thread__new(m, pid, tid, machine__intern(m, comm));
	if (!t || !t->comm) {
		free(t);
		return NULL;
	}
	/* the reserve made room: no other thread came in meanwhile */
	hashtab__fill(&m->threads, hashtab__slot(&m->threads, tid__hash(tid), hashtab__eq_hash, NULL),
		      tid__hash(tid), (uintptr_t)t);
	m->last_thread = t;

	/* A process leader (or a thread of unknown process) has its own maps... */
	if (pid == tid || pid == -1) {
		t->maps = maps__new(&m->graveyard);
	} else {
		/* ...the other threads share the leader's. */
		struct ember_thread *leader = machine__findnew_thread(m, pid, pid);

		if (leader)
			t->maps = maps__get(leader->maps);
	}
	if (!t->maps) {
		machine__remove_thread(m, t);
		return NULL;
	}
	return t;
}

struct ember_thread *ember_machine__findnew_thread(struct ember_machine *m, pid_t pid, pid_t tid)
{
	struct ember_thread *t = machine__findnew_thread(m, pid, tid);

	if (!t)
		errno = ENOMEM;
	return t;
}

struct ember_thread *ember_machine__find_thread(struct ember_machine *m, pid_t pid, pid_t tid)
{
	struct ember_thread *t = machine__lookup_tid(m, tid);

	if (t)
		machine__update_thread_pid(m, t, pid);
	return t;
}

int ember_machine__process_comm(struct ember_machine *m, uint16_t misc, pid_t pid, pid_t tid,
				const char *comm)
{
	struct ember_thread *t = machine__findnew_thread(m, pid, tid);

	if (!t)
		return -ENOMEM;
	return machine__set_comm(m, t, comm, misc & PERF_RECORD_MISC_COMM_EXEC);
}

int ember_machine__process_fork(struct ember_machine *m, uint16_t misc, pid_t pid, pid_t tid,
				pid_t ppid, pid_t ptid)
{
	struct ember_thread *thread = machine__lookup_tid(m, tid);
	struct ember_thread *parent = machine__findnew_thread(m, ppid, ptid);

	/* A FORK for a tid we know: the old thread is gone, tids get reused. */
	if (thread)
		machine__remove_thread(m, thread);
	/* A "parent" of another process is a stale thread whose FORK/EXIT was lost. */
	if (parent && parent->pid != ppid) {
		machine__remove_thread(m, parent);
		parent = machine__findnew_thread(m, ppid, ptid);
	}
	thread = machine__findnew_thread(m, pid, tid);
	if (!thread || !parent)
		return -ENOMEM;
	if (parent->comm_set) {
		thread->comm = parent->comm;
		thread->comm_set = true;
		thread->comm_exec = false;
	}
	thread->ppid = parent->tid;
	/* A new thread of the same process already shares its maps. */
	if (thread->pid == parent->pid || thread->maps == parent->maps)
		return 0;
	/* perf marks synthesized forks: their mmaps follow, copying would duplicate. */
	if (misc & PERF_RECORD_MISC_FORK_EXEC)
		return 0;
	return maps__clone(thread->maps, parent->maps);
}

int ember_machine__process_exit(struct ember_machine *m, pid_t pid, pid_t tid)
{
	struct ember_thread *t = ember_machine__find_thread(m, pid, tid);

	if (t)
		t->exited = true;
	return 0;
}

/*
 * Lookups in the kernel image wait for machine__resolve_late() while its
 * symbols are being read; once the text is in, they are loaded and used
 * at once (the rest of a long profile folds by symbol again).
 */
static bool kernel_deferred(struct ember_machine *m, const struct ember_dso *dso)
{
	if (!m->dsos.defer_kernel || dso->kind != DSO_KIND_KERNEL || dso->loaded)
		return false;
	if (!dsos__prefetch_done(&m->dsos))
		return true;
	m->dsos.defer_kernel = false;
	return false;
}

/*
 * The kernel's MMAP record ends at _etext, but callchains also run through
 * .init.text and other sections above it (start_kernel under the idle
 * loop). perf reads those through /proc/kcore's map of the whole image;
 * here the kernel map answers for any address one of its symbols covers.
 */
static struct ember_map *kernel_image_map(struct ember_machine *m, uint64_t ip)
{
	struct ember_map *kmap = m->kernel_map;

	if (!kmap || ip < kmap->start)
		return NULL;
	/* symbols deferred: the kernel map for now, machine__resolve_late() decides */
	if (kernel_deferred(m, kmap->dso))
		return kmap;
	if (dso__load(kmap->dso) < 0)
		return NULL;
	return dso__find_symbol(kmap->dso, ip) ? kmap : NULL;
}

int machine__defer_kernel_symbols(struct ember_machine *m)
{
	int err = dsos__prefetch_kallsyms(&m->dsos);

	if (!err)
		m->dsos.defer_kernel = true;
	return err;
}

void machine__resolve_late(struct ember_machine *m, struct ember_addr_location *al)
{
	struct ember_map *kmap = m->kernel_map;

	if (!al->dso || al->sym || al->dso->kind != DSO_KIND_KERNEL || !kmap || al->dso != kmap->dso)
		return;
	m->dsos.defer_kernel = false;
	al->map = kmap;
	al->sym = dso__find_symbol(kmap->dso, al->addr);
	if (al->sym) {
		al->sym_name = symbol__name(al->sym);
		al->sym_off = al->addr - al->sym->start;
		return;
	}
	/* past the kernel's map and no symbol there: no map after all (kernel_image_map()) */
	if (al->ip >= kmap->end) {
		al->map = NULL;
		al->dso = NULL;
		al->dso_name = al->dso_short_name = NULL;
		al->addr = al->ip;
	}
}

int ember_thread__resolve(struct ember_thread *thread, uint8_t cpumode, uint64_t ip,
			  struct ember_addr_location *al)
{
	struct maps *maps;
	struct ember_map *map;

	al->thread = thread;
	al->comm = thread->comm;
	al->ip = ip;
	al->addr = ip;
	al->cpumode = cpumode;
	al->map = NULL;
	al->dso = NULL;
	al->sym = NULL;
	al->dso_name = al->dso_short_name = al->sym_name = NULL;
	al->sym_off = 0;
	al->inlined = false;
	al->srcline = NULL;

	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL:
		al->level = 'k';
		maps = machine__kernel_maps(thread->machine);
		break;
	case PERF_RECORD_MISC_USER:
		al->level = '.';
		maps = thread->maps;
		break;
	case PERF_RECORD_MISC_CPUMODE_UNKNOWN:
		/* perf's thread__find_cpumode_addr_location(): the first mode with a map. */
		if (!ember_thread__resolve(thread, PERF_RECORD_MISC_KERNEL, ip, al) ||
		    !ember_thread__resolve(thread, PERF_RECORD_MISC_USER, ip, al))
			return 0;
		return ember_thread__resolve(thread, PERF_RECORD_MISC_GUEST_USER, ip, al);
	default:
		/* Guest and hypervisor samples: perf report without --guest maps none. */
		al->level = 'H';
		return -ENOENT;
	}
	map = maps ? maps__find(maps, ip) : NULL;
	if (!map && cpumode == PERF_RECORD_MISC_KERNEL)
		map = kernel_image_map(thread->machine, ip);
	if (!map)
		return -ENOENT;
	al->map = map;
	al->dso = map->dso;
	al->dso_name = map->dso->name;
	al->dso_short_name = map->dso->short_name;
	al->addr = map__map_ip(map, ip);
	if (kernel_deferred(thread->machine, map->dso))
		return 0;
	al->sym = dso__find_symbol(map->dso, al->addr);
	if (al->sym) {
		al->sym_name = symbol__name(al->sym);
		al->sym_off = al->addr - al->sym->start;
	}
	return 0;
}

uint64_t ember_thread__maps_gen(const struct ember_thread *thread)
{
	const struct maps *k = thread->machine->kmaps;

	/*
	 * Generations come from one counter per machine: the pair is unique
	 * while under 2^32. The low half is the kernel's alone: the flame
	 * collapse keys kernel addresses by it (lib/flame/sample-fold.c ip_gen()).
	 */
	return (thread->maps ? thread->maps->gen : 0) << 32 ^ (k ? k->gen : 0);
}

int ember_machine__resolve(struct ember_machine *m, pid_t pid, pid_t tid, uint8_t cpumode,
			   uint64_t ip, struct ember_addr_location *al)
{
	struct ember_thread *t = machine__findnew_thread(m, pid, tid);

	if (!t)
		return -ENOMEM;
	ember_thread__resolve(t, cpumode, ip, al);
	return 0;
}

int ember_callchain__context(uint64_t ip, uint8_t *cpumode)
{
	if (ip < PERF_CONTEXT_MAX)
		return 0;
	switch (ip) {
	case PERF_CONTEXT_HV:
		*cpumode = PERF_RECORD_MISC_HYPERVISOR;
		return 1;
	case PERF_CONTEXT_KERNEL:
		*cpumode = PERF_RECORD_MISC_KERNEL;
		return 1;
	case PERF_CONTEXT_USER:
		*cpumode = PERF_RECORD_MISC_USER;
		return 1;
	case PERF_CONTEXT_GUEST_KERNEL:
		*cpumode = PERF_RECORD_MISC_GUEST_KERNEL;
		return 1;
	case PERF_CONTEXT_GUEST_USER:
		*cpumode = PERF_RECORD_MISC_GUEST_USER;
		return 1;
	case PERF_CONTEXT_GUEST:
		return 1;
	default:
		return -EINVAL;
	}
}
