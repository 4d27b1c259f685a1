/* orchestrate/child.h — the one way the driver starts a process of its own:
 * a launch of bench (or of another build, under --against), a paired
 * coordinator's long-lived cell, a sweep's or a --repeat-load's launch.
 *
 * The protocol, the same for every child:
 *   - it runs argv[0] (execv, no PATH search) in a process group of its own
 *     (its pid), so that the driver can kill it whole, grandchildren too;
 *   - SIGINT, SIGTERM, SIGHUP and SIGPIPE are back to their defaults in it
 *     (the driver's interrupt handler and ignored SIGPIPE are not its own);
 *   - the kernel kills it (PR_SET_PDEATHSIG, SIGKILL) when the driver dies;
 *     if the driver died before that was set, it exits 127 at once;
 *   - stdin is the driver's (or a descriptor the caller gives,
 *     child_spawn_stdin); stdout and stderr are pipes read while it runs
 *     (CHILD_PIPES), or temporary files read after it ended (CHILD_SERVER,
 *     which also gives it the commands pipe on fd 3 and the replies pipe on
 *     fd 4 of timing/blocks.h);
 *   - when it cannot be executed it says "cannot run PATH: why" on stderr
 *     and exits 127;
 *   - while it runs it sits in a slot of the interrupt forwarding
 *     (base/interrupt.h), which kills and reaps it if the driver is
 *     interrupted; it leaves the slot once reaped;
 *   - it is reaped within a timeout where the caller gives one, a
 *     deadline that knows a slow child from a stuck one (struct
 *     child_deadline: past the timeout it goes on while the child's process
 *     group keeps using CPU, up to CHILD_BUSY_MAX_FACTOR times the timeout;
 *     then its group is killed with SIGKILL), and how it ended is
 *     classified from its exit status and stderr by child_classify;
 *   - what it prints is capped (child_output_limit, 1 GiB by default): a
 *     child past the cap on a pipe is killed and ends CHILD_FAILED, "printed
 *     more than N bytes"; its output files are bounded the same way by a
 *     file-size limit (RLIMIT_FSIZE) set in it before the exec;
 *   - what a child leaves in its group (a wrapper's background process)
 *     is killed once the child has exited: it can neither hold the pipes
 *     open nor outlive the run; what it leaves outside its group (`setsid
 *     sleep 1000 &`) is adopted by the driver, a subreaper, when the child
 *     ends, and killed and reaped then (base/interrupt.h), or by the
 *     interrupt handler;
 *   - no child outlives child_close. */
#ifndef CGOCOST_ORCHESTRATE_CHILD_H
#define CGOCOST_ORCHESTRATE_CHILD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* How a child's stdout and stderr are kept, and which pipes it gets. */
enum child_io {
	CHILD_PIPES,  /* pipes, read until both close (child_end) */
	CHILD_SERVER, /* temporary files; commands on fd 3, replies on fd 4 */
};

struct child {
	pid_t pid;	       /* > 0 until reaped; 0 before and after */
	int slot;	       /* its slot in the interrupt forwarding */
	enum child_io io;      /* what it was given */
	int out, err;	       /* our ends of its stdout and stderr (pipes or files); -1 closed */
	int cmd, reply;	       /* CHILD_SERVER: our ends of its fd 3 and fd 4; else -1 */
	int rc, signo;	       /* once reaped: exit status 0..255 or -1; the signal that ended it, or 0 */
	int timed_out;	       /* it outlived its deadline and was killed */
	int waited_ms;	       /* then: how long it was waited for */
	int busy;	       /* then: it still used CPU (killed at the most its deadline allows) */
	int flooded;	       /* it printed more than the cap and was killed */
	char *output, *errors; /* once ended: its stdout and stderr, malloc'd, NUL-terminated; NULL if unreadable */
};

/* What became of a child. */
enum child_kind {
	CHILD_OK = 0,
	CHILD_BAD_INPUT, /* it refused its arguments (exit EXIT_CHILD_BAD_INPUT) */
	CHILD_CRASHED,	 /* killed by a signal */
	CHILD_PANICKED,	 /* the Go runtime ended it (exit 2) */
	CHILD_HUNG,	 /* SIGALRM: stuck loading a plugin library */
	CHILD_STALLED,	 /* its watchdog found a caller stuck (EXIT_CHILD_STALLED) */
	CHILD_FAILED	 /* any other exit, or it could not run */
};

/* The most a child may print on stdout or stderr (each), in bytes, for the
 * children spawned from now on; CHILD_OUTPUT_MAX until set (tests set less). */
#define CHILD_OUTPUT_MAX ((size_t)1 << 30)
void child_output_limit(size_t bytes);

