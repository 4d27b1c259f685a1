/* stats/steady.h — when a lead-in has reached a steady state: the calls
 * before a paired block are timed in groups of STEADY_GROUP, and the
 * lead-in may end once the last STEADY_RUN groups lie within STEADY_BAND
 * of each other (slowest at most 1 + STEADY_BAND times the fastest). A
 * cold cache, a CPU the caller just returned to or an async worker waking
 * from its sleep shows as groups that differ by far more; a loop in its
 * steady state repeats within a few per cent. */
#ifndef CGOCOST_STATS_STEADY_H
#define CGOCOST_STATS_STEADY_H

#include <stdint.h>

#define STEADY_GROUP 16	  /* calls timed together (a clock read per group) */
#define STEADY_RUN   4	  /* groups in a row */
#define STEADY_BAND  0.25 /* the slowest of them over the fastest, less 1 */

struct steady {
	uint64_t last[STEADY_RUN]; /* the latest groups' ns, a ring */
	unsigned n;		   /* groups seen */
};

void steady_init(struct steady *s);

/* Adds one group's ns; 1 when the last STEADY_RUN groups, this one among
 * them, are steady (none took 0 ns: a clock that did not move is no
 * measurement), 0 before. */
int steady_add(struct steady *s, uint64_t group_ns);

#endif
