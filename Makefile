# SPDX-License-Identifier: GPL-2.0-only
# ember — one build, out of tree into build/.
#   make            build libember (static + shared) and the ember command
#   make check      install missing deps, build, run every test
#   make demo       install missing deps, build, run ember on the bundled workload
#   make bench      compare ember with perf on the same inputs (ratios)
#   make install    honours PREFIX and DESTDIR

VERSION   := 0.1.0
PREFIX    ?= /usr/local
DESTDIR   ?=
BUILD     ?= build
CC        ?= cc
PKGS      := libelf libdw libtraceevent
WERROR    ?= -Werror

ifeq ($(SANITIZE),1)
SANFLAGS  := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
BUILD     := build-san
endif

CFLAGS    ?= -O2 -g
CFLAGS    += -std=gnu11 -Wall -Wextra $(WERROR) -Wno-unused-parameter -Wno-missing-field-initializers \
	     -fno-omit-frame-pointer -D_GNU_SOURCE -DEMBER_VERSION='"$(VERSION)"' \
	     -Iinclude -Ilib -Isrc $(SANFLAGS) $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LDFLAGS   += $(SANFLAGS)
LIBS      := $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lelf -ldw -ltraceevent) -lm

# libiberty demangles C++ and Rust as Debian's perf does.
ifneq ($(wildcard /usr/include/libiberty/demangle.h),)
CFLAGS    += -DHAVE_LIBIBERTY
LIBS      += -liberty
endif

LIB_SRCS  := $(sort $(wildcard lib/*/*.c))
CMD_SRCS  := $(sort $(wildcard src/*.c src/*/*.c))
UNIT_SRCS := $(sort $(wildcard tests/unit/*.c))
WL_SRCS   := $(sort $(wildcard tests/workloads/*.c))

LIB_PIC   := $(LIB_SRCS:%.c=$(BUILD)/pic/%.o)
LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/%.o)
CMD_OBJS  := $(CMD_SRCS:%.c=$(BUILD)/%.o)
UNIT_OBJS := $(UNIT_SRCS:%.c=$(BUILD)/%.o)
WORKLOADS := $(WL_SRCS:tests/workloads/%.c=$(BUILD)/workloads/%)

LIBA      := $(BUILD)/libember.a
LIBSO     := $(BUILD)/libember.so.0
EMBER     := $(BUILD)/ember
UNIT      := $(BUILD)/unit-tests

all: $(EMBER) $(LIBA) $(LIBSO) $(WORKLOADS)

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/pic/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fPIC -fvisibility=hidden -MMD -MP -c $< -o $@

$(LIBA): $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(LIBSO): $(LIB_PIC) lib/libember.map
	$(CC) -shared -Wl,-soname,libember.so.0 -Wl,--version-script=lib/libember.map \
		$(LDFLAGS) -o $@ $(LIB_PIC) $(LIBS)
	ln -sf libember.so.0 $(BUILD)/libember.so

$(EMBER): $(CMD_OBJS) $(LIBA)
	$(CC) $(LDFLAGS) -o $@ $(CMD_OBJS) $(LIBA) $(LIBS)

# Unit tests link every command object but main.o, so src/ logic is testable too.
$(UNIT): $(UNIT_OBJS) $(filter-out $(BUILD)/src/main.o,$(CMD_OBJS)) $(LIBA)
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

# Workloads are tiny programs with known behaviour; frame pointers so stacks unwind.
$(BUILD)/workloads/%: tests/workloads/%.c
	@mkdir -p $(@D)
	$(CC) -O1 -g -fno-omit-frame-pointer -fno-inline -Wall -o $@ $< -lpthread

deps:
	@scripts/deps.sh

check: deps
	@$(MAKE) --no-print-directory all $(UNIT)
	@BUILD=$(BUILD) tests/run.sh

demo: deps
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) scripts/demo.sh

bench: deps
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) bench/run.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/ember \
		$(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(EMBER) $(DESTDIR)$(PREFIX)/bin/ember
	install -m 644 $(LIBA) $(DESTDIR)$(PREFIX)/lib/libember.a
	install -m 755 $(LIBSO) $(DESTDIR)$(PREFIX)/lib/libember.so.0
	ln -sf libember.so.0 $(DESTDIR)$(PREFIX)/lib/libember.so
	install -m 644 include/ember/*.h $(DESTDIR)$(PREFIX)/include/ember/
	install -m 644 doc/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/

clean:
	rm -rf build build-san

.PHONY: all deps check demo bench install clean
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
