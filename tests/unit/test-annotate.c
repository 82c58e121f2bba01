// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/annotate's pure parts: capstone's text written as objdump -d writes
 * it (the cases met comparing with perf annotate), the per-symbol
 * address histograms, and the kernel's code read from a core file as
 * from /proc/kcore.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>
#include <ember/annotate.h>
#include "annotate/insn-text.h"
#include "annotate/kernel-code.h"
#include "symbol/dso.h"
#include "test.h"

static const char *att(const char *mnemonic, const char *base, const char *ops,
		       unsigned int imm_size, bool branch_or_stack, bool zero_disp)
{
	static char buf[256];
	struct insn_text_in in = {
		.mnemonic = mnemonic, .base = base, .ops = ops, .imm_size = imm_size,
		.branch_or_stack = branch_or_stack, .zero_disp = zero_disp,
	};

	insn_text__format(buf, sizeof(buf), &in);
	return buf;
}

static const char *intel(const char *mnemonic, const char *ops, unsigned int imm_size,
			 bool zero_disp)
{
	static char buf[256];
	struct insn_text_in in = {
		.mnemonic = mnemonic, .base = mnemonic, .ops = ops, .imm_size = imm_size,
		.intel = true, .zero_disp = zero_disp,
	};

	insn_text__format(buf, sizeof(buf), &in);
	return buf;
}

TEST(annotate_text_att)
{
	/* suffixes: dropped where a general register gives the size */
	CHECK_STR(att("movl", "mov", "$0, %eax", 4, false, false), "mov    $0x0,%eax");
	CHECK_STR(att("movq", "mov", "0x2eb0(%rip), %rdx", 0, false, false),
		  "mov    0x2eb0(%rip),%rdx");
	CHECK_STR(att("movl", "mov", "$2, -0x4c(%rbp)", 4, false, false),
		  "movl   $0x2,-0x4c(%rbp)");
	CHECK_STR(att("cvtsi2sdl", "cvtsi2sd", "-0xc(%rbp), %xmm2", 0, false, false),
		  "cvtsi2sdl -0xc(%rbp),%xmm2");
	CHECK_STR(att("lock cmpxchgl", "cmpxchg", "%ecx, (%rdx)", 0, false, false),
		  "lock cmpxchg %ecx,(%rdx)");
	/* branches and the stack never carry one; no operands, no padding */
	CHECK_STR(att("retq", "ret", "", 0, true, false), "ret");
	CHECK_STR(att("jmpq", "jmp", "*0x10(%rip)", 0, true, false), "jmp    *0x10(%rip)");
	CHECK_STR(att("pushq", "push", "%rbp", 0, true, false), "push   %rbp");
	/* numbers in hex, negative immediates as the operand size's unsigned value */
	CHECK_STR(att("addq", "add", "$-8, %rsp", 8, false, false),
		  "add    $0xfffffffffffffff8,%rsp");
	CHECK_STR(att("cmpl", "cmp", "$-1, %eax", 4, false, false), "cmp    $0xffffffff,%eax");
	CHECK_STR(att("movq", "mov", "8(%rsp), %rax", 0, false, false), "mov    0x8(%rsp),%rax");
	/* the scale always, an encoded zero displacement written, long mnemonics one space */
	CHECK_STR(att("nopw", "nop", "(%rax, %rax)", 0, false, true), "nopw   0x0(%rax,%rax,1)");
	CHECK_STR(att("nopl", "nop", "(%rax)", 0, false, false), "nopl   (%rax)");
	CHECK_STR(att("movzbl", "movzx", "(%rdi), %eax", 0, false, false), "movzbl (%rdi),%eax");
	/* a segment override on a nop is a prefix */
	CHECK_STR(att("nopw", "nop", "%cs:(%rax, %rax)", 0, false, true),
		  "cs nopw 0x0(%rax,%rax,1)");
	CHECK_STR(att("movq", "mov", "%fs:0x28, %rax", 0, false, false), "mov    %fs:0x28,%rax");
}

