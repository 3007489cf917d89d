/*
 * sysloop N: N null system calls (getppid) in a loop of known shape, for
 * the ucut benchmark (kernel/bench/ucut_bench.c): how many kernel
 * instructions each round trip into the kernel charges to user time.
 *
 * One iteration is the system call and the loop around it, nothing else
 * (arch/<arch>/user/sysloop.*): load the call number, the trap,
 * decrement, branch back -- 4 user-mode instructions on x86_64 (mov,
 * syscall, dec, jnz), 5 on MIPS (li, syscall, addiu, bnez and its
 * delay-slot nop).  So the run at N executes
 * exactly that many user instructions times N more than the run at 0, and
 * N more kernel round trips; whatever cycles:u shows beyond the user
 * instructions is kernel work charged to the user.  N is parsed from a
 * fixed-width argument, as loop's is, so parsing costs the same for any N.
 * Exit status 0; 2 (usage) if N does not fit 32 bits (arg_count32).
 */
#include <stdint.h>

#include "tally.h"

int main(int argc, char **argv)
{
	tally_sysloop(arg_count32(argc, argv, 1, "sysloop N"));
	return 0;
}
