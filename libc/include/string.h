/* string.h - freestanding string and memory functions (libc/string.c). */
#ifndef TALLY_STRING_H
#define TALLY_STRING_H

#include <stddef.h>

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
/* Copies at most size-1 bytes and always terminates; returns strlen(src). */
size_t strlcpy(char *restrict dst, const char *restrict src, size_t size);
size_t strlcat(char *restrict dst, const char *restrict src, size_t size);
size_t strspn(const char *s, const char *accept);
size_t strcspn(const char *s, const char *reject);

#endif
