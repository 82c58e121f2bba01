// SPDX-License-Identifier: GPL-2.0-only
/*
 * libember's histograms through the public headers alone, as a program
 * linking libember sees them: synthetic samples merged, sorted and
 * walked (entries, callchain trees, perf's percentage rules), the ABI
 * rules of the option and sample structs, bad input; and a perf.data
 * file written here, fed from its session with filters and --max-stack.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <ember/hist.h>
#include <ember/perf-data.h>
#include <ember/session.h>
#include "test.h"

static const char DSO[] = "prog";

#define FRAME(name_, start_) { .dso = DSO, .sym = #name_, .sym_name = #name_,	\
			       .dso_name = DSO, .dso_long_name = "/bin/prog",	\
			       .ip = 0x400000 + (start_) + 4, .addr = (start_) + 4,	\
			       .sym_start = (start_), .sym_end = (start_) + 0x80,	\
			       .level = '.', .cpumode = PERF_RECORD_MISC_USER }

static const struct ember_hist_frame f_main = FRAME(main, 0x100);
static const struct ember_hist_frame f_foo = FRAME(foo, 0x200);
static const struct ember_hist_frame f_bar = FRAME(bar, 0x300);

static struct ember_hist *new_hist(struct ember_hist_layout *l, const char *sort, bool children)
{
	struct ember_hist_layout_opts lo = { .sz = sizeof(lo), .sort_order = sort,
					     .children = children };
	struct ember_hist_opts ho = { .sz = sizeof(ho), .layout = l, .use_callchain = true,
				      .children = children };
	char bad[32];

	ember_callchain_param__init(&ho.chain);
	if (children)
		ho.chain.order = EMBER_CALLCHAIN_CALLER;
	if (ember_hist_layout__setup(l, &lo, bad, sizeof(bad)))
		return NULL;
	return ember_hist__new(&ho);
}

/* times samples of the stack chain[0..n) (leaf first), of period 100 each. */
static int add(struct ember_hist *h, const struct ember_hist_frame *const *chain, uint32_t n,
	       int times, uint8_t filtered)
{
	struct ember_hist_sample s = {
		.sz = sizeof(s), .self = chain[0], .chain = chain, .nr_chain = n,
		.period = 100, .nr_samples = 1, .pid = 7, .tid = 7, .comm = "prog",
		.thread = h, .filtered = filtered,
	};
	int err = 0;

	for (int i = 0; i < times && !err; i++)
		err = ember_hist__add(h, &s);
	return err;
}

static const struct ember_hist_frame *const stack_foo[] = { &f_foo, &f_main };
static const struct ember_hist_frame *const stack_bar[] = { &f_bar, &f_foo, &f_main };

TEST(hist_api_entries_and_callchains)
{
	struct ember_hist_layout l;
	struct ember_hist *h = new_hist(&l, NULL, false);
	const struct ember_hist_entry *e;
	const struct ember_callchain_node *root, *n;

	if (!h)
		SKIP("no memory");
	CHECK_EQ(add(h, stack_foo, 2, 3, 0), 0);
	CHECK_EQ(add(h, stack_bar, 3, 1, 0), 0);
	CHECK_EQ(ember_hist__resort(h), 0);

	CHECK_EQ(ember_hist__stats(h)->nr_samples, 4);
	CHECK_EQ(ember_hist__stats(h)->total_period, 400);
	CHECK_EQ(ember_hist__nr_entries(h), 2);
	CHECK(ember_hist__entry(h, 2) == NULL);
	e = ember_hist__entry(h, 0);
	CHECK_STR(e->sym_name, "foo");
	CHECK_STR(e->comm, "prog");
	CHECK_EQ(e->self.period, 300);
	CHECK_EQ(e->self.nr_events, 3);
	CHECK_EQ(e->self.period_us, 300);
	CHECK_EQ(ember_hist__entry_period(h, e), 300);
	CHECK_STR(ember_hist__entry(h, 1)->sym_name, "bar");

	/* foo's chain, callee first: root -> foo -> main, all 300 ending in main */
	root = ember_hist_entry__callchain(e);
	CHECK(root != NULL);
	if (!root)
		goto out;
	CHECK(ember_callchain_node__parent(root) == NULL);
	CHECK_EQ(root->nr_children, 1);
	CHECK_EQ(root->children_hit, 300);
	n = ember_callchain_node__first_child(root);
	CHECK_STR(n->name, "foo");
	CHECK(ember_callchain_node__parent(n) == root);
	CHECK(ember_callchain_node__next(n) == NULL);
	n = ember_callchain_node__first_child(n);
	CHECK_STR(n->name, "main");
	CHECK_EQ(n->hit, 300);
	CHECK_EQ(n->count, 3);
	CHECK_EQ(ember_callchain_node__cumul_hits(n), 300);
	CHECK(ember_callchain_node__first_child(n) == NULL);
out:
	ember_hist__delete(h);
}

