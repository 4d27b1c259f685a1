/* allocs.c — see allocs.h. */
#include "timing/allocs.h"

#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void alloc_counts_read(struct alloc_counts *c)
{
	void (*fn)(uint64_t *, uint64_t *, uint64_t *) =
		(void (*)(uint64_t *, uint64_t *, uint64_t *))dlsym(RTLD_DEFAULT, "cgocost_alloc_counts");

	uint64_t reallocs;

	memset(c, 0, sizeof(*c));
	if (fn) {
		c->counting = 1;
		fn(&c->mallocs, &c->frees, &reallocs);
	}
}

static const struct {
	const char *name, *soname, *env;
} allocators[] = {
	{ "glibc", NULL, NULL },
	{ "jemalloc", "libjemalloc.so.2", "CGOCOST_JEMALLOC" },
	{ "tcmalloc", "libtcmalloc_minimal.so.4", "CGOCOST_TCMALLOC" },
	{ "mimalloc", "libmimalloc.so.2", "CGOCOST_MIMALLOC" },
};

int allocator_soname(const char *name, const char **soname)
{
	for (size_t i = 0; i < sizeof(allocators) / sizeof(allocators[0]); i++)
		if (strcmp(name, allocators[i].name) == 0) {
			const char *env = allocators[i].env ? getenv(allocators[i].env) : NULL;
			*soname = env && *env ? env : allocators[i].soname;
			return 0;
		}
	return -1;
}

void allocator_in_effect(char *path, size_t len, const char **name)
{
	void *fn = dlsym(RTLD_DEFAULT, "malloc");
	/* the preloads in front of the allocator, the slot placer first, then
	 * the counter: the last one's next malloc is the allocator's */
	void *(*next)(void) = (void *(*)(void))dlsym(RTLD_DEFAULT, "cgocost_alloc_next_malloc");
	void *(*slot_next)(void) = (void *(*)(void))dlsym(RTLD_DEFAULT, "cgocost_slot_next_malloc");
	Dl_info info;

	if (next)
		fn = next();
	else if (slot_next)
		fn = slot_next();
	snprintf(path, len, "unknown");
	*name = "unknown";
	if (fn == NULL || dladdr(fn, &info) == 0 || info.dli_fname == NULL)
		return;
	snprintf(path, len, "%s", info.dli_fname);
	if (strstr(info.dli_fname, "jemalloc"))
		*name = "jemalloc";
	else if (strstr(info.dli_fname, "tcmalloc"))
		*name = "tcmalloc";
	else if (strstr(info.dli_fname, "mimalloc"))
		*name = "mimalloc";
	else if (strstr(info.dli_fname, "libc.so"))
		*name = "glibc";
}
