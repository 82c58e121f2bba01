/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * lib/probe's variables from DWARF, shared by the argument converter
 * (dwarf-var.c), the member and type conversions (dwarf-var-fields.c)
 * and -V's listing (dwarf-var-list.c): a fetch argument being built, the
 * context of one place, and perf's messages.
 */
#ifndef EMBER_LIB_PROBE_DWARF_VAR_H
#define EMBER_LIB_PROBE_DWARF_VAR_H

#include <stdbool.h>
#include <elfutils/libdw.h>
#include <ember/probe.h>
#include "probe/dwarf-file.h"
#include "probe/probe-priv.h"

/* Dereferences one argument may take: a member or index each, a string, the location's. */
#define MAX_REFS (EMBER_PROBE_MAX_FIELDS + 3)

/* A fetch argument being built: a base, then dereferences with offsets. */
struct fetch {
	bool konst;		/* DW_AT_const_value: the immediate \value */
	long value;
	unsigned int regno;	/* the DWARF register the kernel has no name for */
	const char *reg;	/* "%di", or NULL for a static address */
	Dwarf_Addr addr;	/* the static's DWARF address */
	long offs[MAX_REFS];	/* offs[0] innermost: a register's +OFF(...), or added to addr */
	bool user[MAX_REFS];	/* +uOFF(...): a dereference a member made under @user */
	int nref;
	char type[48];
};

/* The context of one place. */
struct place {
	struct ember_probe_dwarf *d;
	Dwarf_Die cu, scope, sp;
	Dwarf_Addr addr;
	Dwarf_Op *fb;		/* the frame base, or NULL */
	size_t nfb;
	bool range;		/* -V --range: locals placed later count, as -ERANGE */
};

/* A DIE's name, "(null)" without one (as perf prints it). */
const char *probe_var__name(Dwarf_Die *die);

/*
 * The place of trace t: its DWARF address, the scope of func there (see
 * probe_dwarf__scope()), the frame base. 0, -ENOENT, -ENOMEM.
 */
int probe_var__place(struct ember_probe_dwarf *d, const struct ember_probe_trace *t,
		     const char *func, struct place *p);

/*
 * perf's convert_variable_location(): the location of var at the place,
 * into f when not NULL. 0, -ERANGE (with p->range: a local placed only
 * later), -ENOENT / -EINVAL (no location there), -ENOTSUP (a form perf
 * does not read), -EDOM (a register the kernel has no name for: f->regno).
 */
int probe_var__location(struct place *p, Dwarf_Die *var, struct fetch *f);

/*
 * perf's convert_variable_fields(): the member and element accesses
 * fields ("->a.b[2]") from var (named varname) into f; *last gets the die
 * whose type the result has; with user (VAR@user), the dereferences they
 * make or move read user memory (+u). 0 or -errno, perf's words in m.
 */
int probe_var__fields(Dwarf_Die *var, const char *varname, const char *fields, bool user,
		      struct fetch *f, Dwarf_Die *last, struct probe_sbuf *m);

/* perf's convert_variable_type(): f's type from die's, cast as asked. 0 or -errno, words in m. */
int probe_var__type(Dwarf_Die *die, const char *cast, struct fetch *f, struct probe_sbuf *m);

#endif