TEST(hist_api_children_cumulate_once)
{
	static const struct ember_hist_frame *const rec[] = { &f_foo, &f_foo, &f_main };
	struct ember_hist_layout l;
	struct ember_hist *h = new_hist(&l, NULL, true);
	const struct ember_hist_entry *e;

	if (!h)
		SKIP("no memory");
	CHECK(l.self_header);
	CHECK_EQ(add(h, stack_foo, 2, 3, 0), 0);
	CHECK_EQ(add(h, stack_bar, 3, 1, 0), 0);
	/* a recursive foo counts once in its children's */
	CHECK_EQ(add(h, rec, 3, 1, 0), 0);
	CHECK_EQ(ember_hist__resort(h), 0);
	CHECK_EQ(ember_hist__nr_entries(h), 3);
	/* equal children's periods: the larger self period first */
	e = ember_hist__entry(h, 0);
	CHECK_STR(e->sym_name, "foo");
	CHECK_EQ(e->acc.period, 500);
	CHECK_EQ(e->self.period, 400);
	CHECK_EQ(ember_hist__entry_period(h, e), 500);
	e = ember_hist__entry(h, 1);
	CHECK_STR(e->sym_name, "main");
	CHECK_EQ(e->acc.period, 500);
	CHECK_EQ(e->self.period, 0);
	e = ember_hist__entry(h, 2);
	CHECK_STR(e->sym_name, "bar");
	CHECK_EQ(e->acc.period, 100);
	ember_hist__delete(h);
}

TEST(hist_api_percent_rules)
{
	struct ember_hist_layout l;
	struct ember_hist *h = new_hist(&l, NULL, false);
	const struct ember_hist_entry *foo, *bar, *main_;

	if (!h)
		SKIP("no memory");
	CHECK_EQ(add(h, stack_foo, 2, 16, 0), 0);
	CHECK_EQ(add(h, stack_bar, 3, 3, 0), 0);
	/* main's own samples, counted but filtered out (perf --comms and the like) */
	{
		const struct ember_hist_frame *const m[] = { &f_main };

		CHECK_EQ(add(h, m, 1, 1, EMBER_HIST_FILTER_COMM), 0);
	}
	CHECK_EQ(ember_hist__resort(h), 0);
	CHECK_EQ(ember_hist__stats(h)->nr_samples, 20);
	CHECK_EQ(ember_hist__stats(h)->nr_non_filtered_samples, 19);
	CHECK_EQ(ember_hist__total_period(h, false), 2000);
	CHECK_EQ(ember_hist__total_period(h, true), 1900);
	CHECK_EQ(ember_hist__nr_entries(h), 3);
	foo = ember_hist__entry(h, 0);
	bar = ember_hist__entry(h, 1);
	/* the filtered entry comes last, never shown */
	main_ = ember_hist__entry(h, 2);
	CHECK_STR(main_->sym_name, "main");
	CHECK(main_->filtered & EMBER_HIST_FILTER_COMM);
	CHECK(!ember_hist__shows(h, main_, false, 0));
	CHECK(ember_hist__shows(h, foo, false, 0));
	/* bar is 15 % of everything, 15.8 % of what is left */
	CHECK(ember_hist__shows(h, bar, false, 15));
	CHECK(!ember_hist__shows(h, bar, false, 15.5));
	CHECK(ember_hist__shows(h, bar, true, 15.5));
	/* -g's 0.5 % of the callchain total (2000, or 1900 relative) */
	CHECK_EQ(ember_hist__callchain_min_hit(h, false), 10);
	CHECK_EQ(ember_hist__callchain_min_hit(h, true), 9);
	ember_hist__delete(h);
}

