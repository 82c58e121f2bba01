// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The unwinder (see unwind.h): a Dwfl per process's maps, modules
 * reported on demand, and libdwfl's frame walk fed with the sample's
 * registers and stack copy.
 */
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "core/hash.h"
#include "core/hashtab.h"
#include "core/log.h"
#include "machine/map.h"
#include "symbol/build-id.h"
#include "symbol/dso.h"
#include "unwind/cfi-rules.h"
#include "unwind/unwind.h"

/* Processes whose Dwfl is kept: a direct-mapped cache by their maps. */
#define DWFL_SLOTS 16

/* perf's x86 register numbers (uapi asm/perf_regs.h) that DWARF numbers 0-16 name. */
enum { X86_AX, X86_BX, X86_CX, X86_DX, X86_SI, X86_DI, X86_BP, X86_SP, X86_IP, X86_R8 = 16 };
static const signed char dwarf_to_perf_x86_64[17] = {
	X86_AX, X86_DX, X86_CX, X86_BX, X86_SI, X86_DI, X86_BP, X86_SP,
	X86_R8, X86_R8 + 1, X86_R8 + 2, X86_R8 + 3, X86_R8 + 4, X86_R8 + 5, X86_R8 + 6, X86_R8 + 7,
	X86_IP,
};

/* What is warned about once. */
enum unwind_warning {
	WARN_REGS,	/* registers missing from the sample's mask */
	WARN_MODULE,	/* a mapped file that cannot be read (gone, or no ELF) */
	WARN_NR,
};

/* Modules a slot remembers as checked against their maps. */
#define MODULE_HITS 8

/*
 * A module checked against the map at its addresses (report_module()),
 * with what the walk needs of it: while the maps and the Dwfl's modules
 * stay as they were, an address in [lo, hi) is that map's and that
 * module's.
 */
struct module_hit {
	uint64_t lo, hi;
	Dwfl_Module *mod;
	const struct ember_dso *dso;
	Dwarf_CFI *cfi;			/* its .eh_frame (when cfi_read), NULL: none */
	Dwarf_Addr bias;
	bool cfi_read;
};

struct dwfl_slot {
	const struct maps *maps;	/* NULL: empty */
	Dwfl *dwfl;
	bool attached;
	bool foreign;		/* a module not x86_64's when attached: libdwfl's machine may not be */
	uint64_t gen;		/* the maps' generation the hits were checked in */
	struct module_hit hits[MODULE_HITS];
	unsigned int nr_hits, next_hit;
};

/* Per dso (the table's payload): whether its file reports, its fd for memory reads. */
struct dso_state {
	int fd;			/* -1 not opened (yet), -2 cannot be */
	int failed;		/* reporting it failed once: not tried again */
};

struct unwinder {
	struct dwfl_slot slots[DWFL_SLOTS];
	int vdso_fd;			/* our [vdso]'s image in a memfd; -1 not made, -2 cannot be */
	struct hashtab dsos;		/* dso pointer → struct dso_state payload */
	struct cfi_rules rules;		/* the frame rules at the pcs walked, by dso */
	bool libdwfl_only;		/* every walk libdwfl's (unwinder__set_own_walk()) */
	bool warned[WARN_NR];

	/* The sample being unwound. */
	struct dwfl_slot *slot;
	struct ember_thread *thread;
	const struct ember_sample *sm;
	uint64_t sp;
	bool have_sp;
	uint64_t *ips;
	unsigned int nr, max;
	bool stale;			/* a module no longer matches its map: rebuild */
	bool cut;			/* a frame's map could not be reported */
};

static char *debuginfo_path;

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

static void warn_once(struct unwinder *u, enum unwind_warning w, const char *fmt, const char *arg)
{
	if (u->warned[w])
		return;
	u->warned[w] = true;
	log__printf(EMBER_WARN, fmt, arg);
}

struct unwinder *unwinder__new(void)
{
	struct unwinder *u = calloc(1, sizeof(*u));

	if (u)
		u->vdso_fd = -1;
	if (u)
		u->dsos.stride = sizeof(struct hashtab_slot) + sizeof(struct dso_state);
	return u;
}

