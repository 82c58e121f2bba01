// SPDX-License-Identifier: GPL-2.0-only
/* ember stat's three layouts, byte for byte against lines real perf 6.1 printed. */
#include <stdlib.h>
#include "test.h"
#include "stat/display.h"

struct capture {
	char *buf;
	size_t len;
	struct stat_display d;
};

static void cap_open(struct capture *c, enum stat_output_mode mode, enum stat_aggr_mode aggr,
		     int runs)
{
	struct stat_config config = {
		.output_mode = mode, .aggr_mode = aggr, .csv_sep = ",", .big_num = false,
		.unit_width = 4, .run_count = runs,
	};

	c->buf = NULL;
	c->len = 0;
	config.out = open_memstream(&c->buf, &c->len);
	stat_display__init(&c->d, &config);
}

static const char *cap_close(struct capture *c)
{
	fclose(c->d.out);
	return c->buf;
}

static struct stat_row counted(const char *name, double val, bool integral, const char *unit,
			       uint64_t run)
{
	struct stat_row r = {
		.state = STAT_ROW_COUNTED, .val = val, .integral = integral, .unit = unit,
		.name = name, .run = run, .ena = run,
	};
	return r;
}

static struct stat_row unsupported(const char *name)
{
	struct stat_row r = { .state = STAT_ROW_NOT_SUPPORTED, .unit = "", .name = name };
	return r;
}

static void metric(struct stat_row *r, const char *fmt, const char *unit, double val)
{
	struct stat_metric *m = &r->metrics[r->nr_metrics++];

	m->fmt = fmt;
	m->unit = unit;
	m->val = val;
}

TEST(stat_display_std_default)
{
	struct capture c;
	struct stat_row r;
	char *out;

	cap_open(&c, STAT_OUTPUT_STD, STAT_AGGR_GLOBAL, 1);
	r = counted("task-clock", 0.74, false, "msec", 740000);
	metric(&r, "%8.3f", "CPUs utilized", 0.507);
	stat_display__row(&c.d, &r);
	r = counted("page-faults", 49, true, "", 740000);
	metric(&r, "%8.3f", "K/sec", 66.337);
	stat_display__row(&c.d, &r);
	r = unsupported("cycles");
	stat_display__row(&c.d, &r);
	r = counted("syscalls:sys_enter_write", 100003, true, "", 1);
	metric(&r, NULL, NULL, 0);
	stat_display__row(&c.d, &r);
	out = (char *)cap_close(&c);
	CHECK_STR(out,
		  "              0.74 msec task-clock                       #    0.507 CPUs utilized          \n"
		  "                49      page-faults                      #   66.337 K/sec                  \n"
		  "   <not supported>      cycles                                                      \n"
		  "            100003      syscalls:sys_enter_write                                           \n");
	free(out);
}

TEST(stat_display_std_noise_running)
{
	struct capture c;
	struct stat_row r;
	char *out;

	cap_open(&c, STAT_OUTPUT_STD, STAT_AGGR_GLOBAL, 3);
	r = counted("task-clock", 0.62, false, "msec", 1);
	metric(&r, "%8.3f", "CPUs utilized", 0.424);
	r.noise_pct = 5.76;
	stat_display__row(&c.d, &r);
	r = counted("context-switches", 0, true, "", 1);
	metric(&r, "%8.3f", "/sec", 0);
	stat_display__row(&c.d, &r);
	r = counted("cycles", 1000, true, "", 50);
	r.ena = 100;
	metric(&r, NULL, "Ghz", 0);
	stat_display__row(&c.d, &r);
	out = (char *)cap_close(&c);
	CHECK_STR(out,
		  "              0.62 msec task-clock                       #    0.424 CPUs utilized            ( +-  5.76% )\n"
		  "                 0      context-switches                 #    0.000 /sec                   \n"
		  "              1000      cycles                                                               (50.00%)\n");
	free(out);
}

