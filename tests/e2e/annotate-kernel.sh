#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ember annotate of kernel symbols against perf annotate 6.1 on the same
# file: the code read from a vmlinux given with -k. This machine has
# neither a vmlinux nor /proc/kcore (the e2e of that case, perf's "No
# vmlinux" lines, is in annotate.sh), so an ELF file stands in for the
# vmlinux: the kernel's build-id, _text, and a few sampled kernel
# functions at their kallsyms addresses and sizes, with code of our own.
# perf reads it as the vmlinux (its build-id matches) and runs objdump on
# it; ember must print the same text and percentages.
. "$(dirname "$0")/../lib/e2e.sh"
. "$(dirname "$0")/../lib/report-lib.bash"

if ! have_perf; then
	skip setup "perf is not installed"
	exit 0
fi
if ! command -v objdump >/dev/null || ! command -v as >/dev/null || ! command -v ld >/dev/null; then
	skip setup "binutils (objdump, as, ld) are not installed"
	exit 0
fi
if ! is_root; then
	skip setup "kernel addresses in /proc/kallsyms need root here"
	exit 0
fi
cd "$TMP" || exit 1

# stand_in OUT BUILD-ID RELOC SYM...: the ELF standing in for the vmlinux,
# every address RELOC bytes below the running kernel's (a KASLR shift)
stand_in() {
	local out=$1 bid=$2 reloc=$3 text a next s size
	shift 3
	awk '$2 ~ /^[tT]$/ { print $1 }' /proc/kallsyms | sort -u >ks.addrs
	text=$(awk '$3 == "_text" { print $1; exit }' /proc/kallsyms)
	{
		echo '.section .text,"ax",@progbits'
		echo '.globl _text'
		echo '_text:'
		for s in "$@"; do
			a=$(awk -v n="$s" '$3 == n { print $1; exit }' /proc/kallsyms)
			next=$(awk -v a="$a" '$1 > a { print $1; exit }' ks.addrs)
			echo "$a $next $s"
		done | sort | while read -r a next s; do
			size=$((0x$next - 0x$a))
			echo ".org 0x$a - 0x$text"
			echo ".globl $s"
			echo ".type $s,@function"
			echo "$s:"
			# a frame, a RIP-relative load, a call and a jump to name, then nops
			if [ $size -ge 32 ]; then
				echo "	push %rbp"
				echo "	mov %rsp,%rbp"
				echo "	mov 0x10(%rip),%rax"
				echo "	call $1"
				echo "	add \$0x1,%rax"
				echo "	jne $s+1"
			fi
			echo "	.fill 0x$next - 0x$text - (. - _text) - 1, 1, 0x90"
			echo "	ret"
			echo ".size $s, . - $s"
		done
	} >"$out.s"
	as -o "$out.o" "$out.s" &&
		ld -o "$out" --build-id=0x"$bid" -e _text -Ttext=0x"$(printf %x $((0x$text - reloc)))" \
			"$out.o" 2>"$out.ld"
}

numbers() {
	awk '/^ Percent|^ Samples|^Sorted summary|^ +[0-9.]+ [^ :]+:[0-9]+$/ { print; next }
	     /^ +[0-9.]+ : +[0-9a-f]+:/ { split($0, f, ":"); print f[1] ":" f[2] }'
}

# same NAME ARGS...: numbers, then the whole text, of both
same() {
	local name=$1
	shift
	"$PERF" annotate --stdio "$@" >"$name.perf" 2>"$name.perf.err"
	"$EMBER" annotate --stdio "$@" >"$name.ember" 2>"$name.ember.err"
	if ! grep -q '^ Percent\|^ Samples' "$name.perf"; then
		fail "$name" "perf annotated nothing: $(head -3 "$name.perf.err")"
		return
	fi
	if cmp -s <(numbers <"$name.perf") <(numbers <"$name.ember"); then
		pass "$name-numbers"
	else
		fail "$name-numbers" "$(diff <(numbers <"$name.perf") <(numbers <"$name.ember") | head -8; head -3 "$name.ember.err")"
	fi
	if cmp -s "$name.perf" "$name.ember"; then
		pass "$name-text"
	else
		fail "$name-text" "$(diff "$name.perf" "$name.ember" | head -8)"
	fi
}

rec kern -e cpu-clock -F 999 -- "$WL/writes" 1000000 || exit 0
bid=$("$PERF" buildid-list -i kern.data 2>/dev/null | awk '$2 == "[kernel.kallsyms]" { print $1 }')
if [ -z "$bid" ]; then
	skip vmlinux "perf recorded no build-id for the kernel"
	exit 0
fi
# the kernel functions sampled most, that kallsyms names once
syms=()
while read -r s; do
	[ "$(awk -v n="$s" '$3 == n' /proc/kallsyms | wc -l)" = 1 ] && syms+=("$s")
	[ ${#syms[@]} = 3 ] && break
done < <("$PERF" report --stdio -i kern.data --sort sym 2>/dev/null | awk '$2 == "[k]" { print $3 }')
if [ ${#syms[@]} = 0 ]; then
	skip vmlinux "no kernel function sampled"
	exit 0
fi
if ! stand_in vmlinux "$bid" 0 "${syms[@]}"; then
	fail vmlinux-build "$(head -3 vmlinux.ld)"
	exit 0
fi
for s in "${syms[@]}"; do
	same "vmlinux-$s" -k vmlinux -i kern.data "$s"
done
s=${syms[0]}
same vmlinux-P -k "$TMP/vmlinux" -i kern.data -P "$s"
same vmlinux-raw -k vmlinux -i kern.data --asm-raw "$s"
same vmlinux-intel -k vmlinux -i kern.data -M intel "$s"
same vmlinux-n -k vmlinux -i kern.data -n "$s"
same vmlinux-l -k vmlinux -i kern.data -l "$s"
# a vmlinux linked 16 MB lower: the kernel moved by KASLR since; perf
# prints the vmlinux's addresses
if stand_in low "$bid" $((16 << 20)) "${syms[@]}"; then
	same vmlinux-kaslr -k low -i kern.data "$s"
else
	fail vmlinux-kaslr-build "$(head -3 low.ld)"
fi
# another build-id: not the kernel's vmlinux (perf then has no symbols at all)
if stand_in other 0123456789abcdef0123456789abcdef01234567 0 "${syms[@]}"; then
	"$EMBER" annotate --stdio -k other -i kern.data "$s" >other.out 2>other.err
	rc=$?
	if [ $rc = 0 ] && ! grep -q '^ Percent' other.out && grep -q "No vmlinux file" other.err; then
		pass vmlinux-other-build-id
	else
		fail vmlinux-other-build-id "rc $rc: $(head -3 other.err)"
	fi
fi
