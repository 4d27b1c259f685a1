/* pool.c — see pool.h. */
#include "timing/pool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pool_open(struct pool *p, int size, const struct plugin_config *c, uint32_t fields, char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	p->items = calloc((size_t)size, sizeof(*p->items));
	p->free = calloc((size_t)size, sizeof(*p->free));
	if (p->items == NULL || p->free == NULL) {
		free(p->items);
		free(p->free);
		snprintf(err, errlen, "out of memory for a pool of %d", size);
		return -1;
	}
	for (int i = 0; i < size; i++) {
		if (extractor_open(&p->items[i], c, fields, err, errlen) != 0) {
			while (i-- > 0)
				extractor_close(&p->items[i]);
			free(p->items);
			free(p->free);
			return -1;
		}
		p->free[i] = &p->items[i];
	}
	p->size = p->nfree = size;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	return 0;
}

void pool_close(struct pool *p)
{
	for (int i = 0; i < p->size; i++)
		extractor_close(&p->items[i]);
	free(p->items);
	free(p->free);
	if (p->size) {
		pthread_cond_destroy(&p->cv);
		pthread_mutex_destroy(&p->mu);
	}
	memset(p, 0, sizeof(*p));
}

struct extractor *pool_take(struct pool *p)
{
	struct extractor *x;

	pthread_mutex_lock(&p->mu);
	if (p->nfree == 0)
		p->waits++;
	while (p->nfree == 0)
		pthread_cond_wait(&p->cv, &p->mu);
	x = p->free[--p->nfree];
	pthread_mutex_unlock(&p->mu);
	return x;
}

void pool_give(struct pool *p, struct extractor *x)
{
	pthread_mutex_lock(&p->mu);
	p->free[p->nfree++] = x;
	pthread_cond_signal(&p->cv);
	pthread_mutex_unlock(&p->mu);
}
