# tests/unit/unit.mk - host unit tests (cmocka), included by the top Makefile.
#
#   make unit-build   build each tests/unit/PATH/test_X.c as
#                     build/host/unit/PATH/test_X
#   make unit         build them, run them all, fail if any fails
#
# tests/unit mirrors the tree: the test of kernel/hwperf/cmd.c is
# tests/unit/kernel/hwperf/test_cmd.c.  Test doubles (fakes of code the
# tested file calls) live in tests/unit/doubles, headers shared by tests in
# tests/unit/support; both are on the include path.  What a test links
# besides itself is its line in tests/unit/tests.mk:
#
#   UNIT_SRCS_kernel/hwperf/test_cmd := kernel/hwperf/cmd.c ...
#
# Every test binary also links all of libc/*.c.  Host code uses the system's
# headers, not libc/include: support/host_libc.h, included first in every
# file, renames our libc (memcpy -> tl_memcpy, ...) so that it is what the
# tests exercise while glibc, cmocka and the sanitizers keep their own.
# user/include is on the path so that a test can link a user library file
# (user/lib/uread.c) with its own fakes of the arch reads beneath it.

UNIT_DIR := tests/unit
UNIT_B   := build/host/unit
UNIT_OBJ := $(UNIT_B)/obj
UNIT_CC  ?= cc

UNIT_SAN    := -fsanitize=address,undefined -fno-sanitize-recover=all
UNIT_CFLAGS := -std=c11 -Wall -Wextra -Werror -g -O1 $(UNIT_SAN) \
	-fno-omit-frame-pointer -fno-builtin -U_FORTIFY_SOURCE \
	-Ikernel -Idrivers -I. -Iuser/include \
	-I$(UNIT_DIR)/support -I$(UNIT_DIR)/doubles \
	-include $(UNIT_DIR)/support/host_libc.h -MMD -MP
UNIT_LDLIBS := -lcmocka

# Every tests/unit/**/test_*.c, named by its path under tests/unit without
# ".c" (kernel/hwperf/test_cmd); doubles/ and support/ hold no tests.
UNIT_TESTS := $(sort $(patsubst $(UNIT_DIR)/%.c,%, \
	$(shell find $(UNIT_DIR) -name 'test_*.c' -type f)))
include $(UNIT_DIR)/tests.mk

# A table entry for a test that does not exist is a rename the table missed.
UNIT_TABLE_KEYS := $(patsubst UNIT_SRCS_%,%,$(filter UNIT_SRCS_%,$(.VARIABLES)))
UNIT_STALE_KEYS := $(filter-out $(UNIT_TESTS),$(UNIT_TABLE_KEYS))
ifneq ($(UNIT_STALE_KEYS),)
$(error tests/unit/tests.mk names tests that do not exist: $(UNIT_STALE_KEYS))
endif

UNIT_LIBC_OBJS := $(patsubst %,$(UNIT_OBJ)/%.o,$(sort $(wildcard libc/*.c)))
UNIT_BINS := $(addprefix $(UNIT_B)/,$(UNIT_TESTS))

.PHONY: unit unit-build unit-prune
unit-build: $(UNIT_BINS) unit-prune

# A test that was renamed or removed leaves its old binary behind, which the
# pytest runner would report as a test without a source: remove those.
unit-prune:
	@find $(UNIT_B) -path $(UNIT_OBJ) -prune -o -type f -name 'test_*' \
		-perm -u+x -print 2>/dev/null | while read -r b; do \
		case " $(UNIT_BINS) " in *" $$b "*) ;; \
		*) echo "unit: removing stale $$b"; rm -f "$$b";; esac; \
	done

# Runs every binary even after a failure, so one run shows all of them.
unit: unit-build
	@test -n "$(UNIT_BINS)" || { echo "unit: no tests/unit/**/test_*.c" >&2; exit 1; }
	@failed=; for t in $(UNIT_BINS); do \
		echo "== $$t"; $$t || failed="$$failed $$t"; \
	done; \
	if [ -n "$$failed" ]; then echo "unit: FAILED:$$failed" >&2; exit 1; fi

$(UNIT_OBJ)/%.c.o: %.c $(UNIT_DIR)/support/host_libc.h
	@mkdir -p $(dir $@)
	$(UNIT_CC) $(UNIT_CFLAGS) -c $< -o $@

# A test relinks when the table changes (it may name other sources).
define UNIT_TEST_RULE
$(UNIT_B)/$(1): $(UNIT_OBJ)/$(UNIT_DIR)/$(1).c.o \
		$(patsubst %,$(UNIT_OBJ)/%.o,$(UNIT_SRCS_$(1))) $(UNIT_LIBC_OBJS) \
		$(UNIT_DIR)/tests.mk
	@mkdir -p $$(dir $$@)
	$$(UNIT_CC) $$(UNIT_SAN) $$(filter %.o,$$^) -o $$@ $$(UNIT_LDLIBS)
endef
$(foreach t,$(UNIT_TESTS),$(eval $(call UNIT_TEST_RULE,$(t))))

UNIT_ALL_OBJS := $(sort $(UNIT_LIBC_OBJS) $(foreach t,$(UNIT_TESTS), \
	$(UNIT_OBJ)/$(UNIT_DIR)/$(t).c.o \
	$(patsubst %,$(UNIT_OBJ)/%.o,$(UNIT_SRCS_$(t)))))
-include $(UNIT_ALL_OBJS:.o=.d)
