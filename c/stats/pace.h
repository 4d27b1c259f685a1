/* stats/pace.h — a loop's pace from its calls timed in groups, for sizing
 * a paired child's blocks. The warm-up's mean (its whole time over its
 * calls) takes in an async worker waking from its sleep or a thread
 * descheduled for milliseconds: a block sized from it once held 5 calls
 * (3 us) where 2 ms were asked. The fastest group is the loop at its own
 * pace: the median still fell in a stall that lasted half of a 10 ms
 * warm-up, and under the sanitizers beside CI's other streams even the
 * first quartile ran 5x slower than the blocks later did (a block of
 * 0.37 ms where 8 ms were asked). But blocks sized from it alone lasted up to 12 ms
 * on a loaded machine, and long async blocks meet the host's preemptions
 * in most of them, which the median over blocks then no longer leaves out:
 * a gate missed a +2000 ns injection so (measured; that was the first
 * quartile's). So a block keeps the mean's size, which the regression
 * check was calibrated with, and is never shorter than a quarter of its
 * time at the fastest group's pace. */
#ifndef CGOCOST_STATS_PACE_H
#define CGOCOST_STATS_PACE_H

#include <stddef.h>
#include <stdint.h>

#define PACE_MIN_GROUP	1024 /* calls timed together, at least */
#define PACE_MAX_GROUPS 32   /* groups kept: the rest go to the mean only */

struct pace {
	double per_op[PACE_MAX_GROUPS]; /* each group's ns a call */
	size_t n;			/* groups kept */
	uint64_t ns, calls;		/* over every group */
};

/* The calls to time together for a loop of n: at least PACE_MIN_GROUP,
 * and few enough that n makes at most PACE_MAX_GROUPS groups. */
uint64_t pace_group(uint64_t n);

void pace_init(struct pace *p);

/* Adds a group of calls that took ns; calls 0 is ignored. */
void pace_add(struct pace *p, uint64_t calls, uint64_t ns);

/* ns a call over every call added; 0 with none. */
double pace_mean(const struct pace *p);

/* ns a call in the fastest group kept (the loop when nothing stopped it:
 * a group is PACE_MIN_GROUP calls or more, one clock read); 0 with none. */
double pace_fastest(const struct pace *p);

/* The pace to size blocks from: the mean over every call, or four times
 * pace_fastest when that is less (a block of at least a quarter of its time
 * at the steady pace); 0 with no call. */
double pace_for_blocks(const struct pace *p);

#endif
