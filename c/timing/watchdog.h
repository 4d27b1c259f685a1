/* timing/watchdog.h — a caller stuck in the SDK's spin-wait never returns:
 * rather than hang, the process ends with what the caller was doing and the
 * goroutine stacks in a file (when the Go runtime still answers). */
#ifndef CGOCOST_TIMING_WATCHDOG_H
#define CGOCOST_TIMING_WATCHDOG_H

#include <stdatomic.h>
#include <stdint.h>

/* What one caller last reported; the caller writes, the watchdog reads. */
struct progress {
	_Atomic uint64_t at_ns;	   /* when it last finished a step */
	_Atomic uint64_t slack_ns; /* extra patience: 20 batches at the warm-up's pace */
	_Atomic int phase;	   /* index into the phase names */
	_Atomic int done;
};

struct watchdog;

/* Watches p[0..n): a caller whose at_ns is older than timeout_s plus its
 * slack ends the process with exit_status (after a message naming
 * phase_names[phase], then hint, what such a stall usually is, and the
 * file of the goroutine stacks when a Go runtime in reach can dump them,
 * in $TMPDIR or else /tmp). NULL when it could not start (or timeout_s is
 * 0). */
struct watchdog *watchdog_start(struct progress *p, uint32_t n, uint32_t timeout_s, const char *const *phase_names,
				const char *hint, int exit_status);
void watchdog_stop(struct watchdog *w);

#endif
