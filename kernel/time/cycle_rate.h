/*
 * cycle_rate.h - the cycle counter's rate and how well it is known.
 *
 * The rate comes, in this order of preference, from the boot argument
 * cyclehz=N (given outright, error 0), from the CPU where the arch can
 * read it (x86 CPUID: arch/x86_64/tsc_rate.c), or from a short calibration
 * against the board's reference timer (kernel/platform.h; the i8254 on both
 * machines) by cycle_rate_from_window.  Boot prints it as
 * `cycle counter: N Hz ± E (source)` and `info` as cycles_hz and
 * cycles_hz_err.
 */
#ifndef TALLY_CYCLE_RATE_H
#define TALLY_CYCLE_RATE_H

#include <stdint.h>

struct cycle_rate {
	uint64_t hz;
	uint64_t err_hz;        /* the true rate is within hz ± err_hz */
	const char *source;     /* "cyclehz", "cpuid 0x15", "i8254 1 ms", ... */
};

/* One calibration window: cycles counted between two edges of the
 * reference timer ref_ticks apart (it ticks ref_hz times a second); slack
 * is the length in cycles of the two polls that caught those edges (each
 * end was read at most its poll after its edge). */
struct cycle_window {
	uint64_t cycles;
	uint64_t ref_ticks;
	uint64_t slack;
	uint64_t ref_hz;
	const char *ref_name;   /* the rate's source, e.g. "i8254" */
};

#define CYCLEHZ_MIN 1000000ull          /* 1 MHz */
#define CYCLEHZ_MAX 100000000000ull     /* 100 GHz */

/*
 * Rate and bound from a window.  Each end of the window is read at most
 * one poll after its reference edge, so the count is off by at most slack
 * cycles, plus one cycle-counter tick of read quantisation and one for
 * where the edge falls: the rate by (slack + 2) * ref_hz / ref_ticks.
 * Returns -1 for an empty window.
 */
int cycle_rate_from_window(const struct cycle_window *w, struct cycle_rate *r);

/*
 * The simplest rate inside hz ± err: first 1e9/k rounded to the Hz for a
 * whole k (a counter clocked every k ns, which is what an emulator under
 * -icount gives: exactly 1 GHz for the TSC, 1e9/6 for Malta's Count),
 * then the value with the fewest significant digits (a nominal crystal
 * rate), else hz itself.  Every result stays within the bound.
 */
uint64_t cycle_rate_snap(uint64_t hz, uint64_t err);

/* The rate in force, set once by the arch's timer start. */
void cycle_rate_set(const struct cycle_rate *r);
const struct cycle_rate *cycle_rate_get(void);

/* Boot's line: cycle counter: N Hz ± E (source). */
void cycle_rate_print(void);

/*
 * The rate for the arch's timer start: cyclehz=N if given and valid;
 * else *cpu if the arch read one from the CPU (NULL otherwise); else a
 * calibration of read_cycles against the board's reference timer over
 * about a millisecond (platform_ref_window).  Interrupts must be off.
 * Records and returns the rate.
 */
/* A window whose bound is wider than 1/CYCLE_CAL_GOOD_DIV of the rate (a
 * host that stalled the emulator at an edge) is taken again, up to
 * CYCLE_CAL_TRIES windows; the one with the smallest bound is kept. */
#define CYCLE_CAL_GOOD_DIV 2000u
#define CYCLE_CAL_TRIES 8u
const struct cycle_rate *cycle_rate_boot(uint64_t (*read_cycles)(void),
					 const struct cycle_rate *cpu);

#endif
