/* clock.h — the one clock every cgocost loop reads. */
#ifndef CGOCOST_BASE_CLOCK_H
#define CGOCOST_BASE_CLOCK_H

#include <stdint.h>
#include <time.h>

/* A clock in nanoseconds: monotonic time, or a process or thread CPU clock;
 * 0 when it cannot be read (the CPU clock of a thread that is gone): a
 * caller comparing a CPU clock with wall time then sees a thread that did
 * not run. */
static inline uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;
	if (clock_gettime(id, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Whether a thread whose CPU clock read c0, then c1, over wall ns of wall
 * time ran less than that wall time by more than slack ns: it lost its CPU
 * (a clock that could not be read counts as a thread that did not run). */
static inline int off_cpu_ns(uint64_t wall, uint64_t c0, uint64_t c1, uint64_t slack)
{
	uint64_t ran = c0 != 0 && c1 > c0 ? c1 - c0 : 0;
	return wall > ran && wall - ran > slack;
}

/* Monotonic time in nanoseconds (vDSO, no system call on Linux). */
static inline uint64_t now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

#endif
