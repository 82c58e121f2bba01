// SPDX-License-Identifier: GPL-2.0-only
/*
 * data-tool: drives libember's perf.data codec for the e2e tests.
 *   data-tool count FILE        records per type ("SAMPLE 200"), flags
 *   data-tool header FILE [-I]  the header as perf report --header-only prints it
 *   data-tool dump FILE [--script]  every record, perf report -D (perf script -D) layout
 *   data-tool samples FILE      decode every sample; prints how many parsed
 *   data-tool check FILE        header, dump and decode, all to /dev/null (bad-input runs)
 *   data-tool copy IN OUT [--pipe] [-z] [--env-here] [--no-close]
 *                               read IN, write it again with the writer; --env-here
 *                               describes this machine instead of IN's; --no-close
 *                               stops after a sync, as a killed recorder would
 * FILE or IN may be "-" (standard input), OUT "-" (standard output, pipe format).
 * Exit status: 0, 1 on a library error (printed), 2 on usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ember/perf-data.h>

static int usage(void)
{
	fprintf(stderr, "usage: data-tool count|header|dump|samples|check FILE\n"
		"       data-tool copy IN OUT [--pipe] [-z] [--env-here] [--no-close]\n");
	return 2;
}

static struct ember_data_reader *open_or_die(const char *path)
{
	struct ember_open_error e;
	struct ember_data_reader_opts o = { .sz = sizeof(o), .error = &e };
	struct ember_data_reader *r = ember_data_reader__open(path, &o);

	if (!r) {
		fprintf(stderr, "data-tool: %s: %s%s%s\n", path, strerror(e.err),
			e.detail[0] ? ": " : "", e.detail);
		exit(1);
	}
	return r;
}

static int cmd_count(const char *path)
{
	struct ember_data_reader *r = open_or_die(path);
	struct ember_data_record rec;
	int ret;

	while ((ret = ember_data_reader__next(r, &rec)) > 0)
		;
	for (uint32_t t = 0; t < EMBER_RECORD_TYPE_MAX; t++) {
		uint64_t n = ember_data_reader__nr_records(r, t);

		if (n)
			printf("%s %llu\n", ember_record__name(t), (unsigned long long)n);
	}
	printf("unknown %llu\n", (unsigned long long)ember_data_reader__nr_unknown(r));
	printf("truncated %d\n", ember_data_reader__truncated(r));
	printf("datasize0 %d\n", ember_data_reader__data_size_was_zero(r));
	printf("pipe %d\n", ember_data_reader__is_pipe(r));
	if (ret < 0) {
		printf("error %s\n", strerror(-ret));
		fprintf(stderr, "data-tool: %s: %s\n", path, strerror(-ret));
	}
	ember_data_reader__delete(r);
	return ret < 0 ? 1 : 0;
}

static int cmd_samples(const char *path)
{
	struct ember_data_reader *r = open_or_die(path);
	struct ember_data_record rec;
	struct ember_sample s;
	uint64_t ok = 0, bad = 0, noattr = 0, ids = 0;
	int ret;

	while ((ret = ember_data_reader__next(r, &rec)) > 0) {
		if (rec.hdr->type >= EMBER_RECORD_HEADER_ATTR)
			continue;
		switch (ember_data_reader__parse_sample(r, rec.hdr, &s)) {
		case 0:
			if (rec.hdr->type == PERF_RECORD_SAMPLE)
				ok++;
			else
				ids++;
			break;
		case -ENOENT:
			noattr++;
			break;
		default:
			bad++;
		}
	}
	printf("samples %llu\nids %llu\nbad %llu\nnoattr %llu\n", (unsigned long long)ok,
	       (unsigned long long)ids, (unsigned long long)bad, (unsigned long long)noattr);
	if (ret < 0)
		fprintf(stderr, "data-tool: %s: %s\n", path, strerror(-ret));
	if (bad)
		fprintf(stderr, "data-tool: %s: %llu records too short for their sample layout\n",
			path, (unsigned long long)bad);
	ember_data_reader__delete(r);
	return ret < 0 || bad ? 1 : 0;
}

static int cmd_header(const char *path, bool full)
{
	struct ember_data_reader *r = open_or_die(path);

	ember_data_reader__fprintf_header(r, stdout, full);
	ember_data_reader__delete(r);
	return 0;
}

/* Everything the reader offers, in one process: header, every record dumped and decoded. */
static int cmd_check(const char *path)
{
	struct ember_data_reader *r = open_or_die(path);
	FILE *null = fopen("/dev/null", "w");
	struct ember_data_record rec;
	int ret;

	if (!null) {
		ember_data_reader__delete(r);
		return 1;
	}
	ember_data_reader__fprintf_header(r, null, true);
	while ((ret = ember_data_reader__next(r, &rec)) > 0)
		ember_data__dump_record(null, r, &rec, path, EMBER_DUMP_REPORT);
	fclose(null);
	ember_data_reader__delete(r);
	if (ret < 0)
		fprintf(stderr, "data-tool: %s: %s\n", path, strerror(-ret));
	return ret < 0;
}

