// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The BPF programs loaded when a recording starts, as perf 6.1's
 * perf_event__synthesize_bpf_events() writes them: per program, a
 * PERF_RECORD_KSYMBOL for each of its functions (perf's name for it, its
 * jitted address and length), then one PERF_RECORD_BPF_EVENT (PROG_LOAD,
 * id, tag); and, for the header, the program's info with the arrays perf
 * asks for laid out after it (BPF_PROG_INFO) and its BTF (BPF_BTF), so
 * that samples in BPF code and `--header` name the programs. Without the
 * privilege to list programs there is nothing to write, as with perf.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "data/bpf-prog.h"
#include "synth-int.h"

#ifndef PERF_RECORD_KSYMBOL_TYPE_BPF
#define PERF_RECORD_KSYMBOL_TYPE_BPF 1
#endif
#ifndef PERF_BPF_EVENT_PROG_LOAD
#define PERF_BPF_EVENT_PROG_LOAD 1
#endif

struct synth_ksymbol {
	struct perf_event_header header;
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type, flags;
	char name[];
};

struct synth_bpf_event {
	struct perf_event_header header;
	uint16_t type, flags;
	uint32_t id;
	uint8_t tag[BPF_TAG_SIZE];
};

/*
 * The arrays perf's perf_event__synthesize_one_bpf_prog() asks for, in
 * its order (enum perf_bpil_array_types): the field holding the array,
 * its count, and its record size (a field, or fixed when size_field < 0).
 */
static const struct bpil_array {
	int bit;
	size_t array, count;
	long size_field;
	uint32_t size;
} arrays[] = {
	{ 0, offsetof(struct bpf_prog_info, jited_prog_insns),
	  offsetof(struct bpf_prog_info, jited_prog_len), -1, 1 },
	{ 3, offsetof(struct bpf_prog_info, jited_ksyms),
	  offsetof(struct bpf_prog_info, nr_jited_ksyms), -1, 8 },
	{ 4, offsetof(struct bpf_prog_info, jited_func_lens),
	  offsetof(struct bpf_prog_info, nr_jited_func_lens), -1, 4 },
	{ 5, offsetof(struct bpf_prog_info, func_info),
	  offsetof(struct bpf_prog_info, nr_func_info),
	  offsetof(struct bpf_prog_info, func_info_rec_size), 0 },
	{ 6, offsetof(struct bpf_prog_info, line_info),
	  offsetof(struct bpf_prog_info, nr_line_info),
	  offsetof(struct bpf_prog_info, line_info_rec_size), 0 },
	{ 7, offsetof(struct bpf_prog_info, jited_line_info),
	  offsetof(struct bpf_prog_info, nr_jited_line_info),
	  offsetof(struct bpf_prog_info, jited_line_info_rec_size), 0 },
	{ 8, offsetof(struct bpf_prog_info, prog_tags),
	  offsetof(struct bpf_prog_info, nr_prog_tags), -1, BPF_TAG_SIZE },
};

static uint32_t get_field(const struct bpf_prog_info *info, size_t off)
{
	uint32_t v;

	memcpy(&v, (const char *)info + off, sizeof(v));
	return v;
}

static void set_u32(struct bpf_prog_info *info, size_t off, uint32_t v)
{
	memcpy((char *)info + off, &v, sizeof(v));
}

static void set_u64(struct bpf_prog_info *info, size_t off, uint64_t v)
{
	memcpy((char *)info + off, &v, sizeof(v));
}

static uint32_t rec_size(const struct bpf_prog_info *info, const struct bpil_array *a)
{
	return a->size_field < 0 ? a->size : get_field(info, (size_t)a->size_field);
}

/*
 * perf's get_bpf_prog_info_linear(): the info of fd with each array in
 * data at an offset of it (the info's array fields hold the offsets), the
 * data 8-byte aligned. 0, or -errno; data is malloc'd.
 */
static int prog_linear(int fd, struct bpf_prog_info *info, uint8_t **data, uint32_t *data_len,
		       uint64_t *bits)
{
	struct bpf_prog_info dims = { 0 };
	uint32_t len = sizeof(dims);
	uint64_t total = 0, off = 0;

	*data = NULL;
	*bits = 0;
	if (bpf_obj_get_info_by_fd(fd, &dims, &len))
		return -errno;
	for (size_t i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++)
		total += (uint64_t)get_field(&dims, arrays[i].count) * rec_size(&dims, &arrays[i]);
	total = (total + 7) & ~(uint64_t)7;
	/* the kernel's counts: a program's arrays stay well within a record's reach */
	if (total > UINT32_MAX / 2)
		return -E2BIG;
	*data = calloc(1, total ? total : 1);
	if (!*data)
		return -ENOMEM;
	memset(info, 0, sizeof(*info));
	for (size_t i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++) {
		const struct bpil_array *a = &arrays[i];
		uint32_t count = get_field(&dims, a->count), size = rec_size(&dims, a);

		set_u32(info, a->count, count);
		if (a->size_field >= 0)
			set_u32(info, (size_t)a->size_field, size);
		set_u64(info, a->array, (uint64_t)(uintptr_t)(*data + off));
		off += (uint64_t)count * size;
		*bits |= 1ULL << a->bit;
	}
	len = sizeof(*info);
	if (bpf_obj_get_info_by_fd(fd, info, &len)) {
		int err = -errno;

		free(*data);
		*data = NULL;
		return err;
	}
	/* the arrays' addresses back to offsets into data (perf's bpil_addr_to_offs) */
	for (size_t i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++) {
		uint64_t addr;

		memcpy(&addr, (char *)info + arrays[i].array, sizeof(addr));
		set_u64(info, arrays[i].array, addr - (uint64_t)(uintptr_t)*data);
	}
	*data_len = (uint32_t)total;
	return 0;
}

