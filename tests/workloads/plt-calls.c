// SPDX-License-Identifier: GPL-2.0-only
/*
 * plt-calls N: N rounds of calls to two dozen cheap libc functions, each
 * through this program's PLT (arguments come from argv so the compiler
 * cannot fold or inline them), so that samples land in PLT entries.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int cmp_char(const void *a, const void *b)
{
	return *(const char *)a - *(const char *)b;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	const char *text = argc > 2 ? argv[2] : "the quick brown fox jumps over 42 lazy dogs";
	size_t len = strlen(text) + 1;
	char *buf = malloc(len), *copy = malloc(len);
	volatile unsigned long sink = 0;

	if (!buf || !copy)
		return 1;
	memcpy(buf, text, len);
	for (long i = 0; i < n; i++) {
		sink += strlen(buf);
		sink += (unsigned long)strchr(buf, 'o');
		sink += (unsigned long)strrchr(buf, 'o');
		sink += (unsigned long)memchr(buf, 'z', len);
		sink += strspn(buf, "the ");
		sink += strcspn(buf, "0123456789");
		sink += strncmp(buf, text, len);
		sink += strcmp(buf, copy);
		sink += strcasecmp(buf, text);
		sink += memcmp(buf, text, len);
		sink += strtol(buf + 31, NULL, 10);
		sink += strtoul(buf + 31, NULL, 16);
		sink += atoi(buf + 31);
		sink += labs((long)sink - (long)i);
		sink += toupper((unsigned char)buf[i % len]);
		sink += (unsigned long)strstr(buf, "lazy");
		sink += (unsigned long)strpbrk(buf, "xyz");
		sink += (unsigned long)memrchr(buf, 't', len);
		memmove(copy, buf, len);
		memset(copy + len / 2, 'a', len - len / 2 - 1);
		strncpy(copy, buf, len / 4);
		free(malloc(len + (size_t)(i & 63)));
		if (!(i & 1023))
			qsort(copy, len - 1, 1, cmp_char);
	}
	free(copy);
	free(buf);
	return sink == 42;
}