/* How a message says a child ended badly: "crashed" (a signal, a Go
 * runtime's fatal error) or "failed" (anything else). */
static inline const char *child_verb(enum child_kind k)
{
	return k == CHILD_CRASHED || k == CHILD_PANICKED ? "crashed" : "failed";
}

/* The deadline of every wait for a child here (its end, or a reply of
 * its own): bound_ms, and past it, for as long as the child's process
 * group keeps using, or waiting for, CHILD_BUSY_MIN_SHARE of a CPU at
 * least (first over the whole bound, then over each slice;
 * childcpu.h: child_group_working), slices of CHILD_BUSY_SLICE_MS more,
 * up to CHILD_BUSY_MAX_FACTOR times bound_ms in all. A loaded machine
 * slows a child that works (an async warm-up to milliseconds a call, at a
 * load of 8 on 2 CPUs; a thread pinned to a CPU that others pin their
 * work to waits seconds for it) without stopping its CPU use or its wait
 * for one; a child stopped, asleep or blocked has neither and ends at its
 * bound. */
#define CHILD_BUSY_MIN_SHARE  0.05
#define CHILD_BUSY_SLICE_MS   5000
#define CHILD_BUSY_MAX_FACTOR 6

struct child_deadline {
	int bound_ms;	/* -1: none; 0: only what is there already */
	int until_ms;	/* the deadline so far, in ms after t0 */
	uint64_t t0_ns; /* its start */
	int64_t cpu_ns; /* the group's CPU time and wait for one at the last look; -1 unread */
	int looked_ms;	/* when that was, in ms after t0 */
	int busy;	/* the last look found the group using CPU */
	int over;	/* it is over: no look extends it again */
};

/* A deadline of bound_ms (-1: none) for child c, from now. */
void child_deadline_start(struct child_deadline *d, const struct child *c, int bound_ms);
/* The ms left before d (-1: no deadline; 0: it is over). At the deadline
 * it looks at c's group: one that used its share of a CPU since the last
 * look gets a slice more, unless that would pass the most d allows. */
int child_deadline_left_ms(struct child_deadline *d, const struct child *c);
/* The ms since d started. */
int child_deadline_waited_ms(const struct child_deadline *d);

/* A child not started: every descriptor closed, nothing to reap. */
void child_init(struct child *c, int slot);

/* Starts argv[0] with argv (NULL-terminated) as the protocol says, its
 * output kept as io says, in interrupt slot c->slot; c is fresh from
 * child_init or child_close. 0, or -1 with a reason in err (nothing left
 * open). */
int child_spawn(struct child *c, enum child_io io, char *const argv[], char *err, size_t errlen);
/* child_spawn with in (the caller's descriptor, left open) as its stdin
 * instead of the driver's. */
int child_spawn_stdin(struct child *c, enum child_io io, char *const argv[], int in, char *err, size_t errlen);

/* Waits for the child to end, within a deadline of timeout_ms (-1: as long
 * as it takes; 0: only if it has ended already), then kills its group
 * (c->timed_out, c->waited_ms, c->busy); reaps it and
 * leaves its interrupt slot. Its exit status as child_classify reads it:
 * 0..255, or -1 (killed by c->signo; or not waited for, c->signo 0). */
int child_reap(struct child *c, int timeout_ms);

/* Ends a child: CHILD_PIPES reads its stdout and stderr until they close;
 * then it is reaped, all within one deadline of timeout_ms as child_reap
 * has it; CHILD_SERVER
 * reads its files. Fills c->output and c->errors; returns how it ended,
 * with one line in why (child_classify). */
enum child_kind child_end(struct child *c, int timeout_ms, char *why, size_t whylen);

/* Kills and reaps the child if it still runs, leaves its slot, closes its
 * descriptors and frees its output. */
void child_close(struct child *c);

/* Runs argv to its end with its output in pipes (interrupt slot 0, no
 * timeout: the child has its own watchdog) and classifies it as child_end
 * does; one that could not start ended CHILD_FAILED. Close c afterwards. */
enum child_kind child_run(struct child *c, char *const argv[], char *why, size_t whylen);
/* child_run within a deadline of timeout_ms (-1: no timeout): past it the
 * child's group is killed (c->timed_out). */
enum child_kind child_run_within(struct child *c, char *const argv[], int timeout_ms, char *why, size_t whylen);

/* Classifies a child from its exit status rc (-1: killed by signal signo)
 * and its stderr; why gets one line: the child's own message, the signal,
 * or the first lines of a Go panic. */
enum child_kind child_classify(int rc, int signo, const char *errout, char *why, size_t len);

#endif
