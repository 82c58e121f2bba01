# SPDX-License-Identifier: GPL-2.0-only
# ember — one build, out of tree into build/.
#   make            build libember (static + shared) and the ember command
#   make check      install missing deps, build, run every test
#   make demo       install missing deps, build, run ember on the bundled workload
#   make bench      compare ember with perf on the same inputs (ratios)
#   make fuzz       run each libFuzzer target in fuzz/ for FUZZ_TIME seconds (doc/FUZZING.md)
#   make check SANITIZE=1   the same suite, everything built with ASan and UBSan
#   make install    honours PREFIX and DESTDIR (also libember.pc for pkg-config)
#   make examples   build examples/ against the library installed into build/sdk

VERSION   := 0.1.0
PREFIX    ?= /usr/local
DESTDIR   ?=
BUILD     ?= build
CC        ?= cc
PKGS      := libelf libdw libtraceevent capstone libbpf
WERROR    ?= -Werror

# SANITIZE=1: the whole build and `make check` under ASan and UBSan, in build-san/
# unless BUILD is given too.
ifeq ($(SANITIZE),1)
SANFLAGS  := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
ifeq ($(origin BUILD),file)
BUILD     := build-san
endif
# Tests build their helpers with `cc ... libember.a`: under SANITIZE=1 they run with a cc
# first in PATH that adds the sanitizers to any link against libember (see $(SAN_CC)).
SAN_CC    := $(BUILD)/san-bin/cc
CHECK_ENV := PATH="$(abspath $(BUILD))/san-bin:$$PATH" \
	     LSAN_OPTIONS=suppressions=$(abspath fuzz/lsan.supp):print_suppressions=0
endif

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# -Ilib is for lib/'s own internal headers. src/ reaches libember through
# <ember/...> alone, except lib/core's utility headers (hash table, arena,
# clock, escapers, atomic file), which the command shares; lib/<module>s use
# only the modules below them. tests/e2e/lib-layers.sh checks both.
CFLAGS    ?= -O2 -g
CFLAGS    += -std=gnu11 -Wall -Wextra $(WERROR) -Wno-unused-parameter -Wno-missing-field-initializers \
	     -fno-omit-frame-pointer -D_GNU_SOURCE -DEMBER_VERSION='"$(VERSION)"' \
	     -Iinclude -Ilib -Isrc -I$(BUILD)/gen $(SANFLAGS) $(PKG_CFLAGS)

# What the build has, each named by the macro perf's `version --build-options`
# shows it by, defined when the compiler finds the header the code includes;
# `ember version --build-options` lists them from these defines.
have_header = $(shell printf '\043include <%s>\n' '$(1)' | \
	$(CC) $(PKG_CFLAGS) -E -x c - >/dev/null 2>&1 && echo '-D$(2)')
FEATURES  := $(call have_header,elfutils/libdwfl.h,HAVE_DWARF_SUPPORT) \
	     $(call have_header,gelf.h,HAVE_LIBELF_SUPPORT) \
	     $(call have_header,traceevent/event-parse.h,HAVE_LIBTRACEEVENT) \
	     $(call have_header,zstd.h,HAVE_ZSTD_SUPPORT) \
	     $(call have_header,capstone/capstone.h,HAVE_LIBCAPSTONE_SUPPORT)
CFLAGS    += $(strip $(FEATURES))
LDFLAGS   += $(SANFLAGS)
LIBS      := $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lelf -ldw -ltraceevent -lcapstone -lbpf) -lm

# libiberty demangles C++ and Rust as Debian's perf does.
ifneq ($(wildcard /usr/include/libiberty/demangle.h),)
CFLAGS    += -DHAVE_LIBIBERTY
LIBS      += -liberty
endif

# The command's browsers (src/tui/) draw with ncurses; libember does not link it.
CMD_LIBS  := $(shell pkg-config --libs ncursesw 2>/dev/null || echo -lncursesw -ltinfo)

