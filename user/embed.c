/*
 * embed.c - put one user program's ELF file into the kernel image and
 * register it by name.  user/user.mk compiles this once per program with
 * PROG_NAME (a bare word), PROG_ELF (the file's path, a string) and
 * PROG_SYMS (its text symbols, "ADDRESS NAME" lines, for `prof`).
 */
#include "proc/program_syms.h"
#include "proc/programs.h"

#define STR_(x) #x
#define STR(x) STR_(x)
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

#define BLOB_START CAT(user_blob_start_, PROG_NAME)
#define BLOB_END CAT(user_blob_end_, PROG_NAME)
#define SYMS_START CAT(user_syms_start_, PROG_NAME)
#define SYMS_END CAT(user_syms_end_, PROG_NAME)

__asm__(".section .rodata.user_blob." STR(PROG_NAME) ", \"a\"\n"
	".balign 16\n"
	".globl " STR(BLOB_START) "\n"
	STR(BLOB_START) ":\n"
	".incbin \"" PROG_ELF "\"\n"
	".globl " STR(BLOB_END) "\n"
	STR(BLOB_END) ":\n"
	".previous\n");

__asm__(".section .rodata.user_syms." STR(PROG_NAME) ", \"a\"\n"
	".globl " STR(SYMS_START) "\n"
	STR(SYMS_START) ":\n"
	".incbin \"" PROG_SYMS "\"\n"
	".globl " STR(SYMS_END) "\n"
	STR(SYMS_END) ":\n"
	".previous\n");

extern const unsigned char BLOB_START[], BLOB_END[];
extern const char SYMS_START[], SYMS_END[];

/* One more expansion step, so PROGRAM sees the name, not PROG_NAME. */
#define EMBED_PROGRAM(name, start, end) PROGRAM(name, start, end)
EMBED_PROGRAM(PROG_NAME, BLOB_START, BLOB_END);
#define EMBED_SYMS(name, start, end) PROGRAM_SYMS(name, start, end)
EMBED_SYMS(PROG_NAME, SYMS_START, SYMS_END);