void unwinder__delete(struct unwinder *u)
{
	struct hashtab_slot *s;

	if (!u)
		return;
	for (int i = 0; i < DWFL_SLOTS; i++)
		if (u->slots[i].dwfl)
			dwfl_end(u->slots[i].dwfl);
	hashtab__for_each(&u->dsos, s) {
		struct dso_state *st = hashtab__payload(s);

		if (st->fd >= 0)
			close(st->fd);
	}
	hashtab__exit(&u->dsos);
	cfi_rules__exit(&u->rules);
	if (u->vdso_fd >= 0)
		close(u->vdso_fd);
	free(u);
}

void unwinder__set_own_walk(struct unwinder *u, bool on)
{
	u->libdwfl_only = !on;
}

bool unwind__reg_value(const struct ember_sample_regs *regs, int reg, uint64_t *val)
{
	uint64_t bit;

	if (reg < 0 || reg > 63 || !regs->abi || !regs->regs)
		return false;
	bit = 1ULL << reg;
	if (!(regs->mask & bit))
		return false;
	*val = regs->regs[__builtin_popcountll(regs->mask & (bit - 1))];
	return true;
}

/* The dso's state, made when new; NULL on ENOMEM. */
static struct dso_state *dso_state(struct unwinder *u, const struct ember_dso *dso)
{
	uint64_t key = (uintptr_t)dso, hash = hash_mix64(key);
	struct hashtab_slot *s;
	struct dso_state *st;

	if (hashtab__reserve(&u->dsos, 1))
		return NULL;
	s = hashtab__slot(&u->dsos, hash, hashtab__eq_hash, NULL);
	st = hashtab__payload(s);
	if (!s->val) {
		hashtab__fill(&u->dsos, s, hash, key);
		st->fd = -1;
		st->failed = 0;
	}
	return st;
}

/* Whether the dso names a file on disk (perf tries every dso; these are the ones that can be). */
static bool dso_is_file(const struct ember_dso *dso)
{
	return dso->kind == DSO_KIND_USER && dso->name[0] == '/';
}

/*
 * A new descriptor of our own [vdso]'s image (the kernel maps the same
 * one into every process of an ABI, as vdso.c says), or -1. perf reads
 * the copy its recorder left in the build-id cache; that is the second
 * choice here (dso_path()).
 */
static int vdso_fd(struct unwinder *u)
{
	size_t size = 0;
	void *image;

	if (u->vdso_fd == -1) {
		u->vdso_fd = -2;
		image = vdso__copy_self(&size);
		if (image) {
			int fd = memfd_create("[vdso]", MFD_CLOEXEC);

			if (fd >= 0 && write(fd, image, size) == (ssize_t)size)
				u->vdso_fd = fd;
			else if (fd >= 0)
				close(fd);
			free(image);
		}
	}
	return u->vdso_fd >= 0 ? dup(u->vdso_fd) : -1;
}

/*
 * Where the dso's ELF is, choice which (0, 1): its file under the symfs
 * (for the [vdso], our own image in *fd), then its copy in the build-id
 * cache; false when there is no such choice.
 */
static bool dso_path(struct unwinder *u, const struct ember_dso *dso, int which, char *buf,
		     size_t size, int *fd)
{
	char hex[BUILD_ID_HEX_MAX];
	bool vdso = dso->kind == DSO_KIND_VDSO;

	*fd = -1;
	if (which == 0 && vdso) {
		snprintf(buf, size, "%s", dso->name);
		*fd = vdso_fd(u);
		return *fd >= 0;
	}
	if (which == 0) {
		sym_conf__path(dso->conf, buf, size, dso->name);
		return true;
	}
	if (!dso->id.build_id_size || !dso->conf->buildid_dir[0])
		return false;
	build_id__hex(dso->id.build_id, dso->id.build_id_size, hex);
	if (vdso)
		return snprintf(buf, size, "%s/[vdso]/%s/vdso", dso->conf->buildid_dir, hex) <
		       (int)size;
	return snprintf(buf, size, "%s/.build-id/%.2s/%s/elf", dso->conf->buildid_dir, hex,
			hex + 2) < (int)size;
}

/* The module remembered for ip, checked in the maps as they are; NULL when none is. */
static struct module_hit *module_hit(struct unwinder *u, uint64_t ip)
{
	struct dwfl_slot *slot = u->slot;