TEST(annotate_text_target)
{
	static char buf[256];
	struct insn_text_in in = {
		.mnemonic = "jne", .base = "jne", .ops = "0x1171", .branch_or_stack = true,
		.target_text = "1171 <hot_a+0x5>",
	};

	insn_text__format(buf, sizeof(buf), &in);
	CHECK_STR(buf, "jne    1171 <hot_a+0x5>");
	in.mnemonic = "callq";
	in.base = "call";
	in.target_text = "192f0 <__GI___assert_fail>";
	insn_text__format(buf, sizeof(buf), &in);
	CHECK_STR(buf, "call   192f0 <__GI___assert_fail>");
}

TEST(annotate_text_intel)
{
	/* what objdump 2.40 writes of libc's and python's instructions */
	CHECK_STR(intel("movzx", "eax, byte ptr [rdi + rcx + 0x20]", 0, false),
		  "movzx  eax,BYTE PTR [rdi+rcx*1+0x20]");
	CHECK_STR(intel("lea", "rdi, [rdi + rdx - 0x70]", 0, false), "lea    rdi,[rdi+rdx*1-0x70]");
	CHECK_STR(intel("jmp", "qword ptr [rdi + rdx*8]", 0, false), "jmp    QWORD PTR [rdi+rdx*8]");
	CHECK_STR(intel("mov", "rax, qword ptr fs:[0x28]", 0, false), "mov    rax,QWORD PTR fs:0x28");
	CHECK_STR(intel("lea", "rdx, [rip - 0x265c]", 0, false),
		  "lea    rdx,[rip+0xffffffffffffd9a4]");
	CHECK_STR(intel("xsavec", "ptr [rsp + 0x40]", 0, false), "xsavec [rsp+0x40]");
	CHECK_STR(intel("fld", "xword ptr [rax]", 0, false), "fld    TBYTE PTR [rax]");
	CHECK_STR(intel("comisd", "xmm1, xmmword ptr [rip + 0x59be0]", 0, false),
		  "comisd xmm1,QWORD PTR [rip+0x59be0]");
	CHECK_STR(intel("ucomiss", "xmm0, xmmword ptr [rax]", 0, false),
		  "ucomiss xmm0,DWORD PTR [rax]");
	CHECK_STR(intel("mov", "rdx, qword ptr [rip + 0x2eb0]", 0, false),
		  "mov    rdx,QWORD PTR [rip+0x2eb0]");
	CHECK_STR(intel("add", "rsp, -8", 8, false), "add    rsp,0xfffffffffffffff8");
	CHECK_STR(intel("mov", "rax, qword ptr [rsp + 8]", 0, false),
		  "mov    rax,QWORD PTR [rsp+0x8]");
	CHECK_STR(intel("nop", "dword ptr [rax + rax]", 0, true),
		  "nop    DWORD PTR [rax+rax*1+0x0]");
	CHECK_STR(intel("shl", "rax, 1", 0, false), "shl    rax,0x1");
}

static const char *string_op(const char *bytes, size_t len, bool intel)
{
	static char buf[128];

	if (!insn_text__string_op(buf, sizeof(buf), (const unsigned char *)bytes, len, intel))
		return "(not one)";
	return buf;
}

/* the string instructions and nop prefixes as objdump 2.40 writes them */
TEST(annotate_text_string_ops)
{
	CHECK_STR(string_op("\xf3\x48\xab", 3, false), "rep stos %rax,%es:(%rdi)");
	CHECK_STR(string_op("\xab", 1, false), "stos   %eax,%es:(%rdi)");
	CHECK_STR(string_op("\x66\xab", 2, false), "stos   %ax,%es:(%rdi)");
	CHECK_STR(string_op("\xf3\xa4", 2, false), "rep movsb %ds:(%rsi),%es:(%rdi)");
	CHECK_STR(string_op("\x48\xa5", 2, false), "movsq  %ds:(%rsi),%es:(%rdi)");
	CHECK_STR(string_op("\xf3\xa6", 2, false), "repz cmpsb %es:(%rdi),%ds:(%rsi)");
	CHECK_STR(string_op("\xf2\xae", 2, false), "repnz scas %es:(%rdi),%al");
	CHECK_STR(string_op("\x48\xad", 2, false), "lods   %ds:(%rsi),%rax");
	CHECK_STR(string_op("\xf3\xab", 2, true), "rep stos DWORD PTR es:[rdi],eax");
	CHECK_STR(string_op("\x66\xa5", 2, true), "movs   WORD PTR es:[rdi],WORD PTR ds:[rsi]");
	CHECK_STR(string_op("\xf3\xa6", 2, true), "repz cmps BYTE PTR ds:[rsi],BYTE PTR es:[rdi]");
	CHECK_STR(string_op("\xad", 1, true), "lods   eax,DWORD PTR ds:[rsi]");
	CHECK_STR(string_op("\xf2\xae", 2, true), "repnz scas al,BYTE PTR es:[rdi]");
	CHECK_STR(string_op("\x48\x89\xc7", 3, false), "(not one)");
	CHECK_STR(string_op("\xa5\x90", 2, false), "(not one)");
	CHECK_STR(string_op("\xa8", 1, false), "(not one)");	/* test al, imm8 without it */

	CHECK_EQ(insn_text__data16((const unsigned char *)"\x66\x66\x2e\x0f\x1f\x84\0\0\0\0\0", 11), 1);
	CHECK_EQ(insn_text__data16((const unsigned char *)"\x66\x66\x66\x2e\x0f\x1f\x84\0\0\0\0\0", 12), 2);
	CHECK_EQ(insn_text__data16((const unsigned char *)"\x66\x2e\x0f\x1f\x84\0\0\0\0\0", 10), 0);
	CHECK_EQ(insn_text__data16((const unsigned char *)"\x66\x66\x90", 3), 0);
}