TEST(stat_display_std_interval_percpu)
{
	struct capture c;
	struct timespec ts = { 0, 200643694 };
	struct stat_row r;
	char *out;

	cap_open(&c, STAT_OUTPUT_STD, STAT_AGGR_GLOBAL, 1);
	stat_display__interval_header(&c.d);
	r = (struct stat_row){ .interval = &ts, .state = STAT_ROW_NOT_COUNTED, .unit = "msec",
			       .name = "cpu-clock" };
	stat_display__row(&c.d, &r);
	out = (char *)cap_close(&c);
	CHECK_STR(out,
		  "#           time             counts unit events\n"
		  "     0.200643694      <not counted> msec cpu-clock                                                   \n");
	free(out);

	cap_open(&c, STAT_OUTPUT_STD, STAT_AGGR_NONE, 1);
	r = counted("cpu-clock", 102.04, false, "msec", 1);
	r.cpu = 1;
	metric(&r, "%8.3f", "CPUs utilized", 1.0);
	stat_display__row(&c.d, &r);
	out = (char *)cap_close(&c);
	CHECK_STR(out,
		  "CPU1                   102.04 msec cpu-clock                        #    1.000 CPUs utilized          \n");
	free(out);

	cap_open(&c, STAT_OUTPUT_STD, STAT_AGGR_THREAD, 1);
	r = (struct stat_row){ .state = STAT_ROW_NOT_COUNTED, .unit = "", .name = "page-faults",
			       .comm = "bash", .tid = 6721 };
	stat_display__row(&c.d, &r);
	out = (char *)cap_close(&c);
	CHECK_STR(out,
		  "            bash-6721          <not counted>      page-faults                                                 \n");
	free(out);
}

TEST(stat_display_csv)
{
	struct capture c;
	struct stat_row r;
	struct timespec ts = { 0, 100281421 };
	char *out;

	cap_open(&c, STAT_OUTPUT_CSV, STAT_AGGR_GLOBAL, 1);
	r = counted("task-clock", 0.67, false, "msec", 670995);
	metric(&r, "%8.3f", "CPUs utilized", 0.529);
	stat_display__row(&c.d, &r);
	r = unsupported("cycles");
	stat_display__row(&c.d, &r);
	r = counted("syscalls:sys_enter_write", 0, true, "", 589875);
	metric(&r, NULL, NULL, 0);
	stat_display__row(&c.d, &r);
	r = counted("branch-misses", 5, true, "", 10);
	metric(&r, "%7.2f%%", "of all branches", 12.5);
	stat_display__row(&c.d, &r);
	r = counted("cycles", 5, true, "", 10);
	r.ena = 30;
	metric(&r, NULL, "Ghz", 0);
	r.interval = &ts;
	stat_display__row(&c.d, &r);
	out = (char *)cap_close(&c);
	CHECK_STR(out, "0.67,msec,task-clock,670995,100.00,0.529,CPUs utilized\n"
		       "<not supported>,,cycles,0,100.00,,\n"
		       "0,,syscalls:sys_enter_write,589875,100.00,,\n"
		       "5,,branch-misses,10,100.00,12.50,of all branches\n"
		       "     0.100281421,5,,cycles,10,33.00,,\n");
	free(out);

	cap_open(&c, STAT_OUTPUT_CSV, STAT_AGGR_NONE, 3);
	r = unsupported("cycles");
	r.cpu = 1;
	stat_display__row(&c.d, &r);
	out = (char *)cap_close(&c);
	CHECK_STR(out, "CPU1,<not supported>,,cycles,0.00%,0,100.00,,\n");
	free(out);
}