	if (slot->gen != u->thread->maps->gen) {
		slot->gen = u->thread->maps->gen;
		slot->nr_hits = 0;
		return NULL;
	}
	for (unsigned int i = 0; i < slot->nr_hits; i++)
		if (ip - slot->hits[i].lo < slot->hits[i].hi - slot->hits[i].lo)
			return &slot->hits[i];
	return NULL;
}

/* Remembers mod, checked against map (see struct module_hit). */
static void remember_module(struct unwinder *u, const struct ember_map *map, Dwfl_Module *mod)
{
	struct dwfl_slot *slot = u->slot;
	struct module_hit *h;
	Dwarf_Addr low, high;

	if (slot->nr_hits < MODULE_HITS)
		h = &slot->hits[slot->nr_hits++];
	else
		h = &slot->hits[slot->next_hit++ % MODULE_HITS];
	dwfl_module_info(mod, NULL, &low, &high, NULL, NULL, NULL, NULL);
	h->lo = low > map->start ? low : map->start;
	h->hi = high < map->end ? high : map->end;
	h->mod = mod;
	h->dso = map->dso;
	h->cfi_read = false;
}

/*
 * Makes sure the module holding ip in dwfl is map's file at map's base
 * (perf's __report_module()). 0 when it is (or ip has no map: nothing to
 * report), -1 when the file cannot be reported; a module there for
 * another file or base marks the Dwfl stale (-1 too).
 */
static int report_module(struct unwinder *u, Dwfl *dwfl, uint64_t ip)
{
	struct ember_map *map;
	struct dso_state *st;
	Dwfl_Module *mod;
	Dwarf_Addr base;
	void **userdata;
	char path[PATH_MAX];

	if (module_hit(u, ip))
		return 0;
	map = maps__find(u->thread->maps, ip);
	if (!map || !map->dso)
		return 0;
	mod = dwfl_addrmodule(dwfl, ip);
	if (mod) {
		dwfl_module_info(mod, &userdata, &base, NULL, NULL, NULL, NULL, NULL);
		if (*userdata == map->dso && base == map->start - map->pgoff) {
			remember_module(u, map, mod);
			return 0;
		}
		u->stale = true;
		return -1;
	}
	st = dso_state(u, map->dso);
	if (!st)
		return -1;
	if (st->failed || (!dso_is_file(map->dso) && map->dso->kind != DSO_KIND_VDSO))
		return -1;
	dwfl_report_begin_add(dwfl);
	for (int which = 0, fd; !mod && which < 2; which++) {
		if (!dso_path(u, map->dso, which, path, sizeof(path), &fd))
			continue;
		mod = dwfl_report_elf(dwfl, map->dso->short_name, path, fd,
				      map->start - map->pgoff, false);
		/* consumed when reported */
		if (!mod && fd >= 0)
			close(fd);
	}
	dwfl_report_end(dwfl, NULL, NULL);
	/* what dwfl_addrmodule() answers may change with the modules: check again */
	u->slot->nr_hits = 0;
	if (!mod) {
		st->failed = 1;
		warn_once(u, WARN_MODULE, "cannot unwind through %s: not readable as ELF\n",
			  map->dso->name);
		return -1;
	}
	dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
	*userdata = map->dso;
	if (dwfl_addrmodule(dwfl, ip) != mod)
		return -1;
	remember_module(u, map, mod);
	return 0;
}

/* A word of the mapped file that holds addr (perf's access_dso_mem()). */
static bool read_file_word(struct unwinder *u, uint64_t addr, Dwarf_Word *result)
{
	struct ember_map *map = u->thread->maps ? maps__find(u->thread->maps, addr) : NULL;
	struct dso_state *st;
	char path[PATH_MAX];

	if (!map || !map->dso || !dso_is_file(map->dso) || map->identity ||
	    addr + sizeof(*result) > map->end)
		return false;
	st = dso_state(u, map->dso);
	if (!st || st->fd == -2)
		return false;
	if (st->fd == -1) {
		sym_conf__path(map->dso->conf, path, sizeof(path), map->dso->name);
		st->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (st->fd < 0) {
			st->fd = -2;
			return false;
		}
	}
	return pread(st->fd, result, sizeof(*result), (off_t)map__map_ip(map, addr)) ==
	       sizeof(*result);
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	return 0;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	*thread_argp = arg;
	return true;
}

