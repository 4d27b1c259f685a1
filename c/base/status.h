/* base/status.h — the layer every other layer stands on: exit statuses, the
 * clock, atomic files and the names of the things a run is made of. Nothing
 * here knows Go, the plugin or JSON.
 *
 * The exit statuses of every cgocost executable, in one place. */
#ifndef CGOCOST_BASE_STATUS_H
#define CGOCOST_BASE_STATUS_H

enum exit_status {
	EXIT_OK = 0,	     /* success: no regression detected */
	EXIT_REGRESSION = 1, /* a detected performance regression */
	EXIT_BAD_INPUT = 2,  /* bad input, found before anything is measured */
	EXIT_RUN_FAILED = 3, /* a failed run */
	/* a verdict that could not tell: the interval of a change reaches the
	 * threshold without lying above it, or there were too few samples for
	 * one (--inconclusive pass makes it 0) */
	EXIT_INCONCLUSIVE = 4,
};

/* Internal, between a parent and its own child launch (--emit-launch),
 * never a driver's own status: the parent maps each to one of the above. */
enum child_exit_status {
	/* the child's watchdog found a caller stuck: the parent reruns such a
	 * launch or reports 3 */
	EXIT_CHILD_STALLED = 4,
	/* a child launch found bad input (a plugin library or its options): the
	 * parent exits 2. A child's own exit status 2 is left to the Go
	 * runtime, which exits 2 on a fatal panic. */
	EXIT_CHILD_BAD_INPUT = 5,
};
/* A driver interrupted by SIGINT, SIGTERM or SIGHUP exits 128 + the signal
 * number (base/interrupt.h). */

#endif
