/* allocs.c — see allocs.h. */
#include "measure/allocs.h"

#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/launch.h"

#define COUNT_LIB    "libcgocost_count.so"
#define PRELOAD_MARK "CGOCOST_PRELOADED"

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
	void *(*next)(void) = (void *(*)(void))dlsym(RTLD_DEFAULT, "cgocost_alloc_next_malloc");
	Dl_info info;

	if (next)
		fn = next();
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

/* The preloads asked for, checked (the allocator known and findable, the
 * counter built): "counter:allocator" into want. 0, or 2 with a message. */
static int preloads_wanted(const char *malloc_name, int count_allocs, char *want, size_t wantlen, char *err,
			   size_t errlen)
{
	char self[PATH_MAX], count[PATH_MAX];
	const char *soname = NULL;
	size_t used = 0;

	want[0] = '\0';

	if (malloc_name && allocator_soname(malloc_name, &soname) != 0) {
		snprintf(err, errlen, "--malloc: '%s' is not one of glibc, jemalloc, tcmalloc, mimalloc", malloc_name);
		return 2;
	}
	if (soname) {
		void *h = dlopen(soname, RTLD_LAZY | RTLD_LOCAL);
		if (h == NULL) {
			/* jemalloc cannot be dlopen'ed late (static TLS), yet it
			 * preloads fine: only a library the loader cannot find is
			 * missing; the re-executed process verifies the rest */
			const char *e = dlerror();
			if (e == NULL || strstr(e, "cannot open shared object file")) {
				snprintf(
					err, errlen,
					"--malloc %s: the library loader cannot find %s (install it: scripts/setup.sh)",
					malloc_name, soname);
				return 2;
			}
		} else {
			dlclose(h);
		}
	}
	if (count_allocs) {
		if (self_path(self, sizeof(self)) != 0 || sibling_path(self, COUNT_LIB, count, sizeof(count)) != 0 ||
		    access(count, R_OK) != 0) {
			snprintf(err, errlen, "--count-allocs: %s is not built next to the driver", COUNT_LIB);
			return 2;
		}
		used += (size_t)snprintf(want + used, wantlen - used, "%s", count);
	}
	if (soname)
		snprintf(want + used, wantlen - used, "%s%s", used ? ":" : "", soname);
	return 0;
}

int preload_check(const char *malloc_name, int count_allocs, char *err, size_t errlen)
{
	char want[8192];
	return preloads_wanted(malloc_name, count_allocs, want, sizeof(want), err, errlen);
}

int preload_reexec(const char *malloc_name, int count_allocs, char **argv, char *err, size_t errlen)
{
	char want[8192], self[PATH_MAX];
	const char *mark = getenv(PRELOAD_MARK);
	int rc = preloads_wanted(malloc_name, count_allocs, want, sizeof(want), err, errlen);

	if (rc != 0)
		return rc;
	if (want[0] == '\0' && (mark == NULL || *mark == '\0'))
		return 0;
	if (mark && strcmp(mark, want) == 0)
		return 0; /* this process is the re-executed one */
	if (mark && *mark) {
		snprintf(err, errlen, "inherited preloads (%s) differ from the ones asked for (%s)", mark, want);
		return 2;
	}
	{
		const char *old = getenv("LD_PRELOAD");
		char preload[16384];
		snprintf(preload, sizeof(preload), "%s%s%s", want, old && *old ? ":" : "", old ? old : "");
		setenv("LD_PRELOAD", preload, 1);
		setenv(PRELOAD_MARK, want, 1);
		if (self_path(self, sizeof(self)) != 0) {
			snprintf(err, errlen, "cannot find this executable to re-execute it");
			return -1;
		}
		execv(self, argv);
		snprintf(err, errlen, "cannot re-execute %s with the preloads", self);
		return -1;
	}
}
