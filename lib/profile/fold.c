// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The counts map read into a flame graph tree: each key's stacks taken
 * from the stack map, symbolised (the process's maps, read when it was
 * first seen), and named by stackcollapse-perf.pl's rules through
 * lib/collapse: "comm;outer;...;inner;kernel outer_[k];...;leaf_[k]".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <ember/collapse.h>
#include <ember/flame.h>
#include "flame/flame-priv.h"
#include "profile/key.h"
#include "profile/profile-priv.h"
#include "systrace/target.h"
#include "profile.skel.h"

/* 127 user and 127 kernel frames, a root, and the pieces of names holding "->". */
#define FOLD_MAX_FRAMES 512

struct fold {
	struct ember_profile *p;
	struct ember_flame *fl;
	const struct ember_collapse_opts *names;
	char root[64];
	uint32_t frames[FOLD_MAX_FRAMES];
	size_t nr;
	bool pid_gone;
	char buf[4096];
};

/* Each ';'-separated name of buf as a frame of the stack; 0 or -errno. */
static int push_names(struct fold *f, const char *names, size_t len)
{
	size_t start = 0;

	for (size_t i = 0; i <= len; i++) {
		int id;

		if (i < len && names[i] != ';')
			continue;
		if (f->nr == FOLD_MAX_FRAMES)
			return 0;	/* deeper than any stack the kernel hands out */
		/* the kind its "_[k]" says, as ember_flame__read_folded() takes the text */
		id = ember_flame__frame(f->fl, names + start, i - start,
					flame_suffix_kind(names + start, i - start));
		if (id < 0)
			return id;
		f->frames[f->nr++] = id;
		start = i + 1;
	}
	return 0;
}

/* One address of pid, named as perf script prints it and stackcollapse-perf.pl folds it. */
static int push_ip(struct fold *f, pid_t pid, uint64_t ip)
{
	struct ember_addr_location al = { 0 };
	char pc[24];
	long len;
	int err;

	err = ember_symbolizer__resolve(f->p->sym, pid, ip, &al);
	if (err == -ESRCH)
		f->pid_gone = true;
	snprintf(pc, sizeof(pc), "%" PRIx64, ip);
	len = ember_collapse__frame_names(f->names, f->root, pc, al.sym_name ? al.sym_name :
					  "[unknown]", al.dso_name ? al.dso_name : "[unknown]",
					  f->buf, sizeof(f->buf));
	if (len <= 0)
		return 0;	/* a name that gives no frame: perl's "(" rule */
	if ((size_t)len >= sizeof(f->buf))
		len = sizeof(f->buf) - 1;
	return push_names(f, f->buf, len);
}

/* The frames of stack id (in the second map with PROFILE_STACK2), outermost first. 0 or -errno. */
static int push_stack(struct fold *f, const int stacks_fd[2], __s32 id, pid_t pid)
{
	uint64_t ips[PROFILE_MAX_DEPTH];
	int nr, err = 0;

	if (id < 0)
		return 0;
	nr = ember_bpf__stack(stacks_fd[!!(id & PROFILE_STACK2)], id & ~PROFILE_STACK2, ips,
			      PROFILE_MAX_DEPTH);
	if (nr == -ENOENT)
		return 0;	/* not in the map: its frames are unknown */
	if (nr < 0)
		return nr;
	for (int i = nr - 1; i >= 0 && !err; i--)
		err = push_ip(f, pid, ips[i]);
	return err;
}

static int fold_key(struct fold *f, const struct profile_key *key, uint64_t n,
		    const int stacks_fd[2])
{
	char comm[sizeof(key->comm) + 1];
	int err;

	memcpy(comm, key->comm, sizeof(key->comm));
	comm[sizeof(key->comm)] = '\0';
	/* the idle tasks ("swapper/N" in the kernel) are perf's "swapper" */
	if (!key->pid)
		strcpy(comm, "swapper");
	ember_collapse__root_name(f->names, comm, NULL, NULL, f->root, sizeof(f->root));
	f->nr = 0;
	f->pid_gone = false;
	err = push_names(f, f->root, strlen(f->root));
	err = err ?: push_stack(f, stacks_fd, key->user_stack, key->pid);
	err = err ?: push_stack(f, stacks_fd, key->kernel_stack, key->pid);
	return err ?: ember_flame__add(f->fl, f->frames, f->nr, n, n, EMBER_FLAME_AFTER);
}

int profile__fold(struct ember_profile *p, struct ember_flame *fl, bool clear,
		  struct ember_profile_stats *st)
{
	const struct ember_collapse_opts names = { .sz = sizeof(names), .annotate_kernel = true };
	int counts_fd = bpf_map__fd(p->skel->maps.counts);
	int stacks_fd[2] = { bpf_map__fd(p->skel->maps.stack_ids),
			     bpf_map__fd(p->skel->maps.stack_ids2) };
	struct profile_key key, next, *prev = NULL;
	struct fold *f = calloc(1, sizeof(*f));
	int err = 0;

	if (!f)
		return -ENOMEM;
	f->p = p;
	f->fl = fl;
	f->names = &names;
	while (!err && !bpf_map_get_next_key(counts_fd, prev, &next)) {
		uint64_t n;

		key = next;
		prev = &key;
		/*
		 * An interval's read takes each count out as it reads it: a sample
		 * added meanwhile makes the key anew, for the next read.
		 */
		if (clear ? bpf_map_lookup_and_delete_elem(counts_fd, &key, &n)
			  : bpf_map_lookup_elem(counts_fd, &key, &n))
			continue;
		err = fold_key(f, &key, n, stacks_fd);
		st->samples += n;
		st->stacks++;
		st->unknown_pids += f->pid_gone;
	}
	free(f);
	return err;
}
