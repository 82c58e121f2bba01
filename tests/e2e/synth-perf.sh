# SPDX-License-Identifier: GPL-2.0-only
# lib/synth against perf 6.1: the records perf record synthesizes at start
# (COMM, FORK, MMAP2 for tasks; MMAP for the kernel) are compared, decoded
# as `perf report -D` prints them and with their sizes, with the records
# lib/synth builds for the same tasks. -p on `sleep` and on a threaded
# program with anonymous and shared exec maps; -a for the kernel and for
# the processes alive across both runs.
. "$(dirname "$0")/../lib/e2e.sh"

if ! have_perf; then
	skip setup "perf not installed"
	exit 0
fi
if ! is_root; then
	skip setup "needs root to record other processes and read kallsyms"
	exit 0
fi
if [ ! -f "$BUILD/libember.a" ]; then
	skip setup "no $BUILD/libember.a; build first"
	exit 0
fi

# A dumper printing lib/synth's records the way perf report -D decodes them.
cat >"$TMP/synth-dump.c" <<'EOF'
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "synth/synth-int.h"

static int print_rec(void *ctx, const struct perf_event_header *h)
{
	const struct synth_mmap2 *m2 = (const void *)h;
	const struct synth_mmap *m = (const void *)h;
	const struct synth_comm *c = (const void *)h;
	const struct synth_fork *f = (const void *)h;

	printf("[%#x]: ", h->size);
	switch (h->type) {
	case PERF_RECORD_COMM:
		printf("PERF_RECORD_COMM: %s:%d/%d\n", c->comm, c->pid, c->tid);
		break;
	case PERF_RECORD_FORK:
		printf("PERF_RECORD_FORK(%d:%d):(%d:%d)\n", f->pid, f->tid, f->ppid, f->ptid);
		break;
	case PERF_RECORD_MMAP:
		printf("PERF_RECORD_MMAP %d/%d: [%#llx(%#llx) @ %#llx]: %c %s\n", m->pid, m->tid,
		       (unsigned long long)m->start, (unsigned long long)m->len,
		       (unsigned long long)m->pgoff,
		       h->misc & PERF_RECORD_MISC_MMAP_DATA ? 'r' : 'x', m->filename);
		break;
	case PERF_RECORD_MMAP2:
		printf("PERF_RECORD_MMAP2 %d/%d: [%#llx(%#llx) @ %#llx %02x:%02x %llu %llu]: "
		       "%c%c%c%c %s\n", m2->pid, m2->tid, (unsigned long long)m2->start,
		       (unsigned long long)m2->len, (unsigned long long)m2->pgoff, m2->maj,
		       m2->min, (unsigned long long)m2->ino,
		       (unsigned long long)m2->ino_generation,
		       m2->prot & PROT_READ ? 'r' : '-', m2->prot & PROT_WRITE ? 'w' : '-',
		       m2->prot & PROT_EXEC ? 'x' : '-', m2->flags & MAP_SHARED ? 's' : 'p',
		       m2->filename);
		break;
	default:
		printf("type %u\n", h->type);
	}
	return 0;
}

/* "IP|TID|TIME|PERIOD" as perf evlist -v prints sample_type. */
static unsigned long long sample_type(const char *s)
{
	static const struct { const char *n; unsigned long long b; } bits[] = {
		{ "IP", PERF_SAMPLE_IP }, { "TID", PERF_SAMPLE_TID },
		{ "TIME", PERF_SAMPLE_TIME }, { "ADDR", PERF_SAMPLE_ADDR },
		{ "ID", PERF_SAMPLE_ID }, { "CPU", PERF_SAMPLE_CPU },
		{ "PERIOD", PERF_SAMPLE_PERIOD }, { "STREAM_ID", PERF_SAMPLE_STREAM_ID },
		{ "IDENTIFIER", PERF_SAMPLE_IDENTIFIER },
	};
	unsigned long long t = 0;
	char buf[256], *tok, *save;

	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, "|", &save); tok; tok = strtok_r(NULL, "|", &save))
		for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
			if (!strcmp(tok, bits[i].n))
				t |= bits[i].b;
	return t;
}

