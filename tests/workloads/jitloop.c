// SPDX-License-Identifier: GPL-2.0-only
/*
 * jitloop [MS]: runs for MS milliseconds (default 500) in code it wrote
 * itself, as a JIT does, and describes that code in /tmp/perf-PID.map for
 * the profilers. x86_64 only. Two generated functions:
 *
 *   jit_spin          a counted loop, called from main
 *   jit_call_helper   calls helper() (C, here) through a register
 *
 * so a --call-graph dwarf sample lands in generated code (no CFI: the walk
 * stops there) or in helper() under it (the walk reaches the generated
 * frame, then stops). Built -fomit-frame-pointer by the tests. Exits 2 on
 * another architecture or when no executable anonymous memory is allowed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

typedef void (*jit_fn)(void);

static volatile uint64_t sink;

/* The C function the generated code calls: a short spin. */
__attribute__((noinline)) void helper(void)
{
	for (int i = 0; i < 20000; i++)
		sink += (uint64_t)i * 7;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* mov ecx, 200000; 1: dec ecx; jnz 1b; ret */
static size_t emit_spin(uint8_t *p)
{
	static const uint8_t code[] = { 0xb9, 0x40, 0x0d, 0x03, 0x00, 0xff, 0xc9, 0x75, 0xfc, 0xc3 };

	memcpy(p, code, sizeof(code));
	return sizeof(code);
}

/* sub rsp, 8; mov rax, helper; call rax; add rsp, 8; ret */
static size_t emit_call(uint8_t *p)
{
	uint64_t target = (uint64_t)(uintptr_t)helper;
	size_t n = 0;

	p[n++] = 0x48, p[n++] = 0x83, p[n++] = 0xec, p[n++] = 0x08;
	p[n++] = 0x48, p[n++] = 0xb8;
	memcpy(p + n, &target, 8);
	n += 8;
	p[n++] = 0xff, p[n++] = 0xd0;
	p[n++] = 0x48, p[n++] = 0x83, p[n++] = 0xc4, p[n++] = 0x08;
	p[n++] = 0xc3;
	return n;
}

int main(int argc, char **argv)
{
#if defined(__x86_64__)
	double ms = argc > 1 ? atof(argv[1]) : 500, end;
	uint8_t *code;
	size_t spin_len, call_len;
	char path[64];
	FILE *map;
	jit_fn spin, call;

	code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	if (code == MAP_FAILED) {
		perror("jitloop: mmap");
		return 2;
	}
	spin_len = emit_spin(code + 0x100);
	call_len = emit_call(code + 0x200);
	spin = (jit_fn)(uintptr_t)(code + 0x100);
	call = (jit_fn)(uintptr_t)(code + 0x200);
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	map = fopen(path, "w");
	if (!map) {
		perror("jitloop: /tmp/perf-PID.map");
		return 1;
	}
	fprintf(map, "%lx %zx jit_spin\n%lx %zx jit_call_helper\n", (unsigned long)(uintptr_t)spin,
		spin_len, (unsigned long)(uintptr_t)call, call_len);
	fclose(map);
	for (end = now_ms() + ms; now_ms() < end;) {
		spin();
		call();
	}
	printf("%s\n", path);
	return 0;
#else
	(void)argc, (void)argv;
	fprintf(stderr, "jitloop: x86_64 only\n");
	return 2;
#endif
}