TEST(annotate_hists)
{
	struct ember_dso *dso = ember_dso__open("/proc/self/exe", NULL);
	struct ember_annotate_hists *h = ember_annotate_hists__new(2);
	const struct ember_symbol *sym = NULL;
	const struct ember_annotate_hist *hist;
	struct ember_addr_location al = { .dso = dso };
	uint64_t nr = 0, period = 0, start;
	int n = dso ? ember_dso__load(dso) : -1;

	CHECK(h != NULL);
	CHECK(n > 0);
	for (int i = 0; i < n && !sym; i++)
		if (!strcmp(ember_symbol__name(ember_dso__symbol(dso, (size_t)i)), "main"))
			sym = ember_dso__symbol(dso, (size_t)i);
	CHECK(sym != NULL);
	if (!h || !sym)
		goto out;
	start = ember_symbol__start(sym);
	al.sym = sym;
	al.addr = start;
	CHECK_EQ(ember_annotate_hists__add(h, &al, 0, 100), 0);
	CHECK_EQ(ember_annotate_hists__add(h, &al, 0, 50), 0);
	al.addr = start + 3;
	CHECK_EQ(ember_annotate_hists__add(h, &al, 0, 7), 0);
	CHECK_EQ(ember_annotate_hists__add(h, &al, 1, 1000), 0);
	CHECK_EQ(ember_annotate_hists__add(h, &al, 2, 1), -EINVAL);
	al.sym = NULL;
	CHECK_EQ(ember_annotate_hists__add(h, &al, 0, 1), 0);	/* no symbol: not counted */

	hist = ember_annotate_hists__find(h, dso, sym);
	CHECK(hist != NULL);
	CHECK_EQ(ember_annotate_hist__nr_samples(hist, 0), 3);
	CHECK_EQ(ember_annotate_hist__period(hist, 0), 157);
	CHECK_EQ(ember_annotate_hist__nr_samples(hist, 1), 1);
	CHECK_EQ(ember_annotate_hist__period(hist, 1), 1000);
	/* an instruction's share: the offsets it covers */
	ember_annotate_hist__range(hist, 0, 0, 3, &nr, &period);
	CHECK_EQ(nr, 2);
	CHECK_EQ(period, 150);
	nr = period = 0;
	ember_annotate_hist__range(hist, 0, 0, 4, &nr, &period);
	CHECK_EQ(period, 157);
	nr = period = 0;
	ember_annotate_hist__range(hist, 1, 4, 64, &nr, &period);
	CHECK_EQ(nr, 0);
	CHECK(ember_annotate_hists__find(h, dso, NULL) == NULL);
out:
	ember_annotate_hists__delete(h);
	ember_dso__delete(dso);
}

/*
 * A core file as /proc/kcore is one: PT_LOAD segments by kernel virtual
 * address. Two of 16 bytes, 0x100 apart: 0..15, then 0x80..0x8f. 0 or -1.
 */
