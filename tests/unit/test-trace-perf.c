// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/trace against the real thing:
 *  - trace_tracefs_formats: every event format of this kernel passes the
 *    format check, which refuses a print fmt only where libtraceevent fails;
 *  - trace_perf_file: the TRACING_DATA of a perf.data file (from real perf,
 *    given by tests/e2e/trace-data.sh in EMBER_TRACE_PERF_DATA) prints every
 *    sample; a blob built here from tracefs prints them the same. With
 *    EMBER_TRACE_OUT set, the texts and blobs go there for the script to
 *    compare with perf script and perf's own blob; text lines are
 *    "<time in ns> <fields>". EMBER_TRACE_KALLSYMS=1 resolves kernel
 *    addresses (%ps, %pS) from /proc/kallsyms, as perf script does.
 */
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <ember/perf-data.h>
#include <ember/trace.h>
#include "trace/trace.h"
#include "test.h"

static char *slurp(const char *path, size_t *size)
{
	char *buf = NULL;
	size_t cap = 0, n = 0, r;
	FILE *fp = fopen(path, "r");

	if (!fp)
		return NULL;
	do {
		if (n == cap) {
			cap = cap ? cap * 2 : 4096;
			buf = realloc(buf, cap);
		}
		r = fread(buf + n, 1, cap - n, fp);
		n += r;
	} while (r);
	fclose(fp);
	*size = n;
	return buf;
}

TEST(trace_tracefs_formats)
{
	size_t size, refused = 0, unsupported = 0, wrong = 0;
	struct trace_format_info info;
	char *buf;
	glob_t g;

	if (access("/sys/kernel/tracing/events/sched/sched_switch/format", R_OK))
		SKIP("tracefs not readable here (needs root and a mounted tracefs)");
	if (glob("/sys/kernel/tracing/events/*/*/format", 0, NULL, &g))
		SKIP("no event formats in tracefs");
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct tep_handle *tep = tep_alloc();
		struct tep_event *ev = NULL;
		int v, failed;

		buf = slurp(g.gl_pathv[i], &size);
		v = buf ? trace_format_check(buf, size, &info) : -EIO;
		if (v < 0) {
			fprintf(stderr, "  refused: %s\n", g.gl_pathv[i]);
			refused++;
		} else if (v == 1) {
			/* only where libtraceevent cannot print it either */
			tep_set_long_size(tep, sizeof(long));
			failed = tep_parse_format(tep, &ev, buf, size, "sys") || !ev ||
				 (ev->flags & TEP_EVENT_FL_FAILED);
			unsupported++;
			if (!failed) {
				fprintf(stderr, "  print fmt refused: %s\n", g.gl_pathv[i]);
				wrong++;
			}
		}
		tep_free(tep);
		free(buf);
	}
	buf = slurp("/sys/kernel/tracing/events/header_page", &size);
	CHECK(buf && !trace_header_page_check(buf, size));
	free(buf);
	CHECK(g.gl_pathc > 100);
	CHECK_EQ(refused, 0);
	CHECK_EQ(wrong, 0);
	globfree(&g);
}

struct sample {
	uint64_t time;
	size_t seq;
	uint32_t cpu;
	uint32_t raw_size;
	void *raw;
};

struct samples {
	struct sample *v;
	size_t nr, alloc;
};

