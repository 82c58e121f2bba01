// SPDX-License-Identifier: GPL-2.0-only
/*
 * A stand-in JIT for the collapse fixtures: copies a spin loop into
 * anonymous executable memory three times and names the copies in
 * /tmp/perf-PID.map as a JVM, V8 and Go would, then runs them from two
 * threads called "java" and "V8 WorkerThread" (prctl names), so perf
 * script prints JIT frames, Java signatures and a comm with a space.
 *   jitmap [ROUNDS]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

/* mov ecx, 0x2000000; 1: dec ecx; jnz 1b; ret */
static const unsigned char spin[] = { 0xb9, 0x00, 0x00, 0x00, 0x02, 0xff, 0xc9, 0x75, 0xfc, 0xc3 };

static const char *const names[] = {
	"Lorg/mozilla/javascript/ContextFactory;.call(Lorg/mozilla/javascript/ContextAction;)Ljava/lang/Object;",
	"LazyCompile:~RegExp:[&<>\"'] /app/x.js:1",
	"net/http.(*Client).Do",
};

typedef void (*fn_t)(void);
static fn_t code[3];
static long rounds = 20;

static void *run(void *arg)
{
	const char *comm = arg;

	prctl(PR_SET_NAME, comm);
	for (long r = 0; r < rounds; r++)
		for (int i = 0; i < 3; i++)
			code[i]();
	return NULL;
}

int main(int argc, char **argv)
{
	char path[64];
	unsigned char *mem;
	pthread_t t;
	FILE *map;

	if (argc > 1)
		rounds = atol(argv[1]);
	mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	if (mem == MAP_FAILED)
		return 1;
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", getpid());
	map = fopen(path, "w");
	if (!map)
		return 1;
	for (int i = 0; i < 3; i++) {
		memcpy(mem + 64 * i, spin, sizeof(spin));
		code[i] = (fn_t)(mem + 64 * i);
		fprintf(map, "%lx %zx %s\n", (unsigned long)(mem + 64 * i), sizeof(spin), names[i]);
	}
	fclose(map);
	pthread_create(&t, NULL, run, "V8 WorkerThread");
	run("java");
	pthread_join(t, NULL);
	return 0;
}