/* A sample struct of an older, shorter ABI: the fields past its sz read as zero. */
TEST(hist_api_sample_size)
{
	struct ember_hist_layout l;
	struct ember_hist *h = new_hist(&l, "time", false);
	const struct ember_hist_frame *const self[] = { &f_foo };
	struct ember_hist_sample s = {
		.sz = sizeof(s), .self = &f_foo, .chain = self, .nr_chain = 1, .period = 1,
		.nr_samples = 1, .comm = "prog", .time = 100000000,
	};

	if (!h)
		SKIP("no memory");
	CHECK_EQ(ember_hist__add(h, &s), 0);
	s.time = 200000000;
	CHECK_EQ(ember_hist__add(h, &s), 0);
	/* without time: both at time 0, one entry */
	s.sz = offsetof(struct ember_hist_sample, time);
	CHECK_EQ(ember_hist__add(h, &s), 0);
	s.time = 300000000;
	CHECK_EQ(ember_hist__add(h, &s), 0);
	s.sz = 0;
	CHECK_EQ(ember_hist__add(h, &s), -EINVAL);
	CHECK_EQ(ember_hist__resort(h), 0);
	CHECK_EQ(ember_hist__nr_entries(h), 3);
	CHECK_EQ(ember_hist__stats(h)->nr_samples, 4);
	ember_hist__delete(h);
}

TEST(hist_api_bad_input)
{
	struct ember_hist_layout l;
	struct ember_hist_layout_opts lo = { .sz = sizeof(lo), .sort_order = "parent" };
	struct ember_hist_opts ho = { .sz = sizeof(ho), .layout = &l, .parent_pattern = "(" };
	struct ember_hist_filter_opts fo = { .sz = sizeof(fo), .pids = "1,x" };
	struct ember_callchain_param p;
	char bad[64] = "", why[64] = "";
	struct ember_hist_filters *f;

	errno = 0;
	CHECK(ember_hist__new(NULL) == NULL);
	CHECK_EQ(errno, EINVAL);
	CHECK_EQ(ember_hist_layout__setup(&l, &lo, bad, sizeof(bad)), 0);
	/* a parent pattern that does not compile */
	errno = 0;
	CHECK(ember_hist__new(&ho) == NULL);
	CHECK_EQ(errno, EINVAL);
	ho.sz = 0;
	ho.parent_pattern = NULL;
	CHECK(ember_hist__new(&ho) == NULL);

	/* unknown keys, and the ones perf knows that ember refuses */
	lo.sort_order = "comm,nosuchkey";
	CHECK_EQ(ember_hist_layout__setup(&l, &lo, bad, sizeof(bad)), -EINVAL);
	CHECK_STR(bad, "nosuchkey");
	CHECK(ember_hist_dim__unsupported(bad) == NULL);
	lo.sort_order = "dso_from";
	CHECK_EQ(ember_hist_layout__setup(&l, &lo, bad, sizeof(bad)), -EINVAL);
	CHECK(ember_hist_dim__unsupported(bad) != NULL);
	lo.sz = 0;
	CHECK_EQ(ember_hist_layout__setup(&l, &lo, bad, sizeof(bad)), -EINVAL);
	CHECK_EQ(ember_hist_dim__find("sym"), EMBER_HIST_DIM_SYM);
	CHECK_STR(ember_hist_dim__name(EMBER_HIST_DIM_OVERHEAD_CHILDREN), "overhead_children");
	CHECK(ember_hist_dim__name(EMBER_HIST_DIM_NR) == NULL);
	CHECK(ember_hist_dim__is_value(EMBER_HIST_DIM_PERIOD));
	CHECK(!ember_hist_dim__is_value(EMBER_HIST_DIM_COMM));

	/* filter lists: what is wrong is said */
	errno = 0;
	CHECK(ember_hist_filters__new(&fo, why, sizeof(why)) == NULL);
	CHECK_EQ(errno, EINVAL);
	CHECK_STR(why, "pid 'x'");
	fo = (struct ember_hist_filter_opts){ .sz = sizeof(fo), .cpus = "0-3,99999" };
	CHECK(ember_hist_filters__new(&fo, why, sizeof(why)) == NULL);
	CHECK_STR(why, "cpu list '0-3,99999'");
	fo = (struct ember_hist_filter_opts){ .sz = sizeof(fo), .cpus = "0-3", .comms = "a,b" };
	f = ember_hist_filters__new(&fo, why, sizeof(why));
	CHECK(f != NULL);
	CHECK(ember_hist_filters__has_cpu(f, 0));
	CHECK(ember_hist_filters__has_cpu(f, 3));
	CHECK(!ember_hist_filters__has_cpu(f, 4));
	CHECK(!ember_hist_filters__has_cpu(f, 1u << 30));
	CHECK(ember_hist_filters__has_cpu(NULL, 4));
	ember_hist_filters__delete(f);

	/* -g */
	ember_callchain_param__init(&p);
	CHECK_EQ(p.mode, EMBER_CALLCHAIN_GRAPH_ABS);
	CHECK(p.min_percent == 0.5);
	CHECK_EQ(ember_callchain_param__parse(&p, "folded,2,caller"), 0);
	CHECK_EQ(p.mode, EMBER_CALLCHAIN_FOLDED);
	CHECK_EQ(p.order, EMBER_CALLCHAIN_CALLER);
	CHECK_EQ(ember_callchain_param__parse(&p, "graph,1,2,3"), -EINVAL);
}