LIB_SRCS  := $(sort $(filter-out %.bpf.c,$(wildcard lib/*/*.c)))
BPF_SRCS  := $(sort $(wildcard lib/*/*.bpf.c))
CMD_SRCS  := $(sort $(wildcard src/*.c src/*/*.c))
UNIT_SRCS := $(sort $(wildcard tests/unit/*.c))
WL_SRCS   := $(sort $(wildcard tests/workloads/*.c))

LIB_PIC   := $(LIB_SRCS:%.c=$(BUILD)/pic/%.o)
LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/%.o)
CMD_OBJS  := $(CMD_SRCS:%.c=$(BUILD)/%.o)
UNIT_OBJS := $(UNIT_SRCS:%.c=$(BUILD)/%.o)
WORKLOADS := $(WL_SRCS:tests/workloads/%.c=$(BUILD)/workloads/%)

# Generated headers in $(BUILD)/gen: each BPF program's skeleton (lib/M/NAME.bpf.c ->
# NAME.skel.h) and the syscall table from the installed kernel headers.
SKELS     := $(foreach f,$(BPF_SRCS),$(BUILD)/gen/$(notdir $(f:.bpf.c=.skel.h)))
GEN_HDRS  := $(SKELS) $(BUILD)/gen/syscall-table.h $(BUILD)/gen/errno-table.h \
	     $(BUILD)/gen/prctl-table.h

LIBA      := $(BUILD)/libember.a
LIBSO     := $(BUILD)/libember.so.0
EMBER     := $(BUILD)/ember
UNIT      := $(BUILD)/unit-tests

# Fuzz targets (fuzz/fuzz-NAME.c, one LLVMFuzzerTestOneInput each). `make check` replays
# their corpora and saved crashes through build/fuzz-replay/NAME, built by $(CC) like the
# rest; `make fuzz` builds them with clang and libFuzzer into $(FUZZ_BUILD) and runs them.
FUZZ_SRCS := $(sort $(wildcard fuzz/fuzz-*.c))
FUZZ_NAMES := $(FUZZ_SRCS:fuzz/fuzz-%.c=%)
REPLAYS   := $(FUZZ_NAMES:%=$(BUILD)/fuzz-replay/%)

all: $(EMBER) $(LIBA) $(LIBSO) $(WORKLOADS)

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/pic/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fPIC -fvisibility=hidden -MMD -MP -c $< -o $@

# ---- generated headers
# BPF programs: clang -target bpf, then bpftool's skeleton (the object embedded in a header).
BPF_CC    ?= clang
BPFTOOL   ?= bpftool
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Werror -Ilib \
	     $(if $(MULTIARCH),-I/usr/include/$(MULTIARCH))

vpath %.bpf.c $(sort $(dir $(BPF_SRCS)))
$(BUILD)/bpf/%.bpf.o: %.bpf.c
	@mkdir -p $(@D)
	$(BPF_CC) $(BPF_CFLAGS) -MMD -MP -c $< -o $@

# kept: make would delete them as intermediates, then rebuild them for nothing
.SECONDARY: $(foreach f,$(BPF_SRCS),$(BUILD)/bpf/$(notdir $(f:.c=.o)))

$(BUILD)/gen/%.skel.h: $(BUILD)/bpf/%.bpf.o
	@mkdir -p $(@D)
	$(BPFTOOL) gen skeleton $< name $* >$@.tmp && mv $@.tmp $@

# x86_64's syscall numbers and names, as the installed <asm/unistd_64.h> defines them.
UNISTD_H  := $(firstword $(wildcard /usr/include/$(MULTIARCH)/asm/unistd_64.h \
	     /usr/include/asm/unistd_64.h))
$(BUILD)/gen/syscall-table.h: $(UNISTD_H)
	@mkdir -p $(@D)
	sed -n 's/^#define __NR_\([a-z0-9_]*\)[[:space:]]\{1,\}\([0-9]\{1,\}\)$$/SYSCALL(\2, \1)/p' $< >$@.tmp
	@test -s $@.tmp || { echo "no syscalls found in $<" >&2; rm -f $@.tmp; exit 1; }
	mv $@.tmp $@

# errno names by number, as the installed <asm-generic/errno*.h> define them (x86_64 uses these).
ERRNO_HS  := $(wildcard /usr/include/asm-generic/errno-base.h /usr/include/asm-generic/errno.h)
$(BUILD)/gen/errno-table.h: $(ERRNO_HS)
	@mkdir -p $(@D)
	sed -n 's/^#define[[:space:]]\{1,\}\(E[A-Z0-9]*\)[[:space:]]\{1,\}\([0-9]\{1,\}\).*/ERRNO(\2, \1)/p' $^ >$@.tmp
	@test -s $@.tmp || { echo "no errno names found in $^" >&2; rm -f $@.tmp; exit 1; }
	mv $@.tmp $@

# prctl's options by number (PR_SET_PTRACER's magic left out, as perf does), from <linux/prctl.h>.
PRCTL_H   := $(firstword $(wildcard /usr/include/linux/prctl.h))
$(BUILD)/gen/prctl-table.h: $(PRCTL_H)
	@mkdir -p $(@D)
	sed -n 's/^#define[[:space:]]\{1,\}PR_\([A-Z0-9_]*\)[[:space:]]\{1,\}\([0-9]\{1,\}\)[[:space:]]*\(\/.*\)\{0,1\}$$/PRCTL(\2, \1)/p' $< >$@.tmp
	@test -s $@.tmp || { echo "no prctl options found in $<" >&2; rm -f $@.tmp; exit 1; }
	mv $@.tmp $@

# Every object waits for the generated headers once; -MMD tracks them afterwards.
$(LIB_OBJS) $(LIB_PIC) $(CMD_OBJS) $(UNIT_OBJS): | $(GEN_HDRS)

$(LIBA): $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(LIBSO): $(LIB_PIC) lib/libember.map
	$(CC) -shared -Wl,-soname,libember.so.0 -Wl,--version-script=lib/libember.map \
		$(LDFLAGS) -o $@ $(LIB_PIC) $(LIBS)
	ln -sf libember.so.0 $(BUILD)/libember.so

$(EMBER): $(CMD_OBJS) $(LIBA)
	$(CC) $(LDFLAGS) -o $@ $(CMD_OBJS) $(LIBA) $(LIBS) $(CMD_LIBS)

# Unit tests link every command object but main.o, so src/ logic is testable too.
$(UNIT): $(UNIT_OBJS) $(filter-out $(BUILD)/src/main.o,$(CMD_OBJS)) $(LIBA)
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS) $(CMD_LIBS)

# Workloads are tiny programs with known behaviour; frame pointers so stacks unwind.
$(BUILD)/workloads/%: tests/workloads/%.c
	@mkdir -p $(@D)
	$(CC) -O1 -g -fno-omit-frame-pointer -fno-inline -Wall -o $@ $< -lpthread

$(BUILD)/fuzz-replay/%: $(BUILD)/fuzz/fuzz-%.o $(BUILD)/fuzz/replay-main.o $(LIBA)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS) -lpthread

# ---- libFuzzer: clang, the library rebuilt with -fsanitize=fuzzer-no-link,address,undefined
FUZZ_CC   ?= clang
FUZZ_BUILD ?= $(BUILD)/libfuzzer
FUZZ_TIME ?= 60
FUZZ_SAN  := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS := -O1 -g -std=gnu11 -Wall -Wno-unused-parameter -D_GNU_SOURCE \
	     -DEMBER_VERSION='"$(VERSION)"' -Iinclude -Ilib -Isrc -I$(BUILD)/gen $(FUZZ_SAN) \
	     $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
FUZZ_LIBA := $(FUZZ_BUILD)/libember.a
FUZZERS   := $(FUZZ_NAMES:%=$(FUZZ_BUILD)/fuzz-%)

$(FUZZ_BUILD)/%.o: %.c | $(GEN_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

$(FUZZ_LIBA): $(LIB_SRCS:%.c=$(FUZZ_BUILD)/%.o)
	@rm -f $@
	ar rcs $@ $^

$(FUZZ_BUILD)/fuzz-%: $(FUZZ_BUILD)/fuzz/fuzz-%.o $(FUZZ_LIBA)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(LIBS) -lpthread

fuzzers: $(FUZZERS)

# FUZZ_TARGETS="data-file trace" to run some; new inputs go to $(FUZZ_BUILD)/corpus/NAME,
# crashes to fuzz/crashes/NAME/ (kept as regression inputs once fixed).
fuzz: deps
	@$(MAKE) --no-print-directory fuzzers
	@FUZZ_BUILD=$(FUZZ_BUILD) FUZZ_TIME=$(FUZZ_TIME) fuzz/run.sh $(or $(FUZZ_TARGETS),$(FUZZ_NAMES))

# Fold what `make fuzz` found into the committed corpora, minimized.
fuzz-merge: fuzzers
	@FUZZ_BUILD=$(FUZZ_BUILD) fuzz/run.sh --merge $(or $(FUZZ_TARGETS),$(FUZZ_NAMES))

# ---- examples/: each builds as a user builds it, against the installed library
# (`make install` into $(SDK), pkg-config libember); a NAME.bpf.c beside NAME.c
# becomes build/examples/NAME.skel.h. They run from build/examples (rpath to $(SDK)).
SDK       := $(BUILD)/sdk
EX_SRCS   := $(sort $(filter-out %.bpf.c,$(wildcard examples/*.c)))
EXAMPLES  := $(EX_SRCS:examples/%.c=$(BUILD)/examples/%)
EX_SKELS  := $(patsubst examples/%.bpf.c,$(BUILD)/examples/%.skel.h,$(wildcard examples/*.bpf.c))
EX_PKG    := PKG_CONFIG_PATH=$(abspath $(SDK))/lib/pkgconfig pkg-config

examples: $(EXAMPLES)

$(SDK)/lib/pkgconfig/libember.pc: $(LIBSO) $(LIBA) $(EMBER) lib/libember.pc.in $(wildcard include/ember/*.h) \
				 $(wildcard python/ember/*.py)
	@$(MAKE) --no-print-directory install-files PREFIX=$(abspath $(SDK)) DESTDIR= >/dev/null

$(BUILD)/examples/%.bpf.o: examples/%.bpf.c
	@mkdir -p $(@D)
	$(BPF_CC) $(BPF_CFLAGS) -Iexamples -c $< -o $@

$(BUILD)/examples/%.skel.h: $(BUILD)/examples/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $* >$@.tmp && mv $@.tmp $@

.SECONDARY: $(EX_SKELS) $(EX_SKELS:.skel.h=.bpf.o)

$(BUILD)/examples/%: examples/%.c $(SDK)/lib/pkgconfig/libember.pc | $(EX_SKELS)
	@mkdir -p $(@D)
	$(CC) -O2 -g -Wall -Wextra $(WERROR) $(SANFLAGS) -I$(@D) -o $@ $< \
		$$($(EX_PKG) --cflags --libs libember) -Wl,-rpath,$(abspath $(SDK))/lib

deps:
	@scripts/deps.sh

check: deps
	@$(MAKE) --no-print-directory all $(UNIT) $(REPLAYS) $(SAN_CC) examples
	@$(CHECK_ENV) BUILD=$(BUILD) tests/run.sh

$(BUILD)/san-bin/cc:
	@mkdir -p $(@D)
	@printf '%s\n' '#!/bin/sh' \
		'# make check SANITIZE=1: programs linked with libember get the sanitizers too' \
		'for a; do case "$$a" in *libember*|-lember) exec $(shell command -v $(CC)) $(SANFLAGS) "$$@";; esac; done' \
		'exec $(shell command -v $(CC)) "$$@"' >$@
	@chmod +x $@

demo: deps
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) scripts/demo.sh

bench: deps
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) bench/run.sh

install: all
	@$(MAKE) --no-print-directory install-files

# what install copies, with nothing built (the examples' rule installs into $(SDK) this way)
install-files:
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/ember \
		$(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(EMBER) $(DESTDIR)$(PREFIX)/bin/ember
	install -m 644 $(LIBA) $(DESTDIR)$(PREFIX)/lib/libember.a
	install -m 755 $(LIBSO) $(DESTDIR)$(PREFIX)/lib/libember.so.0
	ln -sf libember.so.0 $(DESTDIR)$(PREFIX)/lib/libember.so
	install -m 644 include/ember/*.h $(DESTDIR)$(PREFIX)/include/ember/
	install -m 644 doc/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' \
		-e 's|@LIBS_EXTRA@|$(filter -liberty,$(LIBS))|' lib/libember.pc.in \
		>$(DESTDIR)$(PREFIX)/lib/pkgconfig/libember.pc
	install -d $(DESTDIR)$(PREFIX)/lib/python3/dist-packages/ember
	install -m 644 python/ember/*.py $(DESTDIR)$(PREFIX)/lib/python3/dist-packages/ember/

clean:
	rm -rf build build-san

.PHONY: all deps check demo bench install clean fuzz fuzzers fuzz-merge examples install-files
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