/* A word of the sampled process's memory: the stack copy, else a mapped file. */
static inline bool read_word(struct unwinder *u, Dwarf_Addr addr, Dwarf_Word *result)
{
	uint64_t size = u->sm->user_stack.dyn_size;

	if (addr + sizeof(*result) < addr)
		return false;
	/*
	 * The copy's last word is not read from it: perf's libunwind reader
	 * (its unwinder here) stops a word short, and perf 6.1's frames are
	 * the ones to show (its libdw reader takes the word).
	 */
	if (u->have_sp && addr >= u->sp && addr + sizeof(*result) < u->sp + size &&
	    u->sp + size >= u->sp) {
		memcpy(result, (const char *)u->sm->user_stack.data + (addr - u->sp),
		       sizeof(*result));
		return true;
	}
	return read_file_word(u, addr, result);
}

/* libdwfl's memory_read callback: read_word(). */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	return read_word(arg, addr, result);
}

/* The sample's registers in DWARF order; a register the mask lacks reads 0, as perf reads it. */
static void initial_registers(struct unwinder *u, Dwarf_Word regs[CFI_NREGS])
{
	bool missing = false;

	for (int i = 0; i < CFI_NREGS; i++) {
		uint64_t v = 0;

		if (!unwind__reg_value(&u->sm->user_regs, dwarf_to_perf_x86_64[i], &v))
			missing = true;
		regs[i] = v;
	}
	if (missing)
		warn_once(u, WARN_REGS, "%s",
			  "dwarf unwinding: registers missing from the samples' user regs mask\n");
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	Dwarf_Word regs[CFI_NREGS];

	initial_registers(arg, regs);
	return dwfl_thread_state_registers(thread, 0, CFI_NREGS, regs);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/*
 * A frame's pc taken, adjusted already (a caller's return address - 1):
 * whether the walk goes on past it. A frame in a file that cannot be
 * reported is taken, and the walk ends there: libunwind's way, perf
 * 6.1's (libdw's drops the frame).
 */
static bool take_frame(struct unwinder *u, Dwfl *dwfl, uint64_t pc)
{
	u->cut = report_module(u, dwfl, pc) != 0;
	if (u->stale)
		return false;
	u->ips[u->nr++] = pc;
	return !u->cut && u->nr < u->max;
}

static int frame_callback(Dwfl_Frame *state, void *arg)
{
	struct unwinder *u = arg;
	Dwfl_Thread *t = dwfl_frame_thread(state);
	Dwfl *dwfl = dwfl_thread_dwfl(t);
	Dwarf_Addr pc;
	bool activation;

	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	/* the module first: whether the frame is an activation depends on its CFI */
	report_module(u, dwfl, pc);
	if (u->stale || !dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	if (!activation)
		pc--;
	return take_frame(u, dwfl, pc) ? DWARF_CB_OK : DWARF_CB_ABORT;
}

/* A frame of the unwinder's own walk: libdwfl's Dwfl_Frame registers. */
struct frame_regs {
	Dwarf_Word regs[CFI_NREGS];
	uint32_t set;		/* bit i: regs[i] is known */
};

/*
 * The caller of frame f by rule r, into caller, as libdwfl's
 * handle_cfi() computes it (each register in turn, a rule that fails
 * leaving its register unset); whether the caller has a pc (false: the
 * stack ends at f).
 */
static bool apply_rule(struct unwinder *u, const struct cfi_rule *r, const struct frame_regs *f,
		       struct frame_regs *caller)
{
	bool have_cfa = r->cfa_reg < CFI_NREGS && (f->set >> r->cfa_reg & 1);
	Dwarf_Word cfa = have_cfa ? f->regs[r->cfa_reg] + (uint64_t)r->cfa_off : 0, v;

	/* the callee's values: those not kept nor computed stay unset */
	memcpy(caller->regs, f->regs, sizeof(caller->regs));
	caller->set = f->set & r->same;
	for (unsigned int i = 0; i < r->nr_computed; i++) {
		const struct cfi_reg_rule *c = &r->computed[i];

		switch (c->how) {
		case CFI_REG:
			if (!(f->set >> c->off & 1))
				continue;
			v = f->regs[c->off];
			break;
		case CFI_AT_CFA:
			if (!have_cfa || !read_word(u, cfa + (uint64_t)c->off, &v))
				continue;
			break;
		case CFI_CFA_VAL:
			if (!have_cfa)
				continue;
			v = cfa + (uint64_t)c->off;
			break;
		default:
			continue;
		}
		caller->regs[c->reg] = v;
		caller->set |= 1U << c->reg;
	}
	/* libdwfl: an undefined or unknown return address, or 0, ends the stack */
	return !r->ra_undefined && (caller->set >> CFI_RA & 1) && caller->regs[CFI_RA];
}

/* What the unwinder's own walk of a frame needs libdwfl for. */
enum { STEP_CALLER, STEP_END, STEP_LIBDWFL };

/*
 * Frame f, whose CFI is looked up at pc (its own for the first frame,
 * else its return address - 1), unwound into caller by the rule cached
 * for pc: STEP_CALLER, STEP_END when the stack ends there, STEP_LIBDWFL
 * when the rule is not one kept (libdwfl would look further: .debug_frame,
 * then frame pointers), or -ENOMEM.
 */
static int step(struct unwinder *u, Dwfl *dwfl, uint64_t pc, const struct frame_regs *f,
		struct frame_regs *caller)
{
	struct module_hit *h = module_hit(u, pc);
	Dwfl_Module *mod = h ? h->mod : dwfl_addrmodule(dwfl, pc);
	const struct cfi_rule *r;
	Dwarf_CFI *cfi;
	Dwarf_Addr bias;
	void **userdata;
	const void *dso;

	if (!mod)
		return STEP_LIBDWFL;
	if (h && !h->cfi_read) {
		h->cfi = dwfl_module_eh_cfi(mod, &h->bias);
		h->cfi_read = true;
	}
	if (h) {
		cfi = h->cfi;
		bias = h->bias;
		dso = h->dso;
	} else {
		cfi = dwfl_module_eh_cfi(mod, &bias);
		dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
		dso = *userdata;
	}
	if (!cfi)
		return STEP_LIBDWFL;
	r = cfi_rules__find(&u->rules, dso, cfi, pc - bias);
	if (!r)
		return -ENOMEM;
	if (!r->walkable)
		return STEP_LIBDWFL;
	return apply_rule(u, r, f, caller) ? STEP_CALLER : STEP_END;
}

/*
 * The walk of dwfl_getthread_frames() and frame_callback() with the
 * rules cached per pc instead of libdwfl's frames: the same modules
 * reported in the same order, the same registers and memory read, the
 * same frames taken. Returns the number of frames, -EAGAIN (a stale
 * module), -ENOMEM, or -EOPNOTSUPP where a frame needs libdwfl (the walk
 * is then done again by libdwfl, from the start). The first frame is
 * reported already.
 */
static int fast_walk(struct unwinder *u, Dwfl *dwfl, uint64_t ip)
{
	struct frame_regs frames[2], *f = &frames[0], *caller = &frames[1], *tmp;
	uint64_t pc = ip;
	int ret;

	initial_registers(u, f->regs);
	f->set = (1U << CFI_NREGS) - 1;
	/* the first frame: an activation, unwound from its own pc once taken */
	report_module(u, dwfl, pc);
	if (u->stale)
		return -EAGAIN;
	if (!take_frame(u, dwfl, pc))
		return u->stale ? -EAGAIN : (int)u->nr;
	ret = step(u, dwfl, pc, f, caller);
	while (ret == STEP_CALLER) {
		tmp = f;
		f = caller;
		caller = tmp;
		pc = f->regs[CFI_RA];
		report_module(u, dwfl, pc);
		if (u->stale)
			return -EAGAIN;
		/*
		 * Whether it is an activation: not unless the caller is a
		 * signal frame, which is libdwfl's to unwind. Its CFI is at
		 * the return address - 1.
		 */
		ret = step(u, dwfl, pc - 1, f, caller);
		if (ret < 0 || ret == STEP_LIBDWFL)
			break;
		if (!take_frame(u, dwfl, pc - 1))
			return u->stale ? -EAGAIN : (int)u->nr;
	}
	if (ret < 0)
		return ret;
	return ret == STEP_LIBDWFL ? -EOPNOTSUPP : (int)u->nr;
}

/* The Dwfl kept for the thread's process, made when there is none. */
static struct dwfl_slot *dwfl_slot(struct unwinder *u, bool renew)
{
	const struct maps *maps = u->thread->maps;
	struct dwfl_slot *slot = &u->slots[hash_mix64((uintptr_t)maps) % DWFL_SLOTS];

	if (slot->maps == maps && slot->dwfl && !renew)
		return slot;
	if (slot->dwfl)
		dwfl_end(slot->dwfl);
	slot->dwfl = dwfl_begin(&offline_callbacks);
	slot->maps = slot->dwfl ? maps : NULL;
	slot->attached = false;
	slot->foreign = false;
	slot->nr_hits = 0;
	return slot->dwfl ? slot : NULL;
}

/*
 * Of dwfl_getmodules(): counts the modules that are not x86_64 files
 * (libdwfl unwinds with the machine of the first module it can read
 * when attached, and the unwinder's own walk knows x86_64's alone).
 */
static int count_foreign(Dwfl_Module *mod, void **userdata, const char *name, Dwarf_Addr start,
			 void *arg)
{
	Dwarf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	GElf_Ehdr ehdr;

	if (!elf || !gelf_getehdr(elf, &ehdr) || ehdr.e_machine != EM_X86_64 ||
	    ehdr.e_ident[EI_CLASS] != ELFCLASS64)
		++*(int *)arg;
	return DWARF_CB_OK;
}

/*
 * One walk; -EAGAIN when a module turned out stale (the slot must be
 * renewed). The sampled ip is the first frame even where no walk can
 * start (see unwind.h). The unwinder's own walk first, libdwfl's where
 * that needs it.
 */
static int walk(struct unwinder *u, struct dwfl_slot *slot, uint64_t ip)
{
	int err, foreign = 0;

	u->nr = 0;
	u->stale = false;
	u->cut = false;
	u->ips[0] = ip;
	u->slot = slot;
	if (report_module(u, slot->dwfl, ip))
		return u->stale ? -EAGAIN : 1;
	if (!slot->attached) {
		/* EM_NONE: the machine of the modules reported */
		if (!dwfl_attach_state(slot->dwfl, NULL, u->thread->pid > 0 ? u->thread->pid : 1,
				       &thread_callbacks, u))
			return 1;
		slot->attached = true;
		dwfl_getmodules(slot->dwfl, count_foreign, &foreign, 0);
		slot->foreign = foreign;
	}
	err = slot->foreign || u->libdwfl_only ? -EOPNOTSUPP : fast_walk(u, slot->dwfl, ip);
	if (err != -EOPNOTSUPP)
		return err;
	u->nr = 0;
	u->cut = false;
	err = dwfl_getthread_frames(slot->dwfl, u->thread->tid > 0 ? u->thread->tid : 1,
				    frame_callback, u);
	if (u->stale)
		return -EAGAIN;
	/* the end of the copy or of the CFI: common, and perf says it only in -v */
	if (err < 0 && !u->cut)
		pr_debug("unwind: stopped after %u frames: %s\n", u->nr, dwfl_errmsg(-1));
	return u->nr ? (int)u->nr : 1;
}

int unwinder__unwind(struct unwinder *u, struct ember_thread *thread,
		     const struct ember_sample *sm, uint64_t *ips, unsigned int max)
{
	struct dwfl_slot *slot;
	uint64_t ip;
	int n;

	if (!max || !thread->maps || sm->user_regs.abi != PERF_SAMPLE_REGS_ABI_64 ||
	    !unwind__reg_value(&sm->user_regs, X86_IP, &ip) || !ip)
		return 0;
	u->thread = thread;
	u->sm = sm;
	u->have_sp = unwind__reg_value(&sm->user_regs, X86_SP, &u->sp);
	u->ips = ips;
	u->max = max;
	slot = dwfl_slot(u, false);
	if (!slot)
		return -ENOMEM;
	n = walk(u, slot, ip);
	if (n == -EAGAIN) {
		/* a map replaced since the Dwfl saw it: start again with a new one */
		slot = dwfl_slot(u, true);
		if (!slot)
			return -ENOMEM;
		n = walk(u, slot, ip);
		if (n < 0)
			n = 1;
	}
	u->thread = NULL;
	u->sm = NULL;
	return n;
}
