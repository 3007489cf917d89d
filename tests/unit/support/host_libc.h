/*
 * host_libc.h - Tally's libc on the host, under other names.
 *
 * Force-included (-include) first in every file of a host unit test build:
 * the tests, the project sources they test and libc itself.  Each function
 * our libc defines is renamed to tl_NAME, so the tests exercise our code
 * while glibc, cmocka and the sanitizers go on using glibc's; defining
 * memcpy itself would interpose on all of them.  printf is not ours (the
 * kernel and user programs each define it), so it stays glibc's.
 *
 * The renames come before any system header, so glibc's own prototypes
 * declare the tl_ names; our prototypes follow for the functions glibc
 * lacks or hides in strict C11 mode.
 */
#ifndef TALLY_HOST_LIBC_H
#define TALLY_HOST_LIBC_H

/* string.h */
#define memcpy tl_memcpy
#define memmove tl_memmove
#define memset tl_memset
#define memcmp tl_memcmp
#define memchr tl_memchr
#define strlen tl_strlen
#define strnlen tl_strnlen
#define strcmp tl_strcmp
#define strncmp tl_strncmp
#define strchr tl_strchr
#define strrchr tl_strrchr
#define strstr tl_strstr
#define strlcpy tl_strlcpy
#define strlcat tl_strlcat
#define strspn tl_strspn
#define strcspn tl_strcspn

/* ctype.h */
#define isdigit tl_isdigit
#define isxdigit tl_isxdigit
#define isalpha tl_isalpha
#define isalnum tl_isalnum
#define isspace tl_isspace
#define isupper tl_isupper
#define islower tl_islower
#define isprint tl_isprint
#define iscntrl tl_iscntrl
#define ispunct tl_ispunct
#define toupper tl_toupper
#define tolower tl_tolower

/* stdio.h */
#define vcbprintf tl_vcbprintf
#define vsnprintf tl_vsnprintf
#define snprintf tl_snprintf

/* stdlib.h */
#define strtoul_e tl_strtoul_e
#define strtoull_e tl_strtoull_e
#define strtoll_e tl_strtoll_e
#define strtoul tl_strtoul
#define strtoull tl_strtoull
#define strtoll tl_strtoll
#define parse_u64 tl_parse_u64
#define parse_i64 tl_parse_i64
#define abs tl_abs

/* errno.h */
#define errno_name tl_errno_name
#define errno_text tl_errno_text

/*
 * glibc's ctype.h otherwise defines isdigit() and friends as macros (a
 * redefinition error after the renames) and inline bodies that would be
 * tested in place of ours.
 */
#define __NO_CTYPE 1

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *hay, const char *needle);
size_t strlcpy(char *restrict dst, const char *restrict src, size_t size);
size_t strlcat(char *restrict dst, const char *restrict src, size_t size);
size_t strspn(const char *s, const char *accept);
size_t strcspn(const char *s, const char *reject);

int isdigit(int c);
int isxdigit(int c);
int isalpha(int c);
int isalnum(int c);
int isspace(int c);
int isupper(int c);
int islower(int c);
int isprint(int c);
int iscntrl(int c);
int ispunct(int c);
int toupper(int c);
int tolower(int c);

typedef void (*putc_fn)(char c, void *arg);
int vcbprintf(putc_fn put, void *arg, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
int vsnprintf(char *restrict buf, size_t size, const char *restrict fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
int snprintf(char *restrict buf, size_t size, const char *restrict fmt, ...)
	__attribute__((format(printf, 3, 4)));

unsigned long strtoul_e(const char *s, char **endp, int base, int *errp);
unsigned long long strtoull_e(const char *s, char **endp, int base, int *errp);
long long strtoll_e(const char *s, char **endp, int base, int *errp);
unsigned long strtoul(const char *s, char **endp, int base);
unsigned long long strtoull(const char *s, char **endp, int base);
long long strtoll(const char *s, char **endp, int base);
int parse_u64(const char *s, int base, uint64_t *out);
int parse_i64(const char *s, int base, int64_t *out);
int abs(int x);

const char *errno_name(int err);
const char *errno_text(int err);

/*
 * Tally's error numbers (libc/include/errno.h) follow Linux, so glibc
 * defines every one of them with the same value.  Code under test uses
 * glibc's macros, so a disagreement, or a host without one of them, must
 * stop the build: define the missing number here if that ever happens.
 */
#define TL_ERRNO(name, num) \
	_Static_assert(name == num, #name " differs between host and Tally")
TL_ERRNO(EPERM, 1);
TL_ERRNO(ENOENT, 2);
TL_ERRNO(ESRCH, 3);
TL_ERRNO(EINTR, 4);
TL_ERRNO(EIO, 5);
TL_ERRNO(E2BIG, 7);
TL_ERRNO(ENOEXEC, 8);
TL_ERRNO(EBADF, 9);
TL_ERRNO(ECHILD, 10);
TL_ERRNO(EAGAIN, 11);
TL_ERRNO(ENOMEM, 12);
TL_ERRNO(EACCES, 13);
TL_ERRNO(EFAULT, 14);
TL_ERRNO(EBUSY, 16);
TL_ERRNO(EEXIST, 17);
TL_ERRNO(ENODEV, 19);
TL_ERRNO(EINVAL, 22);
TL_ERRNO(ENOSPC, 28);
TL_ERRNO(ERANGE, 34);
TL_ERRNO(ENOSYS, 38);
TL_ERRNO(ENOTSUP, 95);

#endif
