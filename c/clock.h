/* clock.h — the one clock every cgocost loop reads. */
#ifndef CGOCOST_CLOCK_H
#define CGOCOST_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Monotonic time in nanoseconds (vDSO, no system call on Linux). */
static inline uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