static int blob_append(struct ember_env_blob *b, const void *p, size_t n)
{
	void *v = realloc(b->data, b->size + n);

	if (!v)
		return -ENOMEM;
	memcpy((char *)v + b->size, p, n);
	b->data = v;
	b->size += n;
	return 0;
}

struct part {
	const void *p;
	size_t n;
};

/* Adds an entry (its parts one after the other) to a blob that starts with its u32 count. */
static int blob_add(struct ember_env_blob *b, const struct part *parts, int nr)
{
	uint32_t count = 0;
	int err;

	if (b->size < 4) {
		free(b->data);
		b->data = NULL;
		b->size = 0;
		if ((err = blob_append(b, &count, 4)))
			return err;
	}
	for (int i = 0; i < nr; i++)
		if ((err = blob_append(b, parts[i].p, parts[i].n)))
			return err;
	memcpy(&count, b->data, 4);
	count++;
	memcpy(b->data, &count, 4);
	return 0;
}

/* The BTF of id, for the program's names and BPF_BTF (once per id). */
static struct btf *prog_btf(uint32_t id, struct ember_env_blob *btfs)
{
	struct btf *btf = btf__load_from_kernel_by_id(id);
	const uint8_t *kept;
	const void *raw;
	uint32_t size;

	if (!btf || libbpf_get_error(btf))
		return NULL;
	/* kept once per id */
	if (bpf_btf__find(btfs, id, &kept, &size))
		return btf;
	raw = btf__raw_data(btf, &size);
	if (raw) {
		uint32_t head[2] = { id, size };
		const struct part parts[] = { { head, sizeof(head) }, { raw, size } };

		if (blob_add(btfs, parts, 2)) {
			btf__free(btf);
			return NULL;
		}
	}
	return btf;
}

static int one_program(struct ember_synth *s, int fd, struct ember_env_blob *infos,
		       struct ember_env_blob *btfs)
{
	union synth_buf buf;
	struct bpf_prog p = { 0 };
	struct btf *btf = NULL;
	uint8_t *data;
	uint64_t bits;
	uint32_t n;
	int err = prog_linear(fd, &p.info, &data, &p.data_len, &bits);

	if (err)
		return err == -ENOMEM ? err : 0;
	p.data = data;
	n = p.info.nr_jited_ksyms;
	/* perf: the functions' addresses, lengths and tags go together */
	if (n != p.info.nr_prog_tags || n != p.info.nr_jited_func_lens)
		goto out;
	if (p.info.btf_id && p.info.nr_func_info && p.info.func_info_rec_size) {
		if (n != p.info.nr_func_info)
			goto out;
		btf = prog_btf(p.info.btf_id, btfs);
		if (!btf)
			goto out;
	}
	for (uint32_t i = 0; i < n && !err; i++) {
		struct synth_ksymbol *k = (struct synth_ksymbol *)&buf;
		const uint8_t *addrs = bpf_prog__array(&p, p.info.jited_ksyms, n, 8);
		const uint8_t *lens = bpf_prog__array(&p, p.info.jited_func_lens, n, 4);
		size_t len;

		memset(k, 0, sizeof(*k));
		k->header.type = PERF_RECORD_KSYMBOL;
		memcpy(&k->addr, addrs + 8 * (size_t)i, 8);
		memcpy(&k->len, lens + 4 * (size_t)i, 4);
		k->ksym_type = PERF_RECORD_KSYMBOL_TYPE_BPF;
		len = bpf_prog__name(&p, btf, i, k->name, 512);
		err = synth__emit(s, &buf, offsetof(struct synth_ksymbol, name) + len + 1);
	}
	if (!err) {
		struct synth_bpf_event *e = (struct synth_bpf_event *)&buf;
		uint32_t head[2] = { sizeof(p.info), p.data_len };

		memset(e, 0, sizeof(*e));
		e->header.type = PERF_RECORD_BPF_EVENT;
		e->type = PERF_BPF_EVENT_PROG_LOAD;
		e->id = p.info.id;
		memcpy(e->tag, p.info.tag, BPF_TAG_SIZE);
		/* the header's entry: info_len, data_len, the arrays' bits, info, data */
		const struct part parts[] = { { head, sizeof(head) }, { &bits, sizeof(bits) },
					      { &p.info, sizeof(p.info) }, { data, p.data_len } };

		err = blob_add(infos, parts, 4);
		err = err ? err : synth__emit(s, &buf, sizeof(*e));
	}
out:
	btf__free(btf);
	free(data);
	return err;
}

int ember_synth__bpf_programs(struct ember_synth *s, struct ember_env_blob *infos,
			      struct ember_env_blob *btfs)
{
	uint32_t id = 0;
	int err = 0;

	while (!err) {
		int fd;

		if (bpf_prog_get_next_id(id, &id)) {
			/* the end; or no privilege, an old kernel: nothing to write, as perf */
			return errno == ENOENT || errno == EPERM || errno == EINVAL ||
			       errno == EACCES ? 0 : -errno;
		}
		fd = bpf_prog_get_fd_by_id(id);
		if (fd < 0)
			continue;
		err = one_program(s, fd, infos, btfs);
		close(fd);
	}
	return err;
}
