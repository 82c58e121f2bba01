// SPDX-License-Identifier: GPL-2.0-only
/*
 * pagetouch N [MS]: after MS milliseconds (0), maps N fresh anonymous
 * pages and writes one byte to each, in touch_pages(): N minor page
 * faults, each one at a new page of the same mapping, every one of them
 * from the same function (N under 512: no huge page can serve them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

__attribute__((noinline)) static void touch_pages(volatile char *p, long n, long page)
{
	for (long i = 0; i < n; i++)
		p[i * page] = 1;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100, page = sysconf(_SC_PAGESIZE);
	long ms = argc > 2 ? atol(argv[2]) : 0;
	char *p;

	if (n <= 0 || ms < 0)
		return 2;
	usleep(ms * 1000);
	p = mmap(NULL, n * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	touch_pages(p, n, page);
	munmap(p, n * page);
	return 0;
}