static int write_core(const char *path, uint64_t vaddr)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	Elf *elf;
	GElf_Ehdr eh;
	GElf_Phdr ph;
	uint8_t bytes[32];
	int ok = 0;

	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_WRITE, NULL);
	if (elf && gelf_newehdr(elf, ELFCLASS64) && gelf_newphdr(elf, 2)) {
		Elf_Scn *scn;
		Elf_Data *d;

		gelf_getehdr(elf, &eh);
		eh.e_ident[EI_DATA] = ELFDATA2LSB;
		eh.e_type = ET_CORE;
		eh.e_machine = EM_X86_64;
		eh.e_version = EV_CURRENT;
		gelf_update_ehdr(elf, &eh);
		elf_flagelf(elf, ELF_C_SET, ELF_F_LAYOUT);
		/* the bytes in one section at 0x1000 (libelf writes sections, not segments) */
		scn = elf_newscn(elf);
		d = scn ? elf_newdata(scn) : NULL;
		for (int i = 0; i < 32; i++)
			bytes[i] = (uint8_t)(i < 16 ? i : 0x80 + i - 16);
		if (d) {
			GElf_Shdr sh;

			d->d_buf = bytes;
			d->d_size = sizeof(bytes);
			d->d_off = 0;
			d->d_align = 1;
			gelf_getshdr(scn, &sh);
			sh.sh_type = SHT_PROGBITS;
			sh.sh_offset = 0x1000;
			sh.sh_size = sizeof(bytes);
			gelf_update_shdr(scn, &sh);
			eh.e_shoff = 0x1100;
			eh.e_phoff = sizeof(Elf64_Ehdr);
			gelf_update_ehdr(elf, &eh);
			for (int i = 0; i < 2; i++) {
				memset(&ph, 0, sizeof(ph));
				ph.p_type = PT_LOAD;
				ph.p_offset = 0x1000 + 16 * (uint64_t)i;
				ph.p_vaddr = vaddr + 0x100 * (uint64_t)i;
				ph.p_filesz = ph.p_memsz = 16;
				gelf_update_phdr(elf, i, &ph);
			}
			ok = elf_update(elf, ELF_C_WRITE) > 0;
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return ok ? 0 : -1;
}

TEST(annotate_kernel_code_kcore)
{
	const uint64_t base = 0xffffffff81000000ULL;
	char path[] = "/tmp/ember-unit-kcore.XXXXXX";
	struct ember_dso dso = { .kind = DSO_KIND_KERNEL };
	struct kernel_code kc;
	uint8_t buf[8];
	int fd = mkstemp(path);
	int fd2 = -1;
	Elf *elf = NULL;

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	close(fd);
	CHECK_EQ(write_core(path, base), 0);
	/* no vmlinux looked for: the core file is the code */
	CHECK_EQ(kernel_code__find(&kc, &dso, NULL, true, path), 0);
	CHECK(kc.kcore);
	CHECK_STR(kc.path, path);
	CHECK_EQ(kc.reloc, 0);
	kernel_code__exit(&kc);
	/* a vmlinux given that is not there: the core file still */
	CHECK_EQ(kernel_code__find(&kc, &dso, "/nonexistent/vmlinux", false, path), 0);
	CHECK(kc.kcore);
	kernel_code__exit(&kc);
	CHECK_EQ(kernel_code__find(&kc, &dso, NULL, true, "/nonexistent/kcore"), -EOPNOTSUPP);

	fd2 = open(path, O_RDONLY);
	elf = fd2 >= 0 ? elf_begin(fd2, ELF_C_READ, NULL) : NULL;
	CHECK(elf != NULL);
	if (elf) {
		CHECK_EQ(kernel_code__read_core(elf, base + 4, buf, 8), 0);
		CHECK_EQ(buf[0], 4);
		CHECK_EQ(buf[7], 11);
		CHECK_EQ(kernel_code__read_core(elf, base + 0x100 + 2, buf, 4), 0);
		CHECK_EQ(buf[0], 0x82);
		CHECK_EQ(buf[3], 0x85);
		/* across the hole between the segments, and outside both */
		CHECK_EQ(kernel_code__read_core(elf, base + 12, buf, 8), -ENODATA);
		CHECK_EQ(kernel_code__read_core(elf, base - 8, buf, 4), -ENODATA);
		elf_end(elf);
	}
	if (fd2 >= 0)
		close(fd2);
	unlink(path);
}
