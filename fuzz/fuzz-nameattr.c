// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: flamegraph.pl --nameattr files, read as ember
 * flamegraph reads them, then a small graph drawn with them (attributes,
 * titles, links) in UTF-8 and in a byte encoding. The reader takes a
 * path: the input goes through a memfd.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <ember/flame.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char folded[] = "main;a;b 10\nmain;a;c_[k] 5\nmain;d;--;e 3\n";
	struct ember_flame_svg_opts so = { .sz = sizeof(so) };
	struct ember_flame_nameattr *na;
	struct ember_flame *fl;
	unsigned long bad;
	char path[64];
	FILE *in, *null;
	int fd;

	fd = memfd_create("nameattr", 0);
	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	na = ember_flame_nameattr__read(path, &bad);
	close(fd);
	if (!na)
		return 0;
	ember_flame_nameattr__get(na, "b", "class");
	ember_flame_nameattr__get(na, "", "");
	fl = ember_flame__new(NULL);
	in = fmemopen((void *)folded, sizeof(folded) - 1, "r");
	null = fopen("/dev/null", "w");
	if (!fl || !in || !null)
		abort();
	if (!ember_flame__read_folded(fl, in, NULL, NULL)) {
		so.nameattr = na;
		ember_flame__write_svg(fl, null, &so, NULL);
		so.encoding = "ISO-8859-1";
		so.random_colors = true;
		ember_flame__write_svg(fl, null, &so, NULL);
	}
	fclose(in);
	fclose(null);
	ember_flame__delete(fl);
	ember_flame_nameattr__delete(na);
	return 0;
}
