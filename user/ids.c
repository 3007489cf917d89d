/*
 * ids: print the task's credentials and family, then check that a
 * non-root task cannot become root:
 *   pid=N ppid=N uid=N pgid=N
 *   setuid(0)=ok|EPERM
 */
#include <stdio.h>

#include "tally.h"

int main(void)
{
	printf("pid=%d ppid=%d uid=%d pgid=%d\n", getpid(), getppid(), getuid(),
	       getpgid(0));
	int r = setuid(0);
	printf("setuid(0)=%s\n", r == 0 ? "ok" : errno_name(r));
	return 0;
}