static int by_time(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void add_sample(struct samples *ss, const struct ember_sample *s)
{
	struct sample *v = &ss->v[ss->nr];

	if (ss->nr == ss->alloc) {
		ss->alloc = ss->alloc ? ss->alloc * 2 : 1024;
		ss->v = realloc(ss->v, ss->alloc * sizeof(*ss->v));
		v = &ss->v[ss->nr];
	}
	v->time = s->time;
	v->seq = ss->nr;
	v->cpu = s->cpu;
	v->raw_size = s->raw_size;
	v->raw = malloc(s->raw_size ? s->raw_size : 1);
	memcpy(v->raw, s->raw_data, s->raw_size);
	ss->nr++;
}

/* The samples with raw data, in time order as perf script shows them, and the blob. */
static int read_file(const char *path, struct samples *ss, void **blob, size_t *blob_size,
		     struct ember_tracepoint **tps, size_t *nr_tps)
{
	struct ember_data_reader *r = ember_data_reader__open(path, NULL);
	const struct ember_env *env;
	struct ember_data_record rec;
	struct ember_sample s;
	int err;

	if (!r)
		return -errno;
	while ((err = ember_data_reader__next(r, &rec)) > 0) {
		if (rec.hdr->type == EMBER_RECORD_HEADER_TRACING_DATA && rec.payload && !*blob) {
			*blob = malloc(rec.payload_size);
			memcpy(*blob, rec.payload, rec.payload_size);
			*blob_size = rec.payload_size;
		}
		if (rec.hdr->type != PERF_RECORD_SAMPLE)
			continue;
		if (!ember_data_reader__parse_sample(r, rec.hdr, &s) && s.raw_data)
			add_sample(ss, &s);
	}
	env = ember_data_reader__env(r);
	if (!*blob && env->tracing_data.size) {
		*blob = malloc(env->tracing_data.size);
		memcpy(*blob, env->tracing_data.data, env->tracing_data.size);
		*blob_size = env->tracing_data.size;
	}
	*tps = calloc(ember_data_reader__nr_attrs(r) + 1, sizeof(**tps));
	for (uint32_t i = 0; i < ember_data_reader__nr_attrs(r); i++) {
		const struct ember_data_attr *a = ember_data_reader__attr(r, i);
		char *name = a->name ? strdup(a->name) : NULL, *colon;

		if (a->attr.type != PERF_TYPE_TRACEPOINT || !name || !(colon = strchr(name, ':'))) {
			free(name);
			continue;
		}
		*colon = '\0';
		(*tps)[*nr_tps].sys = name;
		(*tps)[(*nr_tps)++].name = colon + 1;
	}
	ember_data_reader__delete(r);
	qsort(ss->v, ss->nr, sizeof(*ss->v), by_time);
	return err;
}

/*
 * A stand-in for the kernel symbol lookup perf's resolver does (machine's
 * kallsyms): text symbols, aliases resolved as perf's choose_best_symbol()
 * does. Only to check that the resolver hook gives perf's output.
 */
struct ksym {
	unsigned long long addr;
	char type;
	char *name;
};

struct ksyms {
	struct ksym *v;
	size_t nr;
};

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Whether a beats b at the same address (perf: non-weak, global, fewer '_', longer). */
static bool ksym_better(const struct ksym *a, const struct ksym *b)
{
	bool aw = a->type == 'W' || a->type == 'w', bw = b->type == 'W' || b->type == 'w';
	bool ag = a->type == 'T' || a->type == 'W', bg = b->type == 'T' || b->type == 'W';
	size_t au = strspn(a->name, "_"), bu = strspn(b->name, "_");

	if (aw != bw)
		return bw;
	if (ag != bg)
		return ag;
	if (au != bu)
		return au < bu;
	return strlen(a->name) > strlen(b->name);
}

static void ksyms_load(struct ksyms *ks)
{
	FILE *fp = fopen("/proc/kallsyms", "r");
	char line[512], name[256], type;
	unsigned long long addr;
	size_t alloc = 0, out = 0;

	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		if (strchr(line, '[') || sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 ||
		    !strchr("tTwW", type))
			continue;
		if (ks->nr == alloc) {
			alloc = alloc ? alloc * 2 : 4096;
			ks->v = realloc(ks->v, alloc * sizeof(*ks->v));
		}
		ks->v[ks->nr++] = (struct ksym){ addr, type, strdup(name) };
	}
	fclose(fp);
	qsort(ks->v, ks->nr, sizeof(*ks->v), ksym_cmp);
	for (size_t i = 0; i < ks->nr; i++) {
		if (out && ks->v[out - 1].addr == ks->v[i].addr) {
			if (ksym_better(&ks->v[i], &ks->v[out - 1])) {
				free(ks->v[out - 1].name);
				ks->v[out - 1] = ks->v[i];
			} else {
				free(ks->v[i].name);
			}
			continue;
		}
		ks->v[out++] = ks->v[i];
	}
	ks->nr = out;
}

static char *ksym_resolve(void *priv, unsigned long long *addrp, char **modp)
{
	struct ksyms *ks = priv;
	size_t lo = 0, hi = ks->nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (ks->v[mid].addr <= *addrp)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || lo == ks->nr)
		return NULL;
	*addrp = ks->v[lo - 1].addr;
	*modp = NULL;
	return ks->v[lo - 1].name;
}