TEST(stat_display_json)
{
	struct capture c;
	struct stat_row r;
	struct timespec ts = { 0, 100216746 };
	char *out;

	cap_open(&c, STAT_OUTPUT_JSON, STAT_AGGR_GLOBAL, 1);
	r = counted("task-clock", 0.650053, false, "msec", 650053);
	metric(&r, "%8.3f", "CPUs utilized", 0.507636);
	stat_display__row(&c.d, &r);
	r = unsupported("cycles");
	r.interval = &ts;
	stat_display__row(&c.d, &r);
	r = counted("syscalls:sys_enter_write", 0, true, "", 723853);
	metric(&r, NULL, NULL, 0);
	stat_display__row(&c.d, &r);
	r = counted("we\"ird", 1, true, "", 1);
	stat_display__row(&c.d, &r);
	out = (char *)cap_close(&c);
	CHECK_STR(out,
		  "{\"counter-value\" : \"0.650053\", \"unit\" : \"msec\", \"event\" : \"task-clock\", \"event-runtime\" : 650053, \"pcnt-running\" : 100.00, \"metric-value\" : 0.507636, \"metric-unit\" : \"CPUs utilized\"}\n"
		  "{\"interval\" : 0.100216746, \"counter-value\" : \"<not supported>\", \"unit\" : \"\", \"event\" : \"cycles\", \"event-runtime\" : 0, \"pcnt-running\" : 100.00, \"metric-value\" : 0.000000, \"metric-unit\" : \"\"}\n"
		  "{\"counter-value\" : \"0.000000\", \"unit\" : \"\", \"event\" : \"syscalls:sys_enter_write\", \"event-runtime\" : 723853, \"pcnt-running\" : 100.00, \"metric-value\" : 0.000000, \"metric-unit\" : \"\"}\n"
		  "{\"counter-value\" : \"1.000000\", \"unit\" : \"\", \"event\" : \"we\\\"ird\", \"event-runtime\" : 1, \"pcnt-running\" : 100.00, \"metric-value\" : 0.000000, \"metric-unit\" : \"\"}\n");
	free(out);

	cap_open(&c, STAT_OUTPUT_JSON, STAT_AGGR_NONE, 3);
	r = counted("cpu-clock", 102.03708, false, "msec", 102037580);
	r.noise_pct = 2.41;
	metric(&r, "%8.3f", "CPUs utilized", 1.000025);
	stat_display__row(&c.d, &r);
	out = (char *)cap_close(&c);
	CHECK_STR(out, "{\"cpu\" : \"0\", \"counter-value\" : \"102.037080\", \"unit\" : \"msec\", \"event\" : \"cpu-clock\", \"variance\" : 2.41, \"event-runtime\" : 102037580, \"pcnt-running\" : 100.00, \"metric-value\" : 1.000025, \"metric-unit\" : \"CPUs utilized\"}\n");
	free(out);
}

TEST(stat_display_header_footer)
{
	struct capture c;
	struct stat_footer f = { .wall_avg_ns = 1458312, .show_rusage = true, .user_s = 0,
				 .sys_s = 0.001737 };
	char *out;

	cap_open(&c, STAT_OUTPUT_STD, STAT_AGGR_GLOBAL, 1);
	stat_display__header(&c.d, "'true'");
	stat_display__footer(&c.d, &f);
	out = (char *)cap_close(&c);
	CHECK_STR(out, "\n Performance counter stats for 'true':\n\n"
		       "\n       0.001458312 seconds time elapsed\n\n"
		       "       0.000000000 seconds user\n"
		       "       0.001737000 seconds sys\n\n\n");
	free(out);

	cap_open(&c, STAT_OUTPUT_STD, STAT_AGGR_GLOBAL, 3);
	stat_display__header(&c.d, "'true'");
	f = (struct stat_footer){ .wall_avg_ns = 1458000, .wall_stddev_ns = 302000 };
	stat_display__footer(&c.d, &f);
	out = (char *)cap_close(&c);
	CHECK_STR(out, "\n Performance counter stats for 'true' (3 runs):\n\n"
		       "\n          0.001458 +- 0.000302 seconds time elapsed  ( +- 20.71% )\n\n");
	free(out);

	cap_open(&c, STAT_OUTPUT_STD, STAT_AGGR_GLOBAL, 2);
	f = (struct stat_footer){ .wall_avg_ns = 1296100, .wall_stddev_ns = 95200, .null_run = true };
	stat_display__footer(&c.d, &f);
	out = (char *)cap_close(&c);
	CHECK_STR(out, "         0.0012961 +- 0.0000952 seconds time elapsed  ( +-  7.35% )\n\n");
	free(out);

	cap_open(&c, STAT_OUTPUT_CSV, STAT_AGGR_GLOBAL, 1);
	stat_display__header(&c.d, "'true'");
	stat_display__footer(&c.d, &f);
	out = (char *)cap_close(&c);
	CHECK_STR(out, "");
	free(out);
}