/* ---- a perf.data file through the feed ---------------------------------------------- */

#define SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | \
		     PERF_SAMPLE_CALLCHAIN)

/* A sample of pid/tid 1234 on cpu, at ip, called from 0x2000 and 0x3000. */
static int write_sample(struct ember_data_writer *w, uint64_t ip, uint32_t cpu)
{
	uint64_t r[10] = {
		0, ip, (uint64_t)1234 << 32 | 1234, cpu, 100,
		4, PERF_CONTEXT_USER, ip, 0x2000, 0x3000,
	};
	struct perf_event_header hdr = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(r) };

	memcpy(r, &hdr, sizeof(hdr));
	return ember_data_writer__write(w, r, sizeof(r));
}

/* A perf.data at path of one cpu-clock event, started; NULL with errno set. */
static struct ember_data_writer *start_file(const char *path)
{
	struct ember_data_writer_opts o = { .sz = sizeof(o) };
	struct perf_event_attr attr = {
		.size = sizeof(attr), .type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK, .sample_period = 100,
		.sample_type = SAMPLE_TYPE, .exclude_kernel = 1,
	};
	struct ember_data_writer *w = ember_data_writer__open(path, &o);
	uint64_t id = 1;
	int err;

	if (!w)
		return NULL;
	err = ember_data_writer__add_attr(w, &attr, &id, 1, "cpu-clock");
	if (err >= 0)
		err = ember_data_writer__start(w, NULL);
	if (err) {
		ember_data_writer__delete(w);
		errno = -err;
		return NULL;
	}
	return w;
}

/* The file of w closed; or after an error err, given up (and err returned). */
static int end_file(struct ember_data_writer *w, int err)
{
	if (err) {
		ember_data_writer__delete(w);
		return err;
	}
	return ember_data_writer__close(w, NULL);
}

/* Three samples at 0x1000 on cpu 0, one at 0x1100 on cpu 1, of a thread named "prog". */
static int write_file(const char *path)
{
	struct {
		struct perf_event_header hdr;
		uint32_t pid, tid;
		char comm[16];
	} comm = { { PERF_RECORD_COMM, 0, sizeof(comm) }, 1234, 1234, "prog" };
	struct ember_data_writer *w = start_file(path);
	int err;

	if (!w)
		return -errno;
	err = ember_data_writer__write(w, &comm, sizeof(comm));
	for (int i = 0; i < 4 && !err; i++)
		err = write_sample(w, i < 3 ? 0x1000 : 0x1100, i < 3 ? 0 : 1);
	return end_file(w, err);
}

struct fed {
	struct ember_session *session;
	struct ember_hist_filters *filters;
	struct ember_hist_feed *feed;
	struct ember_hist *h;		/* the one event's */
};

