// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The BPF_PROG_INFO feature as perf 6.1's header prints it: per program,
 * by id, "# bpf_prog_info ID: NAME addr 0x... size N" (or one
 * "# \tsub_prog I: ..." line per function of a program of several), NAME
 * being "bpf_prog_" + the function's tag in hex + "_" + its BTF name (or
 * the program's own name, for a program of one function without BTF).
 *
 * On disk, per program: u32 info_len, u32 data_len, u64 arrays, a struct
 * bpf_prog_info of info_len bytes whose array fields hold offsets into
 * the data that follows (perf's bpil_addr_to_offs()), then data_len
 * bytes. Each array is checked against the data before it is read: perf
 * trusts them.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpf/btf.h>
#include "data/bpf-prog.h"
#include "data/format.h"

const uint8_t *bpf_prog__array(const struct bpf_prog *p, uint64_t off, uint32_t nr,
			       uint32_t size)
{
	if (!nr || !size || off > p->data_len || (uint64_t)nr * size > p->data_len - off)
		return NULL;
	return p->data + off;
}

/*
 * The BPF_BTF feature's entries ({ u32 id, u32 size, data }, after a u32
 * count) one by one from *q: 1 and the entry while one fits in the blob.
 */
static int next_btf(const struct ember_env_blob *blob, const uint8_t **q, uint32_t *id,
		    const uint8_t **data, uint32_t *size)
{
	const uint8_t *end = blob->data + blob->size;

	if (end - *q < 8)
		return 0;
	*id = get_u32(*q);
	*size = get_u32(*q + 4);
	if (*size > (size_t)(end - *q - 8))
		return 0;
	*data = *q + 8;
	*q += 8 + (size_t)*size;
	return 1;
}

bool bpf_btf__find(const struct ember_env_blob *blob, uint32_t id, const uint8_t **data,
		   uint32_t *size)
{
	const uint8_t *q;
	uint32_t nr, bid;

	if (blob->size < 4)
		return false;
	q = blob->data + 4;
	nr = get_u32(blob->data);
	while (nr-- && next_btf(blob, &q, &bid, data, size))
		if (bid == id)
			return true;
	return false;
}

/* The BTF of id, or NULL. */
static struct btf *find_btf(const struct ember_env_blob *blob, uint32_t id)
{
	const uint8_t *data;
	uint32_t size;

	return bpf_btf__find(blob, id, &data, &size) ? btf__new(data, size) : NULL;
}

void bpf_btf__print(const struct ember_env *env, FILE *fp)
{
	const struct ember_env_blob *blob = &env->bpf_btf;
	const uint8_t *q, *data;
	uint32_t nr, id, size;

	if (blob->size < 4)
		return;
	q = blob->data + 4;
	nr = get_u32(blob->data);
	while (nr-- && next_btf(blob, &q, &id, &data, &size))
		fprintf(fp, "# btf info of id %u\n", id);
}

size_t bpf_prog__name(const struct bpf_prog *p, struct btf *btf, uint32_t i, char *buf,
		      size_t size)
{
	const struct bpf_prog_info *info = &p->info;
	const uint8_t *tags = bpf_prog__array(p, info->prog_tags, info->nr_prog_tags, BPF_TAG_SIZE);
	const uint8_t *finfo = bpf_prog__array(p, info->func_info, info->nr_func_info,
					       info->func_info_rec_size);
	const char *short_name = NULL;
	size_t len = snprintf(buf, size, "bpf_prog_");

	for (int b = 0; tags && i < info->nr_prog_tags && b < BPF_TAG_SIZE && len < size; b++)
		len += snprintf(buf + len, size - len, "%02x", tags[i * BPF_TAG_SIZE + b]);
	if (btf && finfo && i < info->nr_func_info && info->func_info_rec_size >= 8) {
		const struct btf_type *t = btf__type_by_id(btf, get_u32(finfo + (size_t)i *
							   info->func_info_rec_size + 4));

		short_name = t ? btf__name_by_offset(btf, t->name_off) : NULL;
	} else if (i == 0 && info->nr_jited_ksyms == 1) {
		if (info->name[0])
			short_name = info->name;
	} else {
		short_name = "F";
	}
	if (short_name && len < size)
		len += snprintf(buf + len, size - len, "_%s", short_name);
	return len < size ? len : size - 1;
}

static void print_prog(const struct bpf_prog *p, const struct ember_env_blob *btfs, FILE *fp)
{
	const struct bpf_prog_info *info = &p->info;
	uint32_t n = info->nr_jited_ksyms;
	const uint8_t *addrs = bpf_prog__array(p, info->jited_ksyms, n, 8);
	const uint8_t *lens = bpf_prog__array(p, info->jited_func_lens, n, 4);
	const uint8_t *tags = bpf_prog__array(p, info->prog_tags, n, BPF_TAG_SIZE);
	struct btf *btf = NULL;
	char name[256];

	if (n != info->nr_prog_tags || n != info->nr_jited_func_lens || !addrs || !lens || !tags)
		return;
	if (info->btf_id)
		btf = find_btf(btfs, info->btf_id);
	if (n == 1) {
		bpf_prog__name(p, btf, 0, name, sizeof(name));
		fprintf(fp, "# bpf_prog_info %u: %s addr 0x%" PRIx64 " size %u\n", info->id, name,
			get_u64(addrs), get_u32(lens));
	} else {
		fprintf(fp, "# bpf_prog_info %u:\n", info->id);
		for (uint32_t i = 0; i < n; i++) {
			bpf_prog__name(p, btf, i, name, sizeof(name));
			fprintf(fp, "# \tsub_prog %u: %s addr 0x%" PRIx64 " size %u\n", i, name,
				get_u64(addrs + 8 * (size_t)i), get_u32(lens + 4 * (size_t)i));
		}
	}
	btf__free(btf);
}

static int by_id(const void *a, const void *b)
{
	const struct bpf_prog *x = a, *y = b;

	return x->info.id < y->info.id ? -1 : x->info.id > y->info.id;
}

void bpf_prog_info__print(const struct ember_env *env, FILE *fp)
{
	const struct ember_env_blob *blob = &env->bpf_prog_info;
	const uint8_t *q, *end;
	uint32_t nr;
	struct bpf_prog *progs;
	size_t n = 0;

	if (blob->size < 4)
		return;
	q = blob->data;
	end = q + blob->size;
	nr = get_u32(q);
	/* each program takes 16 bytes at least: the count is bounded by the blob */
	if (nr > blob->size / 16)
		nr = blob->size / 16;
	progs = calloc(nr ? nr : 1, sizeof(*progs));
	if (!progs)
		return;
	for (q += 4; n < nr && end - q >= 16; n++) {
		uint32_t info_len = get_u32(q), data_len = get_u32(q + 4);

		/* perf: an info longer than the struct it knows is invalid, and so the rest */
		if (info_len > sizeof(struct bpf_prog_info) ||
		    (uint64_t)info_len + data_len > (uint64_t)(end - q - 16))
			break;
		memcpy(&progs[n].info, q + 16, info_len);
		progs[n].data = q + 16 + info_len;
		progs[n].data_len = data_len;
		q += 16 + info_len + data_len;
	}
	qsort(progs, n, sizeof(*progs), by_id);
	for (size_t i = 0; i < n; i++)
		print_prog(&progs[i], &env->bpf_btf, fp);
	free(progs);
}
