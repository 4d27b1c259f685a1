/* base/threadcpu.h — the CPU time of every thread of this process, read
 * from each thread's own clock. The process clock (CLOCK_PROCESS_CPUTIME_ID)
 * adds another thread's running time only when the kernel accounts it, at
 * its scheduler tick (4 ms at HZ=250) or a switch, so over a paired block
 * of a few milliseconds it reads an async worker spinning on the other CPU
 * as 0, or as the ticks' worth that fell inside: measured, 977 CPU-ns an
 * extraction at 948 wall-ns for 0.25 ms async blocks, where two threads
 * spin. A thread's own clock includes its time up to the read. */
#ifndef CGOCOST_BASE_THREADCPU_H
#define CGOCOST_BASE_THREADCPU_H

#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#define THREADCPU_MAX 64 /* threads read; a Go process has a dozen */

struct threadcpu {
	pid_t tid[THREADCPU_MAX];
	int64_t ns[THREADCPU_MAX]; /* at the last mark; -1: ended */
	int n;
};

/* The CPU clock of thread tid of this process (Linux's encoding of a
 * per-thread scheduler clock). */
clockid_t threadcpu_clock(pid_t tid);

/* Lists this process's threads (/proc/self/task): 0, or -1 when the list
 * cannot be read. A directory read: do it before a window, not at its
 * edge. */
int threadcpu_list(struct threadcpu *t);

/* Reads each listed thread's CPU time: the start of a window (a system
 * call a thread; a thread that has ended counts for nothing). */
void threadcpu_mark(struct threadcpu *t);

/* The CPU time the listed threads spent since the mark, summed: a thread
 * that has ended since counts its last clock while the kernel still holds
 * it, nothing once it is gone; a thread started since the list is not
 * counted. */
uint64_t threadcpu_since(const struct threadcpu *t);

#endif