/* The file fed with those filters (NULL: none) and --max-stack (0: none). */
static int feed_file(struct fed *fd, const char *path, const struct ember_hist_filter_opts *fo,
		     unsigned int max_stack)
{
	struct ember_session_opts so = {
		.sz = sizeof(so),
		.symbol = { .sz = sizeof(so.symbol), .kallsyms = "", .buildid_dir = "" },
	};
	struct ember_hist_layout l;
	struct ember_hist_layout_opts lo = { .sz = sizeof(lo) };
	struct ember_hist_opts ho = { .sz = sizeof(ho), .layout = &l, .use_callchain = true };
	struct ember_hist_feed_opts o = {
		.sz = sizeof(o), .hist = &ho, .callchains = true,
		.limit_stack = max_stack > 0, .max_stack = max_stack,
	};
	char why[64];
	int err;

	memset(fd, 0, sizeof(*fd));
	ember_callchain_param__init(&ho.chain);
	err = ember_hist_layout__setup(&l, &lo, why, sizeof(why));
	if (err)
		return err;
	if (fo && !(fd->filters = ember_hist_filters__new(fo, why, sizeof(why))))
		return -errno;
	o.filters = fd->filters;
	fd->session = ember_session__open(path, &so);
	if (!fd->session)
		return -errno;
	fd->feed = ember_hist_feed__new(fd->session, &o);
	if (!fd->feed)
		return -errno;
	err = ember_hist_feed__process(fd->feed);
	if (err)
		return err;
	if (ember_hist_feed__nr_hists(fd->feed) != 1)
		return -ENOENT;
	fd->h = ember_hist_feed__hist(fd->feed, 0);
	return fd->h ? 0 : -ENOENT;
}

static void fed_free(struct fed *fd)
{
	ember_hist_feed__delete(fd->feed);
	ember_session__delete(fd->session);
	ember_hist_filters__delete(fd->filters);
}

/* Nodes from the root down its first children. */
static int chain_depth(const struct ember_callchain_node *n)
{
	int d = 0;

	while (n && (n = ember_callchain_node__first_child(n)))
		d++;
	return d;
}

TEST(hist_api_feed_a_file)
{
	char path[] = "/tmp/ember-unit-hist.XXXXXX";
	struct ember_hist_filter_opts fo = { .sz = sizeof(fo) };
	const struct ember_hist_entry *e;
	struct fed fd;
	int tmp = mkstemp(path);

	if (tmp < 0)
		SKIP("no temporary file");
	close(tmp);
	CHECK_EQ(write_file(path), 0);

	/* everything: two entries by address (no maps), chains of three addresses */
	CHECK_EQ(feed_file(&fd, path, NULL, 0), 0);
	if (fd.h) {
		CHECK_EQ(ember_hist__stats(fd.h)->nr_samples, 4);
		CHECK_EQ(ember_hist__nr_entries(fd.h), 2);
		e = ember_hist__entry(fd.h, 0);
		CHECK_EQ(e->ip, 0x1000);
		CHECK_EQ(e->self.period, 300);
		CHECK_STR(e->comm, "prog");
		CHECK(e->sym == NULL && e->dso == NULL);
		CHECK_EQ(chain_depth(ember_hist_entry__callchain(e)), 3);
		CHECK_EQ(ember_hist__entry(fd.h, 1)->ip, 0x1100);
	}
	fed_free(&fd);

	/* --cpu 0 drops the sample of cpu 1; --max-stack 1 keeps each chain's leaf */
	fo.cpus = "0";
	CHECK_EQ(feed_file(&fd, path, &fo, 1), 0);
	if (fd.h) {
		CHECK_EQ(ember_hist__stats(fd.h)->nr_samples, 3);
		CHECK_EQ(ember_hist__nr_entries(fd.h), 1);
		e = ember_hist__entry(fd.h, 0);
		CHECK_EQ(chain_depth(ember_hist_entry__callchain(e)), 1);
	}
	fed_free(&fd);

	/* --comms of another: counted, all filtered, nothing shown */
	fo.cpus = NULL;
	fo.comms = "other";
	CHECK_EQ(feed_file(&fd, path, &fo, 0), 0);
	if (fd.h) {
		CHECK_EQ(ember_hist__stats(fd.h)->nr_samples, 4);
		CHECK_EQ(ember_hist__stats(fd.h)->nr_non_filtered_samples, 0);
		for (size_t i = 0; i < ember_hist__nr_entries(fd.h); i++)
			CHECK(!ember_hist__shows(fd.h, ember_hist__entry(fd.h, i), false, 0));
	}
	fed_free(&fd);
	unlink(path);
}