/* synth-dump SAMPLE_TYPE -p PID | -a */
int main(int argc, char **argv)
{
	struct ember_synth s;
	struct ember_synth_opts o = { .emit = print_rec, .sample_id_all = true };
	int err;

	if (argc < 3)
		return 2;
	o.sample_type = sample_type(argv[1]);
	if (ember_synth__init(&s, &o))
		return 1;
	if (!strcmp(argv[2], "-a")) {
		err = ember_synth__kernel(&s);
		if (!err)
			err = ember_synth__all_processes(&s);
	} else {
		pid_t tids[4096];
		int nr = 0;
		char path[64];
		struct dirent *d;
		DIR *dir;

		snprintf(path, sizeof(path), "/proc/%s/task", argv[3]);
		dir = opendir(path);
		if (!dir)
			return 1;
		/* perf's thread map for -p: the tids in directory order. */
		while ((d = readdir(dir)) && nr < 4096)
			if (d->d_name[0] != '.')
				tids[nr++] = atoi(d->d_name);
		closedir(dir);
		err = ember_synth__threads(&s, tids, nr);
	}
	fprintf(stderr, "comm %llu fork %llu mmap %llu mmap2 %llu vanished %llu\n",
		(unsigned long long)s.counts.comm, (unsigned long long)s.counts.fork,
		(unsigned long long)s.counts.mmap, (unsigned long long)s.counts.mmap2,
		(unsigned long long)s.counts.vanished);
	ember_synth__exit(&s);
	return err ? 1 : 0;
}
EOF

# A threaded program with named threads, an anonymous rwx map and a shared exec map.
cat >"$TMP/mt.c" <<'EOF'
#include <pthread.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>

