// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Syscall tracing in the kernel: raw_syscalls:sys_enter and sys_exit,
 * filtered here by target (every task, processes and their children, or
 * threads) and by syscall, each kept call sent through one ring buffer.
 * The string arguments user space marks (file names, paths) are read from
 * the caller's memory at entry, while they are there.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "systrace/target.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set by user space before the load. */
const volatile __u32 want_stack = 0;		/* exits carry the user stack */
/* Exits carry the user registers and this many bytes of user stack (--call-graph dwarf). */
const volatile __u32 ustack_size = 0;
/* Wake the consumer only once this much waits (it polls on a timer too): batches, not events. */
const volatile __u64 wakeup_bytes = 0;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4 << 20);
} events SEC(".maps");

/*
 * tid -> an entry held back because a string argument could not be read
 * yet (its page not in memory): sent at the exit, the string read again
 * then, once the syscall itself has faulted it in.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct systrace_event_strs);
} deferred SEC(".maps");

/* Events the full ring buffer refused, per cpu. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

static __always_inline __u64 wakeup(void)
{
	if (!wakeup_bytes)
		return 0;
	return bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) >= wakeup_bytes ?
		       BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

static __always_inline void count_lost(void)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&lost, &zero);

	if (n)
		(*n)++;
}

/* Room in the ring buffer for size bytes, or NULL (counted lost). */
static __always_inline void *reserve(__u64 size)
{
	void *e = bpf_ringbuf_reserve(&events, size, 0);

	if (!e)
		count_lost();
	return e;
}

static __always_inline void fill(struct systrace_event *e, __u64 pid_tgid, long nr, __u16 kind)
{
	e->time = bpf_ktime_get_ns();
	e->pid = pid_tgid >> 32;
	e->tid = (__u32)pid_tgid;
	e->nr = nr;
	e->kind = kind;
	e->str_args = 0;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
}

static __always_inline __u16 kind_bits(__u32 flags)
{
	return flags & SYSTRACE_UNCHOSEN_CALL ? SYSTRACE_UNCHOSEN : 0;
}

static __always_inline void copy_args(struct systrace_event *e, const struct sys_enter_args *ctx)
{
#pragma unroll
	for (int i = 0; i < SYSTRACE_NR_ARGS; i++)
		e->args[i] = ctx->args[i];
}

/*
 * Read the marked string arguments, in argument order, into e->str[].
 * Returns whether every one could be read.
 */
static __always_inline int read_strings(struct systrace_event_strs *e, __u32 flags)
{
	int k = 0, all = 1;

	e->ev.str_args = 0;
#pragma unroll
	for (int i = 0; i < SYSTRACE_NR_ARGS; i++) {
		char *dst;

		if (!(flags & SYSTRACE_STR_ARG(i)) || k >= SYSTRACE_NR_STRS)
			continue;
		dst = k ? e->str[1] : e->str[0];
		if (bpf_probe_read_user_str(dst, SYSTRACE_STR_LEN, (const void *)e->ev.args[i]) > 0)
			e->ev.str_args |= 1u << i;
		else
			all = 0;
		k++;
	}
	return all;
}

SEC("tp/raw_syscalls/sys_enter")
int sys_enter(struct sys_enter_args *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 nr = ctx->id, *flags;

	if (ctx->id < 0 || ctx->id >= SYSTRACE_MAX_SYSCALLS || !followed(pid_tgid))
		return 0;
	flags = bpf_map_lookup_elem(&syscalls, &nr);
	if (!flags || !(*flags & SYSTRACE_TRACED))
		return 0;
	if (*flags & ~(SYSTRACE_TRACED | SYSTRACE_UNCHOSEN_CALL)) {
		struct systrace_event_strs *e = reserve(sizeof(*e));

		if (!e)
			return 0;
		fill(&e->ev, pid_tgid, nr, SYSTRACE_ENTER | kind_bits(*flags));
		copy_args(&e->ev, ctx);
		if (read_strings(e, *flags)) {
			bpf_ringbuf_submit(e, wakeup());
		} else {
			__u32 tid = (__u32)pid_tgid;

			/* held back for the exit; sent now if there is no room to hold it */
			if (bpf_map_update_elem(&deferred, &tid, e, BPF_ANY))
				bpf_ringbuf_submit(e, wakeup());
			else
				bpf_ringbuf_discard(e, 0);
		}
	} else {
		struct systrace_event *e = reserve(sizeof(*e));

		if (!e)
			return 0;
		fill(e, pid_tgid, nr, SYSTRACE_ENTER | kind_bits(*flags));
		copy_args(e, ctx);
		bpf_ringbuf_submit(e, wakeup());
	}
	return 0;
}

