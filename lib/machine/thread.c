// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <stdlib.h>
#include "machine/thread.h"

struct ember_thread *thread__new(struct ember_machine *machine, pid_t pid, pid_t tid,
				 const char *comm)
{
	struct ember_thread *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->pid = pid;
	t->tid = tid;
	t->ppid = -1;
	t->comm = comm;
	t->machine = machine;
	return t;
}

void thread__free(struct ember_thread *thread)
{
	if (!thread)
		return;
	maps__put(thread->maps);
	free(thread);
}

pid_t ember_thread__pid(const struct ember_thread *thread)
{
	return thread->pid;
}

pid_t ember_thread__tid(const struct ember_thread *thread)
{
	return thread->tid;
}

pid_t ember_thread__ppid(const struct ember_thread *thread)
{
	return thread->ppid;
}

const char *ember_thread__comm(const struct ember_thread *thread)
{
	return thread->comm;
}

bool thread__comm_is_placeholder(const struct ember_thread *thread)
{
	return !thread->comm_set;
}

bool ember_thread__exited(const struct ember_thread *thread)
{
	return thread->exited;
}
