# tests/unit/unit.mk - host unit tests (cmocka), included by the top Makefile.
#
#   make unit-build   build each tests/unit/test_NAME.c as build/host/unit/test_NAME
#   make unit         build them, run them all, fail if any fails
#
# A test of project code names the sources it needs in tests/unit/test_NAME.mk:
#
#   UNIT_SRCS_test_NAME := kernel/foo.c
#
# Every test binary also links all of libc/*.c.  Host code uses the system's
# headers, not libc/include: tests/unit/host_libc.h, included first in every
# file, renames our libc (memcpy -> tl_memcpy, ...) so that it is what the
# tests exercise while glibc, cmocka and the sanitizers keep their own.
# user/include is on the path so that a test can link a user library file
# (user/lib/uread.c) with its own fakes of the arch reads beneath it.

UNIT_B   := build/host/unit
UNIT_OBJ := $(UNIT_B)/obj
UNIT_CC  ?= cc

UNIT_SAN    := -fsanitize=address,undefined -fno-sanitize-recover=all
UNIT_CFLAGS := -std=c11 -Wall -Wextra -Werror -g -O1 $(UNIT_SAN) \
	-fno-omit-frame-pointer -fno-builtin -U_FORTIFY_SOURCE \
	-Ikernel -Idrivers -I. -Iuser/include \
	-include tests/unit/host_libc.h -MMD -MP
UNIT_LDLIBS := -lcmocka

UNIT_TESTS := $(sort $(basename $(notdir $(wildcard tests/unit/test_*.c))))
-include $(wildcard tests/unit/test_*.mk)

UNIT_LIBC_OBJS := $(patsubst %,$(UNIT_OBJ)/%.o,$(sort $(wildcard libc/*.c)))
UNIT_BINS := $(addprefix $(UNIT_B)/,$(UNIT_TESTS))

.PHONY: unit unit-build
unit-build: $(UNIT_BINS)

# Runs every binary even after a failure, so one run shows all of them.
unit: unit-build
	@test -n "$(UNIT_BINS)" || { echo "unit: no tests/unit/test_*.c" >&2; exit 1; }
	@failed=; for t in $(UNIT_BINS); do \
		echo "== $$t"; $$t || failed="$$failed $$t"; \
	done; \
	if [ -n "$$failed" ]; then echo "unit: FAILED:$$failed" >&2; exit 1; fi

$(UNIT_OBJ)/%.c.o: %.c tests/unit/host_libc.h
	@mkdir -p $(dir $@)
	$(UNIT_CC) $(UNIT_CFLAGS) -c $< -o $@

# A test relinks when its fragment changes the sources it names.
define UNIT_TEST_RULE
$(UNIT_B)/$(1): $(UNIT_OBJ)/tests/unit/$(1).c.o \
		$(patsubst %,$(UNIT_OBJ)/%.o,$(UNIT_SRCS_$(1))) $(UNIT_LIBC_OBJS) \
		$(wildcard tests/unit/$(1).mk)
	$$(UNIT_CC) $$(UNIT_SAN) $$(filter %.o,$$^) -o $$@ $$(UNIT_LDLIBS)
endef
$(foreach t,$(UNIT_TESTS),$(eval $(call UNIT_TEST_RULE,$(t))))

UNIT_ALL_OBJS := $(sort $(UNIT_LIBC_OBJS) $(foreach t,$(UNIT_TESTS), \
	$(UNIT_OBJ)/tests/unit/$(t).c.o \
	$(patsubst %,$(UNIT_OBJ)/%.o,$(UNIT_SRCS_$(t)))))
-include $(UNIT_ALL_OBJS:.o=.d)