static void *worker(void *name)
{
	prctl(PR_SET_NAME, (unsigned long)name);
	pause();
	return NULL;
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, worker, "worker1");
	pthread_create(&t, NULL, worker, "worker-two");
	mmap(NULL, 8192, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	mmap(NULL, 8192, PROT_READ | PROT_EXEC, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	write(1, "ready\n", 6);
	pause();
	return 0;
}
EOF

if ! cc -I"$TOP/include" -I"$TOP/lib" -D_GNU_SOURCE -o "$TMP/synth-dump" "$TMP/synth-dump.c" \
	"$BUILD/libember.a" 2>"$TMP/cc.err"; then
	fail build-dumper "$(head -5 "$TMP/cc.err")"
	exit 0
fi
pass build-dumper
cc -o "$TMP/mt" "$TMP/mt.c" -lpthread || { fail build-mt; exit 0; }

# The synthesized records perf wrote (those before FINISHED_INIT), as "[size]: decoded".
HDR='s/^[0-9 ]*0x[0-9a-f]* \(\[0x[0-9a-f]*\]: PERF_RECORD_\)/\1/p'
perf_synth_all() { # DATA
	$PERF report -D -i "$1" 2>/dev/null | sed -n "/PERF_RECORD_FINISHED_INIT/q; $HDR"
}
perf_synth() { # DATA
	perf_synth_all "$1" | grep -E '^\[0x[0-9a-f]+\]: PERF_RECORD_(COMM|FORK|MMAP2?)[ :(]'
}

sample_type_of() { # DATA
	$PERF evlist -v -i "$1" 2>/dev/null | head -1 | sed -n 's/.*sample_type: \([A-Z_|]*\).*/\1/p'
}

# Records of task PID: COMM/FORK/MMAP2 lines naming it as pid.
of_pid() { # PID
	grep -E "(PERF_RECORD_COMM: .*:$1/[0-9]+|PERF_RECORD_FORK\($1:|PERF_RECORD_MMAP2 $1/)" || true
}

compare_p() { # NAME PID
	local name=$1 pid=$2 st
	$PERF record -p "$pid" -o "$TMP/$name.data" -- sleep 0.3 >/dev/null 2>&1
	st=$(sample_type_of "$TMP/$name.data")
	perf_synth "$TMP/$name.data" | of_pid "$pid" | sort >"$TMP/$name.perf"
	"$TMP/synth-dump" "$st" -p "$pid" 2>/dev/null | of_pid "$pid" | sort >"$TMP/$name.ember"
	if [ ! -s "$TMP/$name.perf" ]; then
		fail "$name" "perf wrote no synthesized records for pid $pid"
	elif diff "$TMP/$name.perf" "$TMP/$name.ember" >"$TMP/$name.diff"; then
		pass "$name"
	else
		fail "$name" "records differ (< perf, > ember):"
		head -20 "$TMP/$name.diff" | sed 's/^/     /'
	fi
}

# 1. -p on sleep: one COMM and the exec MMAP2s (binary, libc, ld.so, vdso, vsyscall).
sleep 5 &
SLEEP=$!
sleep 0.1
compare_p p-sleep "$SLEEP"
expect_eq p-sleep-has-mmap2 "$(grep -c 'MMAP2 .* r-xp /.*sleep$' "$TMP/p-sleep.ember")" 1

# 2. -p on a threaded program: a COMM per thread, //anon and shared maps.
"$TMP/mt" >"$TMP/mt.out" &
MT=$!
for _ in $(seq 50); do [ -s "$TMP/mt.out" ] && break; sleep 0.05; done
compare_p p-threads "$MT"
expect_eq p-threads-comms "$(grep -c 'PERF_RECORD_COMM' "$TMP/p-threads.ember")" 3
expect_eq p-threads-anon "$(grep -c 'rwxp //anon$' "$TMP/p-threads.ember")" 1
expect_eq p-threads-shared "$(grep -c 'r-xs /dev/zero (deleted)$' "$TMP/p-threads.ember")" 1

# 3. -a: the kernel MMAP exactly; FORK/COMM/MMAP2 of processes alive across both runs
# whose maps did not change in between (other work on the machine maps libraries).
maps_sums() { for m in /proc/[0-9]*/maps; do echo "$m $(md5sum <"$m" 2>/dev/null)"; done; }
maps_sums >"$TMP/maps.before"
$PERF record -a -o "$TMP/a.data" -- sleep 0.2 >/dev/null 2>&1
ST=$(sample_type_of "$TMP/a.data")
perf_synth_all "$TMP/a.data" >"$TMP/a.perf"
"$TMP/synth-dump" "$ST" -a >"$TMP/a.ember" 2>"$TMP/a.counts"
maps_sums >"$TMP/maps.after"
changed=" $(diff "$TMP/maps.before" "$TMP/maps.after" | sed -n 's|^[<>] /proc/\([0-9]*\)/maps .*|\1|p' | sort -u | tr '\n' ' ')"
echo "     ember: $(cat "$TMP/a.counts")"
expect_eq a-kernel-mmap "$(grep 'PERF_RECORD_MMAP -1/0' "$TMP/a.ember")" \
	"$(grep 'PERF_RECORD_MMAP -1/0' "$TMP/a.perf")"

# Stable tasks: in both outputs and still alive; kworker names change with their work.
fork_tids() { grep -o 'PERF_RECORD_FORK([0-9]*:[0-9]*)' "$1" | tr -c '0-9:\n' ' ' | tr -d ' '; }
sort -u <(fork_tids "$TMP/a.perf") >"$TMP/tids.perf"
sort -u <(fork_tids "$TMP/a.ember") >"$TMP/tids.ember"
comm -12 "$TMP/tids.perf" "$TMP/tids.ember" >"$TMP/tids.both"
# Keep the lines of PID whose task (pid:tid) is in both outputs.
of_stable() { # PID
	of_pid "$1" | grep -v 'PERF_RECORD_COMM: kworker' |
		awk -v both="$TMP/tids.both" '
			BEGIN { while ((getline t < both) > 0) ok[t] = 1 }
			/PERF_RECORD_FORK\(/ { t = $0; sub(/.*FORK\(/, "", t); sub(/\).*/, "", t) }
			/PERF_RECORD_COMM: / { t = $NF; sub(/.*:/, "", t); sub(/\//, ":", t) }
			/PERF_RECORD_MMAP2 / { t = $3; sub(/:$/, "", t); sub(/\//, ":", t) }
			ok[t] { print }' | sort
}
total=0
bad=0
for pid in $(cut -d: -f1 "$TMP/tids.both" | sort -un); do
	[ -d "/proc/$pid" ] || continue
	case "$changed" in *" $pid "*) continue ;; esac
	case "$(cat "/proc/$pid/comm" 2>/dev/null)" in kworker*|"") continue ;; esac
	total=$((total + 1))
	of_stable "$pid" <"$TMP/a.perf" >"$TMP/one.perf"
	of_stable "$pid" <"$TMP/a.ember" >"$TMP/one.ember"
	if ! diff -q "$TMP/one.perf" "$TMP/one.ember" >/dev/null; then
		bad=$((bad + 1))
		[ $bad -le 3 ] && diff "$TMP/one.perf" "$TMP/one.ember" | head -6 | sed 's/^/     /'
	fi
done
if [ "$total" -lt 5 ]; then
	fail a-processes "only $total stable processes to compare"
else
	expect_eq a-processes "$bad of $total processes differ" "0 of $total processes differ"
fi
# Kernel threads get FORK and COMM only, as perf: kthreadd (pid 2) has no MMAP2.
expect_eq a-kthreadd-no-mmap "$(grep -c 'PERF_RECORD_MMAP2 2/' "$TMP/a.ember")" 0
expect_eq a-kthreadd-fork "$(grep -c ': PERF_RECORD_FORK(2:2):(0:0)$' "$TMP/a.ember")" 1

kill "$SLEEP" "$MT" 2>/dev/null
wait 2>/dev/null
exit 0
