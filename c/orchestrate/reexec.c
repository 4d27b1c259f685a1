/* orchestrate/reexec.c — see reexec.h. */
#include "orchestrate/reexec.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/selfpath.h"
#include "plugin/sdkslot.h"
#include "timing/allocs.h"

#define COUNT_LIB    "libcgocost_count.so"
#define SLOT_LIB     "libcgocost_slot.so"
#define PRELOAD_MARK "CGOCOST_PRELOADED"

/* The preloads asked for, checked (the allocator known and findable, the
 * counter built): "counter:allocator" into want. 0, or 2 with a message. */
/* The slot placer beside the driver, into path: 0, or 2 with a message. */
static int slot_lib(char *path, size_t len, char *err, size_t errlen)
{
	char self[PATH_MAX];

	if (self_path(self, sizeof(self)) != 0 || sibling_path(self, SLOT_LIB, path, len) != 0 ||
	    access(path, R_OK) != 0) {
		snprintf(err, errlen, "--slot-offset: %s is not built next to the driver", SLOT_LIB);
		return 2;
	}
	return 0;
}

static int preloads_wanted(const char *malloc_name, int count_allocs, int slot_offset, char *want, size_t wantlen,
			   char *err, size_t errlen)
{
	char self[PATH_MAX], count[PATH_MAX], slot[PATH_MAX];
	const char *soname = NULL;
	size_t used = 0;

	want[0] = '\0';
	/* first: the placer hands every other allocation to the ones after it */
	if (slot_offset >= 0) {
		if (slot_lib(slot, sizeof(slot), err, errlen) != 0)
			return 2;
		used += (size_t)snprintf(want + used, wantlen - used, "%s", slot);
	}

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
		used += (size_t)snprintf(want + used, wantlen - used, "%s%s", used ? ":" : "", count);
	}
	if (soname)
		snprintf(want + used, wantlen - used, "%s%s", used ? ":" : "", soname);
	return 0;
}

int preload_check(const char *malloc_name, int count_allocs, int slot_offset, char *err, size_t errlen)
{
	char want[8192];
	return preloads_wanted(malloc_name, count_allocs, slot_offset, want, sizeof(want), err, errlen);
}

/* --slot-offset's environment, which the placer and the checks read. */
static void slot_env(int slot_offset)
{
	char b[16];

	snprintf(b, sizeof(b), "%d", slot_offset);
	setenv(SDK_SLOT_OFFSET_ENV, b, 1);
}

/* LD_PRELOAD with path (one library or a list) first, unless it is there
 * already. */
static void preload_first(const char *path)
{
	const char *old = getenv("LD_PRELOAD");
	char preload[16384];

	if (old && strstr(old, path))
		return;
	snprintf(preload, sizeof(preload), "%s%s%s", path, old && *old ? ":" : "", old ? old : "");
	setenv("LD_PRELOAD", preload, 1);
}

int preload_export_slot(int slot_offset, char *err, size_t errlen)
{
	char slot[PATH_MAX];

	if (slot_offset < 0)
		return 0;
	if (slot_lib(slot, sizeof(slot), err, errlen) != 0)
		return 2;
	slot_env(slot_offset);
	preload_first(slot);
	return 0;
}

int preload_reexec(const char *malloc_name, int count_allocs, int slot_offset, char **argv, char *err, size_t errlen)
{
	char want[8192], self[PATH_MAX];
	const char *mark = getenv(PRELOAD_MARK);
	int rc = preloads_wanted(malloc_name, count_allocs, slot_offset, want, sizeof(want), err, errlen);

	if (rc != 0)
		return rc;
	if (slot_offset >= 0)
		slot_env(slot_offset);
	if (want[0] == '\0' && (mark == NULL || *mark == '\0'))
		return 0;
	if (mark && strcmp(mark, want) == 0)
		return 0; /* this process is the re-executed one */
	if (mark && *mark) {
		snprintf(err, errlen, "inherited preloads (%s) differ from the ones asked for (%s)", mark, want);
		return 2;
	}
	{
		preload_first(want);
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