static void ksyms_free(struct ksyms *ks)
{
	for (size_t i = 0; i < ks->nr; i++)
		free(ks->v[i].name);
	free(ks->v);
}

static FILE *out_file(const char *dir, const char *name)
{
	char path[4096];

	if (!dir)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return fopen(path, "w");
}

/* Print every sample through t into fp (when not NULL); returns the failures. */
static size_t print_all(struct ember_trace *t, const struct samples *ss, FILE *fp, char ***texts)
{
	size_t failures = 0;
	char buf[4096];
	int n;

	*texts = calloc(ss->nr ? ss->nr : 1, sizeof(**texts));
	for (size_t i = 0; i < ss->nr; i++) {
		n = ember_trace__snprintf(t, ss->v[i].cpu, ss->v[i].raw, ss->v[i].raw_size, buf,
					  sizeof(buf));
		if (n < 0) {
			failures++;
			continue;
		}
		(*texts)[i] = strdup(buf);
		if (fp)
			fprintf(fp, "%llu %s\n", (unsigned long long)ss->v[i].time, buf);
	}
	return failures;
}

static void write_blob(const char *dir, const char *name, const void *blob, size_t size)
{
	FILE *fp = out_file(dir, name);

	if (fp) {
		fwrite(blob, 1, size, fp);
		fclose(fp);
	}
}

/*
 * The fields API on real block:block_rq_issue samples (what a heat map
 * reads): dev, sector, nr_sector, bytes, rwbs, comm and the __data_loc cmd
 * give back what the printed line shows. Returns the samples that differ;
 * *checked counts those seen.
 */
static size_t check_block_fields(struct ember_trace *t, const struct samples *ss, char **texts,
				 size_t *checked)
{
	const struct ember_trace_field *dev, *sector, *nr, *bytes, *rwbs, *comm, *cmd;
	char want[512], s_rwbs[16], s_comm[32], s_cmd[64];
	uint64_t v_dev, v_sector, v_nr, v_bytes, type;
	const struct ember_trace_field *ctype;
	size_t bad = 0;
	int id = ember_trace__event_id(t, "block", "block_rq_issue");

	*checked = 0;
	if (id < 0)
		return 0;
	dev = ember_trace__field(t, id, "dev");
	sector = ember_trace__field(t, id, "sector");
	nr = ember_trace__field(t, id, "nr_sector");
	bytes = ember_trace__field(t, id, "bytes");
	rwbs = ember_trace__field(t, id, "rwbs");
	comm = ember_trace__field(t, id, "comm");
	cmd = ember_trace__field(t, id, "cmd");
	ctype = ember_trace__field(t, id, "common_type");
	if (!dev || !sector || !nr || !bytes || !rwbs || !comm || !cmd || !ctype)
		return 1;
	for (size_t i = 0; i < ss->nr; i++) {
		const void *raw = ss->v[i].raw;
		size_t n = ss->v[i].raw_size;

		if (ember_trace_field__num(ctype, raw, n, &type) || type != (uint64_t)id)
			continue;
		(*checked)++;
		if (ember_trace_field__num(dev, raw, n, &v_dev) ||
		    ember_trace_field__num(sector, raw, n, &v_sector) ||
		    ember_trace_field__num(nr, raw, n, &v_nr) ||
		    ember_trace_field__num(bytes, raw, n, &v_bytes) ||
		    ember_trace_field__str(rwbs, raw, n, s_rwbs, sizeof(s_rwbs)) < 0 ||
		    ember_trace_field__str(comm, raw, n, s_comm, sizeof(s_comm)) < 0 ||
		    ember_trace_field__str(cmd, raw, n, s_cmd, sizeof(s_cmd)) < 0) {
			bad++;
			continue;
		}
		snprintf(want, sizeof(want), "%u,%u %s %u (%s) %llu + %u ",
			 (unsigned int)(v_dev >> 20), (unsigned int)(v_dev & ((1U << 20) - 1)),
			 s_rwbs, (unsigned int)v_bytes, s_cmd, (unsigned long long)v_sector,
			 (unsigned int)v_nr);
		if (!texts[i] || strncmp(texts[i], want, strlen(want)))
			bad++;
		snprintf(want, sizeof(want), " [%s]", s_comm);
		if (!texts[i] || strlen(texts[i]) < strlen(want) ||
		    strcmp(texts[i] + strlen(texts[i]) - strlen(want), want))
			bad++;
	}
	return bad;
}

