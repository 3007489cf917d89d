/* hello: the smallest program -- prove a user task runs and prints. */
#include <stdio.h>

#include "tally.h"

int main(int argc, char **argv)
{
	printf("hello from pid %d", getpid());
	for (int i = 1; i < argc; i++)
		printf(" %s", argv[i]);
	printf("\n");
	return 0;
}