/* An entry held back (see deferred): its strings read again, sent before its exit. */
static __always_inline void send_deferred(__u64 pid_tgid, __u32 nr, __u32 flags)
{
	__u32 tid = (__u32)pid_tgid;
	struct systrace_event_strs *held = bpf_map_lookup_elem(&deferred, &tid);

	if (!held)
		return;
	if (held->ev.nr == (__s32)nr) {
		read_strings(held, flags);
		if (bpf_ringbuf_output(&events, held, sizeof(*held), wakeup()))
			count_lost();
	}
	bpf_map_delete_elem(&deferred, &tid);
}

/* The user registers a syscall saved: x86_64's struct pt_regs, the ABI layout. */
struct x86_64_user_regs {
	__u64 r15, r14, r13, r12, bp, bx, r11, r10, r9, r8;
	__u64 ax, cx, dx, si, di, orig_ax, ip, cs, flags, sp, ss;
};

struct task_struct;

#define PAGE 4096

/* The copy's last page read apart: a failed read zeroes where it was to go. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u8[PAGE]);
} last_page SEC(".maps");

/*
 * ustack_size bytes from sp when the whole copy could not be read at
 * once, page by page: a page that cannot be read is one never touched
 * (the gap exec leaves under the arguments, a deep frame's room never
 * written: the nofault read does not bring it in) or one past the
 * stack's end. It is left as zeros (a failed read zeroes its
 * destination), what the kernel's copy for perf reads in the first case,
 * and the copy's valid bytes end at the last page that could be read,
 * where the kernel's copy stops in the second.
 * Returns those bytes. Each read's place and length are bounded by the
 * constant ustack_size, as the verifier needs.
 */
static __always_inline __u64 copy_stack_pages(__u8 *stack, __u64 sp)
{
	__u64 valid, off, first = PAGE - (sp & (PAGE - 1));
	__u32 zero = 0;
	__u8 *last;

	if (first > ustack_size)
		first = ustack_size;
	if (bpf_probe_read_user(stack, first, (void *)sp))
		return 0;
	valid = off = first;
#pragma unroll
	for (int i = 0; i < SYSTRACE_MAX_USTACK / PAGE; i++) {
		if (ustack_size < PAGE || off > ustack_size - PAGE)
			break;
		if (!bpf_probe_read_user(stack + off, PAGE, (void *)(sp + off)))
			valid = off + PAGE;
		off += PAGE;
	}
	/*
	 * the last part of a page: the copy's last PAGE bytes read again, whole,
	 * aside first (a failure there must not zero what was read)
	 */
	if (off >= ustack_size || ustack_size < PAGE || !(last = bpf_map_lookup_elem(&last_page, &zero)))
		return valid;
	if (!bpf_probe_read_user(last, PAGE, (void *)(sp + ustack_size - PAGE)) &&
	    !bpf_probe_read_kernel(stack + ustack_size - PAGE, PAGE, last))
		valid = ustack_size;
	return valid;
}

/*
 * The caller's registers, in perf's order (SYSTRACE_REGS_MASK), and
 * ustack_size bytes of its stack from sp, or as much as can be read.
 */
static __always_inline void copy_user_state(struct systrace_event_ustack *es)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct x86_64_user_regs r;

	es->size = 0;
	if (bpf_probe_read_kernel(&r, sizeof(r), (void *)bpf_task_pt_regs(task))) {
		__builtin_memset(es->regs, 0, sizeof(es->regs));
		return;
	}
	es->regs[0] = r.ax;	es->regs[1] = r.bx;	es->regs[2] = r.cx;
	es->regs[3] = r.dx;	es->regs[4] = r.si;	es->regs[5] = r.di;
	es->regs[6] = r.bp;	es->regs[7] = r.sp;	es->regs[8] = r.ip;
	es->regs[9] = r.flags;	es->regs[10] = r.cs;	es->regs[11] = r.ss;
	es->regs[12] = r.r8;	es->regs[13] = r.r9;	es->regs[14] = r.r10;
	es->regs[15] = r.r11;	es->regs[16] = r.r12;	es->regs[17] = r.r13;
	es->regs[18] = r.r14;	es->regs[19] = r.r15;
	if (!bpf_probe_read_user(es->stack, ustack_size, (void *)r.sp))
		es->size = ustack_size;
	else	/* past the stack's end, or a page never touched in it */
		es->size = copy_stack_pages(es->stack, r.sp);
}