/* ---- a chain address seen before a sample lands on it --------------------------------- */

/* This program's executable mapping, from /proc/self/maps. */
static int own_text(char *path, size_t size, uint64_t *start, uint64_t *end, uint64_t *pgoff)
{
	char line[4096], exe[1024], perms[8], file[1024];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	FILE *f;
	int err = -ENOENT;

	if (n <= 0)
		return -ENOENT;
	exe[n] = '\0';
	f = fopen("/proc/self/maps", "r");
	if (!f)
		return -errno;
	while (err && fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %1023s", &s, &e, perms, &off, file) == 5 &&
		    perms[2] == 'x' && !strcmp(file, exe) && (size_t)n < size) {
			memcpy(path, exe, n + 1);
			*start = s;
			*end = e;
			*pgoff = off;
			err = 0;
		}
	}
	fclose(f);
	return err;
}

/*
 * pid 1234 maps this program's text; a sample at ip `caller` called from
 * `callee_ret` (an address inside the function that is sampled next),
 * then a sample at callee_ret itself.
 */
static int write_chain_first_file(const char *path, uint64_t caller, uint64_t callee_ret)
{
	struct {
		struct perf_event_header hdr;
		uint32_t pid, tid;
		uint64_t start, len, pgoff;
		uint32_t maj, min;
		uint64_t ino, ino_generation;
		uint32_t prot, flags;
		char filename[1024];
	} mmap2 = { .hdr = { PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, 0 }, .pid = 1234,
		    .tid = 1234, .prot = 5, .flags = 2 };
	struct ember_data_writer *w;
	uint64_t end = 0;
	int err;

	err = own_text(mmap2.filename, sizeof(mmap2.filename), &mmap2.start, &end, &mmap2.pgoff);
	if (err)
		return err;
	mmap2.len = end - mmap2.start;
	mmap2.hdr.size = offsetof(typeof(mmap2), filename) +
			 ((strlen(mmap2.filename) + 8) & ~(size_t)7);
	w = start_file(path);
	if (!w)
		return -errno;
	err = ember_data_writer__write(w, &mmap2, mmap2.hdr.size);
	for (int i = 0; i < 2 && !err; i++) {
		uint64_t r[9] = {
			0, i ? callee_ret : caller, (uint64_t)1234 << 32 | 1234, 0, 100,
			i ? 2 : 3, PERF_CONTEXT_USER, i ? callee_ret : caller, callee_ret,
		};
		struct perf_event_header hdr = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER,
						 i ? 8 * 8 : 9 * 8 };

		memcpy(r, &hdr, sizeof(hdr));
		err = ember_data_writer__write(w, r, hdr.size);
	}
	return end_file(w, err);
}

/*
 * perf compares the entries' symbols by start, then end (sort__sym_cmp()),
 * whether the address was first met in a chain or as a sample's own: the
 * entry of the second sample has its symbol's real end, as it would had
 * no chain passed there before (a frame cached from a chain once kept
 * sym_end = sym_start, and split such entries from the others).
 */
TEST(hist_api_feed_chain_address_first)
{
	char path[] = "/tmp/ember-unit-hist.XXXXXX";
	uint64_t callee = (uintptr_t)&chain_depth, caller = (uintptr_t)&write_file;
	const struct ember_hist_entry *e = NULL;
	struct fed fd;
	int tmp = mkstemp(path);

	if (tmp < 0)
		SKIP("no temporary file");
	close(tmp);
	if (write_chain_first_file(path, caller + 4, callee + 4)) {
		unlink(path);
		SKIP("this program's text mapping is not in /proc/self/maps");
	}
	CHECK_EQ(feed_file(&fd, path, NULL, 0), 0);
	for (size_t i = 0; fd.h && i < ember_hist__nr_entries(fd.h); i++) {
		const struct ember_hist_entry *x = ember_hist__entry(fd.h, i);

		if (x->sym_name && !strcmp(x->sym_name, "chain_depth"))
			e = x;
	}
	CHECK(e != NULL);
	if (e) {
		CHECK_EQ(e->self.nr_events, 1);
		/* the sample was 4 bytes into it */
		CHECK(e->sym_end > e->sym_start + 4);
	}
	fed_free(&fd);
	unlink(path);
}