static bool is_header_record(uint32_t type)
{
	return type == EMBER_RECORD_HEADER_ATTR || type == EMBER_RECORD_HEADER_FEATURE ||
	       type == EMBER_RECORD_HEADER_TRACING_DATA || type == EMBER_RECORD_HEADER_BUILD_ID ||
	       type == EMBER_RECORD_HEADER_EVENT_TYPE;
}

static int cmd_copy(int argc, char **argv)
{
	struct ember_data_writer_opts wo = { .sz = sizeof(wo) };
	struct ember_data_reader *r;
	struct ember_data_writer *w;
	struct ember_data_record rec;
	const struct ember_env *env;
	struct ember_env here;
	bool env_here = false, no_close = false;
	int ret, err;

	if (argc < 4)
		return usage();
	for (int i = 4; i < argc; i++) {
		if (!strcmp(argv[i], "--pipe"))
			wo.pipe = true;
		else if (!strcmp(argv[i], "-z"))
			wo.compress_level = 1;
		else if (!strcmp(argv[i], "--env-here"))
			env_here = true;
		else if (!strcmp(argv[i], "--no-close"))
			no_close = true;
		else
			return usage();
	}
	r = open_or_die(argv[2]);
	env = ember_data_reader__env(r);
	if (env_here) {
		/* this machine's description, with the recording's own cmdline and times */
		const char *args[] = { "record", "-o", argv[3] };

		if (ember_env__gather(&here) || ember_env__set_cmdline(&here, 3, args)) {
			fprintf(stderr, "data-tool: cannot gather the environment\n");
			return 1;
		}
		here.first_sample_time = env->first_sample_time;
		here.last_sample_time = env->last_sample_time;
		ember_env__set_feat(&here, EMBER_FEAT_SAMPLE_TIME,
				    ember_env__has_feat(env, EMBER_FEAT_SAMPLE_TIME));
		env = &here;
	}
	w = ember_data_writer__open(argv[3], &wo);
	if (!w) {
		fprintf(stderr, "data-tool: %s: %s\n", argv[3], strerror(errno));
		return 1;
	}
	for (uint32_t i = 0; i < ember_data_reader__nr_attrs(r); i++) {
		const struct ember_data_attr *a = ember_data_reader__attr(r, i);

		err = ember_data_writer__add_attr(w, &a->attr, a->ids, a->nr_ids, a->name);
		if (err < 0)
			goto fail;
	}
	err = ember_data_writer__start(w, env);
	if (err)
		goto fail;
	while ((ret = ember_data_reader__next(r, &rec)) > 0) {
		/* the writer makes its own header records */
		if (is_header_record(rec.hdr->type))
			continue;
		err = ember_data_writer__write(w, rec.hdr, rec.hdr->size);
		if (!err && rec.payload)
			err = ember_data_writer__write(w, rec.payload, rec.payload_size);
		if (err)
			goto fail;
	}
	if (ret < 0) {
		fprintf(stderr, "data-tool: reading %s: %s\n", argv[2], strerror(-ret));
		ember_data_writer__delete(w);
		ember_data_reader__delete(r);
		return 1;
	}
	if (no_close) {
		/* as a recorder killed after its last sync */
		err = ember_data_writer__sync(w);
		_exit(err ? 1 : 0);
	}
	err = ember_data_writer__close(w, env);
	ember_data_reader__delete(r);
	if (env_here)
		ember_env__exit(&here);
	if (err) {
		fprintf(stderr, "data-tool: writing %s: %s\n", argv[3], strerror(-err));
		return 1;
	}
	return 0;
fail:
	fprintf(stderr, "data-tool: writing %s: %s\n", argv[3], strerror(-err));
	ember_data_writer__delete(w);
	ember_data_reader__delete(r);
	return 1;
}

static int cmd_dump(const char *path, bool script)
{
	struct ember_data_reader *r = open_or_die(path);
	const char *name = ember_data_reader__is_pipe(r) ? "pipe" : path;
	struct ember_data_record rec;
	int ret;

	while ((ret = ember_data_reader__next(r, &rec)) > 0)
		ember_data__dump_record(stdout, r, &rec, name,
					script ? EMBER_DUMP_SCRIPT : EMBER_DUMP_REPORT);
	ember_data_reader__delete(r);
	if (ret < 0)
		fprintf(stderr, "data-tool: %s: %s\n", path, strerror(-ret));
	return ret < 0;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return usage();
	if (!strcmp(argv[1], "count"))
		return cmd_count(argv[2]);
	if (!strcmp(argv[1], "copy"))
		return cmd_copy(argc, argv);
	if (!strcmp(argv[1], "check"))
		return cmd_check(argv[2]);
	if (!strcmp(argv[1], "dump"))
		return cmd_dump(argv[2], argc > 3 && !strcmp(argv[3], "--script"));
	if (!strcmp(argv[1], "header"))
		return cmd_header(argv[2], argc > 3 && !strcmp(argv[3], "-I"));
	if (!strcmp(argv[1], "samples"))
		return cmd_samples(argv[2]);
	return usage();
}
