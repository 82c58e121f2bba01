// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The fixed part of each record type: the bytes a printer or decoder reads
 * before looking at the size. A shorter record (a corrupt file) is to be
 * reported as not processed instead of being read past its end.
 */
#include <stddef.h>
#include <ember/perf-data.h>

size_t ember_record__min_size(uint32_t type)
{
	switch (type) {
	case PERF_RECORD_MMAP:
		return sizeof(struct ember_record_mmap);
	case PERF_RECORD_MMAP2:
		return sizeof(struct ember_record_mmap2);
	case PERF_RECORD_COMM:
		return sizeof(struct ember_record_comm);
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return sizeof(struct ember_record_task);
	case PERF_RECORD_LOST:
		return sizeof(struct ember_record_lost);
	case PERF_RECORD_LOST_SAMPLES:
		return sizeof(struct ember_record_lost_samples);
	case PERF_RECORD_READ:
		return sizeof(struct ember_record_read);
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return sizeof(struct ember_record_switch);
	case PERF_RECORD_KSYMBOL:
		return sizeof(struct ember_record_ksymbol);
	case PERF_RECORD_BPF_EVENT:
		return sizeof(struct ember_record_bpf_event);
	case PERF_RECORD_TEXT_POKE:
		return sizeof(struct ember_record_text_poke);
	case PERF_RECORD_CGROUP:
		return sizeof(struct ember_record_cgroup);
	case PERF_RECORD_NAMESPACES:
		return sizeof(struct ember_record_namespaces);
	case PERF_RECORD_AUX:
		return sizeof(struct ember_record_aux);
	case PERF_RECORD_ITRACE_START:
		return sizeof(struct ember_record_itrace_start);
	case 21:	/* PERF_RECORD_AUX_OUTPUT_HW_ID */
		return sizeof(struct ember_record_aux_output_hw_id);
	case EMBER_RECORD_ID_INDEX:
		return sizeof(struct ember_record_id_index);
	case EMBER_RECORD_THREAD_MAP:
		return sizeof(struct ember_record_thread_map);
	case EMBER_RECORD_STAT_CONFIG:
		return sizeof(struct ember_record_stat_config);
	case EMBER_RECORD_STAT:
		return sizeof(struct ember_record_stat);
	case EMBER_RECORD_STAT_ROUND:
		return sizeof(struct ember_record_stat_round);
	case EMBER_RECORD_TIME_CONV:
		return offsetof(struct ember_record_time_conv, time_cycles);
	case EMBER_RECORD_AUXTRACE:
		return sizeof(struct ember_record_auxtrace);
	default:
		return sizeof(struct perf_event_header);
	}
}
