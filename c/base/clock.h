/* clock.h — the one clock every cgocost loop reads. */
#ifndef CGOCOST_BASE_CLOCK_H
#define CGOCOST_BASE_CLOCK_H

#include <stdint.h>
#include <time.h>

/* A clock in nanoseconds: monotonic time, or a process or thread CPU clock. */
static inline uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Monotonic time in nanoseconds (vDSO, no system call on Linux). */
static inline uint64_t now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

#endif
