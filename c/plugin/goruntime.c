/* plugin/goruntime.c — see goruntime.h. */
#include "plugin/goruntime.h"

#define MAX_RUNTIMES 16

static struct plugin_syms runtimes[MAX_RUNTIMES];
static int nruntimes;

void goruntime_register(const struct plugin_syms *s)
{
	if (s->go_allocs == NULL || nruntimes == MAX_RUNTIMES)
		return;
	for (int i = 0; i < nruntimes; i++)
		if (runtimes[i].go_allocs == s->go_allocs)
			return;
	runtimes[nruntimes++] = *s;
}

void goruntime_allocs(uint64_t *objects, uint64_t *bytes)
{
	*objects = *bytes = 0;
	for (int i = 0; i < nruntimes; i++) {
		*objects += runtimes[i].go_allocs();
		*bytes += runtimes[i].go_alloc_bytes ? runtimes[i].go_alloc_bytes() : 0;
	}
}

void (*goruntime_raw_noop(void))(void)
{
	for (int i = 0; i < nruntimes; i++)
		if (runtimes[i].raw_noop)
			return runtimes[i].raw_noop;
	return NULL;
}

void (*goruntime_ref_start(void))(struct ref_handoff *)
{
	for (int i = 0; i < nruntimes; i++)
		if (runtimes[i].ref_start)
			return runtimes[i].ref_start;
	return NULL;
}

int goruntime_can_dump(void)
{
	for (int i = 0; i < nruntimes; i++)
		if (runtimes[i].goroutines)
			return 1;
	return 0;
}

int goruntime_stacks(char *buf, int n)
{
	for (int i = 0; i < nruntimes; i++)
		if (runtimes[i].goroutines)
			return runtimes[i].goroutines(buf, n);
	return 0;
}
