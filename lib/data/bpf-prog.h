/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * BPF programs as perf keeps them (its bpf_prog_info_linear): a struct
 * bpf_prog_info whose array fields hold offsets into the data after it.
 * The BPF_PROG_INFO and BPF_BTF header features are lists of these and of
 * BTF blobs; record synthesizes them, the header printer reads them.
 */
#ifndef EMBER_LIB_DATA_BPF_PROG_H
#define EMBER_LIB_DATA_BPF_PROG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/bpf.h>
#include <ember/perf-data.h>

struct btf;

struct bpf_prog {
	struct bpf_prog_info info;
	const uint8_t *data;
	uint32_t data_len;
};

/* The array at offset off of p's data holding nr records of size bytes; NULL if not all there. */
const uint8_t *bpf_prog__array(const struct bpf_prog *p, uint64_t off, uint32_t nr,
			       uint32_t size);

/*
 * perf's name for p's function i (synthesize_bpf_prog_name()):
 * "bpf_prog_" + its tag in hex + "_" + its name in btf (may be NULL), or
 * the program's own name for a program of one function, or "F". Returns
 * the length written into buf (truncated to size - 1).
 */
size_t bpf_prog__name(const struct bpf_prog *p, struct btf *btf, uint32_t i, char *buf,
		      size_t size);

/* The BPF_PROG_INFO feature of env as perf 6.1's --header prints it. */
void bpf_prog_info__print(const struct ember_env *env, FILE *fp);

/* Whether the BPF_BTF blob holds the BTF of id: its bytes in *data, *size. */
bool bpf_btf__find(const struct ember_env_blob *blob, uint32_t id, const uint8_t **data,
		   uint32_t *size);

/* The BPF_BTF feature: "# btf info of id N" per BTF. */
void bpf_btf__print(const struct ember_env *env, FILE *fp);

#endif
