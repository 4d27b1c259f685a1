/* series.h — one timed loop split into batches: the raw record every
 * measurement produces before any statistics. */
#ifndef CGOCOST_SERIES_H
#define CGOCOST_SERIES_H

#include <stdint.h>

struct series {
	uint32_t nbatches;
	uint64_t *ns;	    /* elapsed time of each batch */
	uint64_t *ops;	    /* operations in each batch */
	uint64_t total_ns;  /* sum of ns */
	uint64_t total_ops; /* sum of ops */
};

int series_init(struct series *s, uint64_t n, uint32_t nbatches);
void series_free(struct series *s);
void series_add(struct series *s, uint32_t batch, uint64_t ns);
/* ns per operation of one batch, and of the whole series. */
double series_batch_per_op(const struct series *s, uint32_t batch);
double series_per_op(const struct series *s);

/* A batch stalled when it took this much longer than the median batch: the
 * SDK's async worker sleeps 10 ms at a time once idle for 1 ms. */
#define STALL_EXCESS_NS 1000000.0

/* Counts stalled batches and finds the slowest and the median batch (ns per
 * operation); NAN for an empty series. */
uint32_t batches_stalls(const struct series *s, double *slowest_per_op, double *median_per_op);
/* The median batch, in ns per operation. */
double series_median_per_op(const struct series *s);

#endif
