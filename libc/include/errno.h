/*
 * errno.h - error numbers shared by kernel, system calls and user programs.
 *
 * Values follow the traditional Unix numbering so that a PMU engineer
 * reading a raw negative return recognises it.  Kernel functions return
 * -ENAME; errno_name() turns the number back into its word for the console.
 */
#ifndef TALLY_ERRNO_H
#define TALLY_ERRNO_H

#define EPERM    1
#define ENOENT   2
#define ESRCH    3
#define EINTR    4
#define EIO      5
#define E2BIG    7
#define ENOEXEC  8
#define EBADF    9
#define ECHILD  10
#define EAGAIN  11
#define ENOMEM  12
#define EACCES  13
#define EFAULT  14
#define EBUSY   16
#define EEXIST  17
#define ENODEV  19
#define EINVAL  22
#define ENOSPC  28
#define ERANGE  34
#define ENOSYS  38
#define ENOTSUP 95
#define ETIMEDOUT 110

/* "EBUSY" for EBUSY (or -EBUSY); "E?" for a number we do not know. */
const char *errno_name(int err);
/* One short phrase: "device or resource busy". */
const char *errno_text(int err);

#endif
