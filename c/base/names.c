/* base/names.c — see names.h. */
#include "base/names.h"

#include <stddef.h>
#include <string.h>

static const char *const work_names[WORK_COUNT] = { "noop", "u64", "str", "bare", "event", "json" };
static const char *const scenario_names[SCEN_COUNT] = { "extract", "alloc", "reuse" };
static const char *const allocators[] = { "glibc", "jemalloc", "tcmalloc", "mimalloc" };

static int find(const char *const *names, int n, const char *s)
{
	for (int i = 0; s && i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

const char *work_name(enum work w)
{
	return (unsigned)w < WORK_COUNT ? work_names[w] : "?";
}

int work_parse(const char *s, enum work *w)
{
	int i = find(work_names, WORK_COUNT, s);
	if (i < 0)
		return -1;
	*w = (enum work)i;
	return 0;
}

const char *scenario_name(enum scenario s)
{
	return (unsigned)s < SCEN_COUNT ? scenario_names[s] : "?";
}

int scenario_parse(const char *s, enum scenario *sc)
{
	int i = find(scenario_names, SCEN_COUNT, s);
	if (i < 0)
		return -1;
	*sc = (enum scenario)i;
	return 0;
}

const char *allocator_name(const char *s)
{
	int i = find(allocators, (int)(sizeof(allocators) / sizeof(allocators[0])), s);
	return i < 0 ? NULL : allocators[i];
}

const char *allocator_names(void)
{
	return "glibc, jemalloc, tcmalloc, mimalloc";
}
