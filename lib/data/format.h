/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* perf.data on-disk structures and small helpers shared by lib/data. */
#ifndef EMBER_LIB_DATA_FORMAT_H
#define EMBER_LIB_DATA_FORMAT_H

#include <stdint.h>
#include <string.h>
#include <ember/perf-data.h>

/* "PERFILE2" read as a native u64, and the same bytes seen from the other endianness. */
#define PERF_MAGIC2		0x32454c4946524550ULL
#define PERF_MAGIC2_SWAPPED	0x50455246494c4532ULL
#define PERF_PIPE_HEADER_SIZE	16

/*
 * The perf release whose perf.data ember writes and whose outputs it
 * matches: the VERSION feature starts with it ("6.1.0-ember-0.1.0").
 */
#define PERF_FORMAT_VERSION	"6.1.0"

/* Strings in feature sections are padded to this. */
#define PERF_NAME_ALIGN		64

struct perf_file_section {
	uint64_t offset;
	uint64_t size;
};

struct perf_file_header {
	uint64_t magic;
	uint64_t size;			/* sizeof(struct perf_file_header) */
	uint64_t attr_size;		/* one entry of the attrs section */
	struct perf_file_section attrs;
	struct perf_file_section data;
	struct perf_file_section event_types;	/* unused, zero */
	uint64_t adds_features[EMBER_FEAT_BITS / 64];
};

/* The older header without the feature bitmap. */
#define PERF_FILE_HEADER_SIZE_V0	offsetof(struct perf_file_header, adds_features)

/* Our own sizeof(struct perf_event_attr) and the sizes of perf's attr ABI versions. */
#define EMBER_ATTR_SIZE		((uint32_t)sizeof(struct perf_event_attr))
#define ATTR_SIZE_VER0		64

/* Largest record the u16 header.size allows. */
#define RECORD_MAX_SIZE		0xffffu

#define ALIGN_UP(x, a)		(((x) + (a) - 1) & ~((uint64_t)(a) - 1))

/* ember_record__name()'s names, for data_record_known(). */
extern const char *const data_record_names[EMBER_RECORD_TYPE_MAX];

/* ember_record__name(type) != NULL, inline: asked of every record. */
static inline int data_record_known(uint32_t type)
{
	return type < EMBER_RECORD_TYPE_MAX && data_record_names[type];
}

typedef uint64_t zero16_t __attribute__((vector_size(16), aligned(8), may_alias));

/*
 * memset(p, 0, size) for a small struct of constant size, as 16-byte
 * stores: gcc makes a memset of a struct (and a plain loop) a rep stos,
 * whose slow start costs more than the fields of a sample decoded every
 * record. The empty asm keeps gcc from seeing a memset in the loop.
 */
static inline void zero_small(void *p, size_t size)
{
	zero16_t *v = p, z = { 0, 0 };

	__asm__("" : "+x"(z));
#pragma GCC unroll 32
	for (size_t i = 0; i < size / 16; i++)
		v[i] = z;
	if (size % 16)
		memset((char *)p + size / 16 * 16, 0, size % 16);
}

/* Unaligned-safe loads and stores; they compile to plain moves on x86. */
static inline uint64_t get_u64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t get_u32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint16_t get_u16(const void *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

#endif
