// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "script/per-event.h"
#include "script/script.h"

int script_dumps__open(struct script *sc)
{
	const char *input = sc->o.input ? sc->o.input : "perf.data";

	sc->dumps = calloc(sc->nr_events ? sc->nr_events : 1, sizeof(*sc->dumps));
	if (!sc->dumps) {
		fprintf(stderr, "ember script: out of memory\n");
		return -1;
	}
	sc->nr_dumps = sc->nr_events;
	for (uint32_t i = 0; i < sc->nr_dumps; i++) {
		struct script_dump *d = &sc->dumps[i];

		/* perf's name: the input as given, the event's name */
		if (asprintf(&d->path, "%s.%s.dump", input, sc->events[i].name) < 0) {
			d->path = NULL;
			fprintf(stderr, "ember script: out of memory\n");
			return -1;
		}
		d->fp = fopen(d->path, "w");
		if (!d->fp) {
			fprintf(stderr, "ember script: failed to create %s: %s\n", d->path,
				strerror(errno));
			return -1;
		}
		outbuf__init(&d->ob, d->fp);
	}
	return 0;
}

int script_dumps__close(struct script *sc, FILE *out)
{
	int ret = 0;

	for (uint32_t i = 0; i < sc->nr_dumps; i++) {
		struct script_dump *d = &sc->dumps[i];
		uint64_t total, shown;
		struct stat st;
		long blk = 4096;

		if (!d->fp)
			continue;
		outbuf__flush(&d->ob);
		if (fflush(d->fp) || d->ob.error) {
			fprintf(stderr, "ember script: write error on %s: %s\n", d->path,
				strerror(errno ? errno : EIO));
			ret = -1;
		}
		total = 0;
		if (!fstat(fileno(d->fp), &st)) {
			total = (uint64_t)st.st_size;
			if (st.st_blksize > 0)
				blk = st.st_blksize;
		}
		/*
		 * perf takes the size before closing, when stdio still holds
		 * the last (partly) filled buffer of st_blksize bytes.
		 */
		shown = total ? (total - 1) / blk * blk : 0;
		if (!ret)
			fprintf(out, "[ perf script: Wrote %.3f MB %s (%" PRIu64 " samples) ]\n",
				shown / 1024.0 / 1024.0, d->path, d->samples);
	}
	return ret;
}

void script_dumps__free(struct script *sc)
{
	for (uint32_t i = 0; i < sc->nr_dumps; i++) {
		struct script_dump *d = &sc->dumps[i];

		if (d->fp)
			fclose(d->fp);
		outbuf__exit(&d->ob);
		free(d->path);
	}
	free(sc->dumps);
	sc->dumps = NULL;
	sc->nr_dumps = 0;
}
