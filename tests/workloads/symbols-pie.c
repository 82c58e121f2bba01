// SPDX-License-Identifier: GPL-2.0-only
/*
 * symbols-pie: a binary with known symbols for the symbol tests.
 *   symbols-pie                 exit 0 (unit tests only read the file)
 *   symbols-pie spin MS         spin in sym_alpha/sym_beta for about MS ms
 *   symbols-pie threads MS      the same in two more threads, named "spinner"
 *   symbols-pie addrs           print "name address" of the known functions,
 *                               then sleep until killed
 *   symbols-pie jit             map an anonymous executable page, describe it
 *                               in /tmp/perf-PID.map, print its address, sleep
 * Symbols: sym_alpha, sym_beta (C functions), sym_zero (assembly, size 0:
 * perf extends it to the next symbol), sym_ifunc (an IFUNC), sym_table (an
 * object), sym_local (a static function).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

volatile unsigned long sym_sink;
const unsigned int sym_table[64] = { 1, 2, 3 };

__attribute__((noinline)) void sym_alpha(void)
{
	for (int i = 0; i < 200000; i++)
		sym_sink += i * 3;
}

__attribute__((noinline)) void sym_beta(void)
{
	for (int i = 0; i < 100000; i++)
		sym_sink += i;
}

__attribute__((noinline)) static void sym_local(void)
{
	sym_sink += sym_table[sym_sink & 63];
}

/* A hand-written function without .size: st_size is 0. */
__asm__(".text\n"
	".globl sym_zero\n"
	".type sym_zero, @function\n"
	"sym_zero:\n"
	"\tnop\n\tnop\n\tnop\n\tnop\n"
	"\tret\n");
void sym_zero(void);

static void (*resolve_sym_ifunc(void))(void)
{
	return sym_beta;
}
void sym_ifunc(void) __attribute__((ifunc("resolve_sym_ifunc")));

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void spin(double ms)
{
	double start = now_ms();

	while (now_ms() - start < ms) {
		sym_alpha();
		sym_beta();
		sym_local();
		sym_zero();
		sym_ifunc();
	}
}

static void *spinner(void *arg)
{
	pthread_setname_np(pthread_self(), "spinner");
	spin(*(double *)arg);
	return NULL;
}

static int threads(double ms)
{
	pthread_t t[2];

	for (int i = 0; i < 2; i++) {
		if (pthread_create(&t[i], NULL, spinner, &ms))
			return 1;
	}
	spin(ms);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}

static int jit(void)
{
	unsigned char *code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char path[64];
	FILE *f;

	if (code == MAP_FAILED)
		return 1;
	memset(code, 0xc3, 4096); /* ret */
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", getpid());
	f = fopen(path, "w");
	if (!f)
		return 1;
	fprintf(f, "%lx 40 jitted_function_one\n", (unsigned long)code + 0x100);
	fprintf(f, "%lx 20 jitted_function_two\n", (unsigned long)code + 0x200);
	fclose(f);
	printf("jit %lx\n", (unsigned long)code);
	fflush(stdout);
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "spin")) {
		spin(atof(argv[2]));
		return 0;
	}
	if (argc > 2 && !strcmp(argv[1], "threads"))
		return threads(atof(argv[2]));
	if (argc > 1 && !strcmp(argv[1], "addrs")) {
		printf("sym_alpha %lx\n", (unsigned long)sym_alpha);
		printf("sym_beta %lx\n", (unsigned long)sym_beta);
		printf("sym_local %lx\n", (unsigned long)sym_local);
		printf("sym_zero %lx\n", (unsigned long)sym_zero);
		printf("main %lx\n", (unsigned long)main);
		printf("printf %lx\n", (unsigned long)printf);
		fflush(stdout);
		for (;;)
			pause();
	}
	if (argc > 1 && !strcmp(argv[1], "jit"))
		return jit();
	return 0;
}
