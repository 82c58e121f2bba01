// SPDX-License-Identifier: GPL-2.0-only
/*
 * Replays saved inputs through a fuzz target without libFuzzer, so that
 * `make check` runs every corpus entry and saved crash with the normal
 * compiler (and under ASan/UBSan with SANITIZE=1):
 *   replay-NAME FILE|DIR...
 * Each input gets 20 seconds (SIGALRM kills a hang). Prints how many ran.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int run_file(const char *path)
{
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0;
	FILE *fp = fopen(path, "rb");

	if (!fp) {
		perror(path);
		return -1;
	}
	for (;;) {
		size_t n;

		if (len == cap) {
			cap = cap ? cap * 2 : 4096;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		n = fread(buf + len, 1, cap - len, fp);
		if (!n)
			break;
		len += n;
	}
	fclose(fp);
	/* an exact-size copy, as libFuzzer passes them, for ASan's bounds */
	buf = realloc(buf, len ? len : 1);
	alarm(20);
	LLVMFuzzerTestOneInput(buf, len);
	alarm(0);
	free(buf);
	return 0;
}

static int run_path(const char *path, unsigned long *nr)
{
	struct dirent **names;
	struct stat st;
	int n, err = 0;

	if (stat(path, &st)) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		err = run_file(path);
		*nr += !err;
		return err;
	}
	n = scandir(path, &names, NULL, alphasort);
	if (n < 0) {
		perror(path);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char sub[4096];

		if (names[i]->d_name[0] != '.') {
			snprintf(sub, sizeof(sub), "%s/%s", path, names[i]->d_name);
			if (run_path(sub, nr))
				err = -1;
		}
		free(names[i]);
	}
	free(names);
	return err;
}

int main(int argc, char **argv)
{
	unsigned long nr = 0;
	int err = 0;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		if (run_path(argv[i], &nr))
			err = 1;
	}
	printf("%lu inputs\n", nr);
	return err;
}
