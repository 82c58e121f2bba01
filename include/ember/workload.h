/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A command started by a profiler, held at the exec until its events are open
 * (perf's "corked" workload): prepare forks a child that waits; start lets
 * it exec. Events opened on the child's pid with enable_on_exec count from
 * its first instruction.
 */
#ifndef EMBER_WORKLOAD_H
#define EMBER_WORKLOAD_H

#include <stdbool.h>
#include <sys/types.h>

#include <ember/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Lives in the caller's memory; __prepare fills it, and it is done with
 * once reaped (__wait, __try_wait, __abort). The caller reads pid and,
 * once reaped, status; the rest is the library's.
 */
struct ember_workload {
	pid_t pid;
	int go_fd;	/* eventfd: a count lets the child exec */
	int hold_fd;	/* write end of a pipe: its hang-up before the go stops the child */
	int err_fd;	/* read end, close-on-exec in the child: EOF means exec succeeded */
	int status;	/* wait status, once reaped */
	bool reaped;
};

/*
 * Fork a child that waits for ember_workload__start() and then execvp()s
 * argv. Returns 0 or -errno.
 */
EMBER_API int ember_workload__prepare(struct ember_workload *wl, const char *const *argv);
/*
 * Let the child exec. Returns 0 once exec succeeded, or the exec's -errno
 * (the child then exits 127, as a shell's would).
 */
EMBER_API int ember_workload__start(struct ember_workload *wl);
/*
 * The same in two steps, for a caller with work to do while the child
 * execs (a recorder whose buffers fill from the exec on): go lets the child
 * exec and returns at once (0 or -errno); exec_result then says how the
 * exec went: 0 it succeeded, the exec's -errno, or 1 not known yet (only
 * with wait false). Until it has answered, err_fd is open and becomes
 * readable when the answer is there.
 */
EMBER_API int ember_workload__go(struct ember_workload *wl);
EMBER_API int ember_workload__exec_result(struct ember_workload *wl, bool wait);
/*
 * Wait for the child; EINTR (a signal for ember) returns -EINTR so the
 * caller can forward it or stop counting. Returns 0 when reaped.
 */
EMBER_API int ember_workload__wait(struct ember_workload *wl);
/*
 * The same without blocking: 1 when the child was reaped now or before
 * (status is set), 0 while it runs, or -errno.
 */
EMBER_API int ember_workload__try_wait(struct ember_workload *wl);
/*
 * Whether the child has exited, without reaping it: a zombie whose
 * /proc entries can still be read. False once reaped.
 */
EMBER_API bool ember_workload__exited(const struct ember_workload *wl);
/* The exit code a shell would report: status, or 128+signal. */
EMBER_API int ember_workload__exit_code(const struct ember_workload *wl);
/* Kill (if running) and reap the child; for error paths. */
EMBER_API void ember_workload__abort(struct ember_workload *wl);

#ifdef __cplusplus
}
#endif

#endif
