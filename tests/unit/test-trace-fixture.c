// SPDX-License-Identifier: GPL-2.0-only
/* The fixture of the lib/trace unit tests: formats as this kernel's tracefs shows them. */
#include <string.h>
#include "data/dbuf.h"
#include "test-trace-fixture.h"

#define COMMON_FIELDS								\
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"	\
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"	\
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

const char fx_header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

const char fx_header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n\n";

const char fx_sched_switch[] =
	"name: sched_switch\nID: 372\nformat:\n" COMMON_FIELDS
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> "
	"next_comm=%s next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, "
	"REC->prev_prio, (REC->prev_state & 0xff) ? __print_flags(REC->prev_state & 0xff, "
	"\"|\", { 0x01, \"S\" }, { 0x02, \"D\" }, { 0x04, \"T\" }) : \"R\", "
	"REC->prev_state & 0x100 ? \"+\" : \"\", REC->next_comm, REC->next_pid, REC->next_prio\n";

const char fx_exec[] =
	"name: sched_process_exec\nID: 365\nformat:\n" COMMON_FIELDS
	"\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:pid_t old_pid;\toffset:16;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"filename=%s pid=%d old_pid=%d\", __get_str(filename), REC->pid, "
	"REC->old_pid\n";

const char fx_hrtimer[] =
	"name: hrtimer_expire_entry\nID: 459\nformat:\n" COMMON_FIELDS
	"\tfield:void * hrtimer;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:s64 now;\toffset:16;\tsize:8;\tsigned:1;\n"
	"\tfield:void * function;\toffset:24;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"hrtimer=%p function=%ps now=%llu\", REC->hrtimer, REC->function, "
	"(unsigned long long) REC->now\n";

const char fx_kallsyms[] =
	"ffffffff81000100 t tick_sched_timer\n"
	"ffffffff81000200 T mod_timer_fn\t[mymod]\n";

const char fx_printk[] =
	"0xffffffff828195af : \"thaw_processes\"\n"
	"0xffffffff8281a3e9 : \"rcu_preempt-GPS\\n\"\n";

const char fx_cmdlines[] = "1 systemd\n42 bash\n";

static void add_sized(struct dbuf *b, const char *s, int size_bytes)
{
	uint64_t n = strlen(s);

	if (size_bytes == 4)
		dbuf_add_u32(b, n);
	else
		dbuf_add_u64(b, n);
	dbuf_add(b, s, n);
}

void *fx_blob(size_t *size)
{
	static const char magic[] = "\027\010Dtracing0.6";
	struct dbuf b = { 0 };
	uint8_t endian_long[2] = { 0, 8 };

	dbuf_add(&b, magic, sizeof(magic));
	dbuf_add(&b, endian_long, 2);
	dbuf_add_u32(&b, 4096);
	dbuf_add(&b, "header_page", 12);
	add_sized(&b, fx_header_page, 8);
	dbuf_add(&b, "header_event", 13);
	add_sized(&b, fx_header_event, 8);
	dbuf_add_u32(&b, 0);			/* ftrace events */
	dbuf_add_u32(&b, 2);			/* systems */
	dbuf_add(&b, "sched", 6);
	dbuf_add_u32(&b, 2);
	add_sized(&b, fx_sched_switch, 8);
	add_sized(&b, fx_exec, 8);
	dbuf_add(&b, "timer", 6);
	dbuf_add_u32(&b, 1);
	add_sized(&b, fx_hrtimer, 8);
	add_sized(&b, fx_kallsyms, 4);
	add_sized(&b, fx_printk, 4);
	add_sized(&b, fx_cmdlines, 8);
	*size = b.len;
	return b.data;
}

void *fx_blob_one(const char *sys, const char *format, size_t *size)
{
	static const char magic[] = "\027\010Dtracing0.6";
	struct dbuf b = { 0 };
	uint8_t endian_long[2] = { 0, 8 };

	dbuf_add(&b, magic, sizeof(magic));
	dbuf_add(&b, endian_long, 2);
	dbuf_add_u32(&b, 4096);
	dbuf_add(&b, "header_page", 12);
	add_sized(&b, fx_header_page, 8);
	dbuf_add(&b, "header_event", 13);
	add_sized(&b, fx_header_event, 8);
	dbuf_add_u32(&b, 0);
	dbuf_add_u32(&b, 1);
	dbuf_add(&b, sys, strlen(sys) + 1);
	dbuf_add_u32(&b, 1);
	add_sized(&b, format, 8);
	dbuf_add_u32(&b, 0);
	dbuf_add_u32(&b, 0);
	dbuf_add_u64(&b, 0);
	*size = b.len;
	return b.data;
}

static void put(uint8_t *buf, size_t off, const void *p, size_t n)
{
	memcpy(buf + off, p, n);
}

static void common(uint8_t *buf, uint16_t type, int pid)
{
	memset(buf, 0, 128);
	put(buf, 0, &type, 2);
	put(buf, 4, &pid, 4);
}

size_t fx_raw_sched_switch(uint8_t *buf, const char *prev, int prev_pid, int prev_prio,
			   long prev_state, const char *next, int next_pid)
{
	int next_prio = 120;

	common(buf, FX_ID_SCHED_SWITCH, prev_pid);
	strncpy((char *)buf + 8, prev, 16);
	put(buf, 24, &prev_pid, 4);
	put(buf, 28, &prev_prio, 4);
	put(buf, 32, &prev_state, 8);
	strncpy((char *)buf + 40, next, 16);
	put(buf, 56, &next_pid, 4);
	put(buf, 60, &next_prio, 4);
	return 68;			/* as PERF_SAMPLE_RAW pads it: u32 size + data, to 8 */
}

size_t fx_raw_exec(uint8_t *buf, const char *filename, int pid)
{
	uint32_t len = strlen(filename) + 1, loc = len << 16 | 20;

	common(buf, FX_ID_EXEC, pid);
	put(buf, 8, &loc, 4);
	put(buf, 12, &pid, 4);
	put(buf, 16, &pid, 4);
	put(buf, 20, filename, len);
	return 20 + len;
}

size_t fx_raw_hrtimer(uint8_t *buf, uint64_t timer, int64_t now, uint64_t function)
{
	common(buf, FX_ID_HRTIMER, 0);
	put(buf, 8, &timer, 8);
	put(buf, 16, &now, 8);
	put(buf, 24, &function, 8);
	return 32;
}
