/* pool.h — the instance pool of the lifecycle scenario: initialized plugin
 * instances that threads take and give back. An instance is never held by
 * two threads at once; with fewer instances than threads, threads wait. */
#ifndef CGOCOST_POOL_H
#define CGOCOST_POOL_H

#include <pthread.h>

#include "plugin/extractor.h"

struct pool {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct extractor *items; /* the instances */
	struct extractor **free; /* a stack of the ones not taken */
	int size, nfree;
	unsigned long long waits; /* takes that found the pool empty */
};

/* Initializes size instances, one at a time (the SDK forbids concurrent
 * plugin_init). Returns 0, or -1 with a message (nothing left allocated). */
int pool_open(struct pool *p, int size, const struct plugin_config *c, uint32_t fields, char *err, size_t errlen);
void pool_close(struct pool *p);
struct extractor *pool_take(struct pool *p);
void pool_give(struct pool *p, struct extractor *x);

#endif
