/* panic.h - see arch.h for panic() itself; this names its exit status. */
#ifndef TALLY_PANIC_H
#define TALLY_PANIC_H

/* Status QEMU leaves with after a panic under onpanic=exit. */
#define PANIC_EXIT_CODE 3

#endif