/* Parse ~500 strict prefixes of a real blob, each in a buffer of its size: all must fail. */
static size_t truncations_accepted(const void *blob, size_t size)
{
	size_t step = size / 500 + 1, accepted = 0;
	struct ember_trace *t;
	void *copy;

	for (size_t n = 0; n < size; n += step) {
		copy = malloc(n ? n : 1);
		memcpy(copy, blob, n);
		t = ember_trace__parse(copy, n);
		if (t || errno != EINVAL)
			accepted++;
		ember_trace__delete(t);
		free(copy);
	}
	return accepted;
}

TEST(trace_perf_file)
{
	const char *path = getenv("EMBER_TRACE_PERF_DATA"), *dir = getenv("EMBER_TRACE_OUT");
	struct ember_trace *from_file = NULL, *ours = NULL;
	struct ember_tracepoint *tps = NULL;
	struct samples ss = { 0 };
	void *blob = NULL, *own = NULL;
	size_t blob_size = 0, own_size = 0, nr_tps = 0, differ = 0, block_checked = 0;
	char **texts = NULL, **own_texts = NULL;
	struct ksyms ks = { 0 };
	FILE *fp;

	if (!path)
		SKIP("needs a perf.data in EMBER_TRACE_PERF_DATA: run tests/e2e/trace-data.sh");
	CHECK_EQ(read_file(path, &ss, &blob, &blob_size, &tps, &nr_tps), 0);
	CHECK(blob);
	CHECK(ss.nr > 0);
	CHECK(nr_tps > 0);
	if (!blob)
		goto out;

	from_file = ember_trace__parse(blob, blob_size);
	CHECK(from_file);
	if (!from_file)
		goto out;
	if (getenv("EMBER_TRACE_KALLSYMS")) {
		ksyms_load(&ks);
		CHECK(ks.nr > 0);
		CHECK_EQ(ember_trace__set_function_resolver(from_file, ksym_resolve, &ks), 0);
	}
	write_blob(dir, "perf-blob.bin", blob, ember_trace__size(from_file));
	CHECK_EQ(truncations_accepted(blob, ember_trace__size(from_file)), 0);
	fp = out_file(dir, "from-file.txt");
	CHECK_EQ(print_all(from_file, &ss, fp, &texts), 0);
	if (fp)
		fclose(fp);
	CHECK_EQ(check_block_fields(from_file, &ss, texts, &block_checked), 0);
	if (block_checked)
		fprintf(stderr, "  fields of %zu block_rq_issue samples checked\n", block_checked);

	/* the same tracepoints, from this machine's tracefs, by our writer */
	CHECK_EQ(ember_tracing_data__build(NULL, tps, nr_tps, &own, &own_size), 0);
	ours = own ? ember_trace__parse(own, own_size) : NULL;
	CHECK(ours);
	if (!ours)
		goto out;
	if (ks.nr)
		CHECK_EQ(ember_trace__set_function_resolver(ours, ksym_resolve, &ks), 0);
	CHECK_EQ(ember_trace__size(ours), own_size);
	write_blob(dir, "ember-blob.bin", own, own_size);
	fp = out_file(dir, "from-ember.txt");
	CHECK_EQ(print_all(ours, &ss, fp, &own_texts), 0);
	if (fp)
		fclose(fp);
	for (size_t i = 0; i < ss.nr; i++)
		if (!texts[i] || !own_texts[i] || strcmp(texts[i], own_texts[i]))
			differ++;
	CHECK_EQ(differ, 0);
out:
	for (size_t i = 0; i < ss.nr; i++) {
		free(ss.v[i].raw);
		if (texts)
			free(texts[i]);
		if (own_texts)
			free(own_texts[i]);
	}
	for (size_t i = 0; i < nr_tps; i++)
		free((char *)tps[i].sys);
	free(tps);
	free(texts);
	free(own_texts);
	free(ss.v);
	ember_trace__delete(from_file);
	ember_trace__delete(ours);
	ksyms_free(&ks);
	free(blob);
	free(own);
}