SEC("tp/raw_syscalls/sys_exit")
int sys_exit(struct sys_exit_args *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 nr = ctx->id, *flags;
	struct systrace_event *e;

	if (ctx->id < 0 || ctx->id >= SYSTRACE_MAX_SYSCALLS || !followed(pid_tgid))
		return 0;
	flags = bpf_map_lookup_elem(&syscalls, &nr);
	if (!flags || !(*flags & SYSTRACE_TRACED))
		return 0;
	if (*flags & ~(SYSTRACE_TRACED | SYSTRACE_UNCHOSEN_CALL))
		send_deferred(pid_tgid, nr, *flags);
	if (ustack_size && !(*flags & SYSTRACE_UNCHOSEN_CALL)) {
		struct systrace_event_ustack *es = reserve(sizeof(*es) + ustack_size);

		if (!es)
			return 0;
		fill(&es->ev, pid_tgid, nr, SYSTRACE_EXIT | SYSTRACE_WITH_USTACK);
		es->ev.ret = ctx->ret;
		copy_user_state(es);
		bpf_ringbuf_submit(es, wakeup());
		return 0;
	}
	if (want_stack && !(*flags & SYSTRACE_UNCHOSEN_CALL)) {
		struct systrace_event_stack *es = reserve(sizeof(*es));
		long n;

		if (!es)
			return 0;
		fill(&es->ev, pid_tgid, nr, SYSTRACE_EXIT);
		es->ev.ret = ctx->ret;
		n = bpf_get_stack(ctx, es->frames, sizeof(es->frames),
				  BPF_F_USER_STACK | BPF_F_USER_BUILD_ID);
		es->nr_frames = n > 0 ? n / sizeof(es->frames[0]) : 0;
		es->pad = 0;
		bpf_ringbuf_submit(es, wakeup());
		return 0;
	}
	e = reserve(sizeof(*e));
	if (!e)
		return 0;
	fill(e, pid_tgid, nr, SYSTRACE_EXIT | kind_bits(*flags));
	e->ret = ctx->ret;
	bpf_ringbuf_submit(e, wakeup());
	return 0;
}

/* A command held before its exec is followed from its exec on, as perf's enable_on_exec. */
SEC("tp/sched/sched_process_exec")
int on_exec(void *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct systrace_event *e;

	follow_exec(pid_tgid);
	/* the new name, in order with the calls: lines printed from now on carry it */
	if (!followed(pid_tgid))
		return 0;
	e = reserve(sizeof(*e));
	if (!e)
		return 0;
	fill(e, pid_tgid, -1, SYSTRACE_COMM);
	bpf_ringbuf_submit(e, wakeup());
	return 0;
}

/*
 * Any tracepoint the user named (-e sys:name): its record copied whole (the
 * first SYSTRACE_TP_RAW bytes: dynamic strings follow the fixed fields),
 * the cookie saying which one it is. Attached by user space, one link each.
 */
SEC("tp")
int on_tracepoint(void *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct systrace_tp_event *e;

	if (!followed(pid_tgid))
		return 0;
	e = reserve(sizeof(*e));
	if (!e)
		return 0;
	e->time = bpf_ktime_get_ns();
	e->pid = pid_tgid >> 32;
	e->tid = (__u32)pid_tgid;
	e->index = (__s32)bpf_get_attach_cookie(ctx);
	e->kind = SYSTRACE_TRACEPOINT;
	e->pad = 0;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	if (bpf_probe_read_kernel(e->raw, sizeof(e->raw), ctx))
		__builtin_memset(e->raw, 0, sizeof(e->raw));
	bpf_ringbuf_submit(e, wakeup());
	return 0;
}
