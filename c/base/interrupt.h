/* base/interrupt.h — what SIGINT, SIGTERM and SIGHUP do to a driver: the
 * running child launches (their whole process groups, and the orphans they
 * left, adopted) are killed and reaped, the
 * temporary file of a save in progress is removed, one line on stderr says
 * what was interrupted, and the process exits 128 + the signal number.
 *
 * The handler only reads what the functions below publish, each a value or
 * a buffer switched in whole (async-signal-safe, whichever thread gets the
 * signal). */
#ifndef CGOCOST_BASE_INTERRUPT_H
#define CGOCOST_BASE_INTERRUPT_H

#include <signal.h>
#include <sys/types.h>

/* Installs the handler for SIGINT, SIGTERM and SIGHUP; prog starts the line. */
void interrupt_install(const char *prog);

/* What the process is doing, for the line: "launch 3 of 20 (bench async)". */
void interrupt_doing(const char *what);

/* The children now running, each the leader of its own process group: slot
 * 0..INTERRUPT_SLOTS holds one (0: none; a single launch is slot 0, a paired
 * run keeps several alive at once; orchestrate/child.c fills them). The
 * handler kills them all, then reaps them. */
#define INTERRUPT_SLOTS 32
void interrupt_child_slot(int slot, pid_t pid);

/* Around every fork of a child, up to its slot being filled: begin blocks
 * SIGINT, SIGTERM and SIGHUP on the calling thread (old: its mask before,
 * for the child to restore before exec and for end), and never returns
 * once the handler has begun; the handler waits for every fork under way
 * to end before it kills the slots' children. Without it, a thread could
 * start a child the handler has already looked past, and leave it (and
 * what it starts) running after the driver exits. */
void interrupt_fork_begin(sigset_t *old);
void interrupt_fork_end(const sigset_t *old);

/* Makes this process the reaper of its orphaned descendants
 * (PR_SET_CHILD_SUBREAPER): what a child leaves behind outside its process
 * group (a wrapper's `setsid sleep 1000 &`) becomes this process's child
 * when the child ends, instead of init's, so that it can be killed. */
void interrupt_adopt_orphans(void);

/* Kills (SIGKILL) and reaps every child of this process that sits in no
 * slot: the orphans adopted since interrupt_adopt_orphans. The handler
 * does it too, once the slots' children are reaped. Async-signal-safe. */
void interrupt_kill_adopted(void);

/* A temporary file to remove if interrupted (NULL: none). */
void interrupt_tempfile(const char *path);

/* Never returns once the handler has begun: a thread that finds a child
 * gone (the handler killed and reaped it) must not report that as a failed
 * launch, nor exit with the failed-run status, while the handler finishes
 * (found under load: the line "launch ... failed: could not run" after the
 * handler's, and once, under ASan, a driver that never exited). Called
 * wherever a child is reaped (orchestrate/child.c). */
void interrupt_hold_if_dying(void);

/* A test hook: with CGOCOST_TEST_INTERRUPT_LINGER_MS=N in the environment
 * at interrupt_install, the handler waits N ms after its line before it
 * exits, so that a thread that would race it has the time to. */
#define INTERRUPT_LINGER_ENV "CGOCOST_TEST_INTERRUPT_LINGER_MS"

#endif
