/* abs.c - integer absolute value. */
#include <stdlib.h>

/*
 * -INT_MIN overflows, which is undefined; negating in unsigned arithmetic
 * is defined, and converting back gives INT_MIN again on both our compilers,
 * the same answer every two's complement machine gives.
 */
int abs(int x)
{
	return x < 0 ? (int)(0u - (unsigned int)x) : x;
}
