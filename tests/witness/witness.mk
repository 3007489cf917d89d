# tests/witness/witness.mk - the outside witness, a QEMU TCG plugin built
# with the host compiler (included by the top Makefile; `make test` builds it).
#
#   make witness    build/witness/libwitness.so

WITNESS_B   := build/witness
WITNESS_LIB := $(WITNESS_B)/libwitness.so
WITNESS_SRCS := tests/witness/witness.c tests/witness/decode.c
WITNESS_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2 -g -shared -fPIC \
	-fvisibility=hidden -I. -Itests/witness

.PHONY: witness
witness: $(WITNESS_LIB)

$(WITNESS_LIB): $(WITNESS_SRCS) tests/witness/decode.h kernel/witness_abi.h
	@mkdir -p $(dir $@)
	cc $(WITNESS_CFLAGS) $(WITNESS_SRCS) -o $@
