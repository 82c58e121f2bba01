// SPDX-License-Identifier: GPL-2.0-only
/*
 * objcode ROUNDS: runs code whose symbol is typed STT_OBJECT (a data
 * symbol in .text, as a JIT's or an assembler's blob may be), ROUNDS
 * times. perf report prints such a symbol as "name+0xOFFSET" (the offset
 * from its entry's ip) where a function gets its name alone.
 */
#include <stdlib.h>

static volatile unsigned long sink;

/* called from the blob: its samples' callchains go through the blob */
__attribute__((noinline, used)) void objcode_hot(void)
{
	for (int i = 0; i < 100000; i++)
		sink += i;
}

#if defined(__x86_64__)
/* a frame of its own, so frame-pointer callchains of objcode_hot hold the return into it */
__asm__(".pushsection .text\n"
	".globl objcode_blob\n"
	".type objcode_blob, @object\n"
	"objcode_blob:\n"
	"	pushq %rbp\n"
	"	movq %rsp, %rbp\n"
	"	call objcode_hot\n"
	"	movl $200000, %ecx\n"
	"1:	decl %ecx\n"
	"	jnz 1b\n"
	"	popq %rbp\n"
	"	ret\n"
	".size objcode_blob, . - objcode_blob\n"
	/* only ever in the callchains (perf's children entries): a right offset */
	".globl objcode_tramp\n"
	".type objcode_tramp, @object\n"
	"objcode_tramp:\n"
	"	pushq %rbp\n"
	"	movq %rsp, %rbp\n"
	"	call objcode_blob\n"
	"	popq %rbp\n"
	"	ret\n"
	".size objcode_tramp, . - objcode_tramp\n"
	".popsection\n");
void objcode_tramp(void);
#else
/* elsewhere functions: the suite that needs the objects skips */
__attribute__((noinline)) static void objcode_blob(void)
{
	objcode_hot();
	for (int i = 0; i < 200000; i++)
		sink += i;
}

__attribute__((noinline)) static void objcode_tramp(void)
{
	objcode_blob();
	__asm__ volatile("" ::: "memory");
}
#endif

__attribute__((noinline)) static void run_blob(void)
{
	objcode_tramp();
	__asm__ volatile("" ::: "memory");	/* not a tail call: run_blob stays in the chain */
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 1000;

	for (long r = 0; r < rounds; r++)
		run_blob();
	return 0;
}
