/* allocs.h — the allocator under the run: --malloc swaps it by re-executing
 * the driver with the library preloaded (orchestrate/reexec.h), --count-allocs
 * preloads the counter (c/preload/alloc_count.c); both are verified in the
 * process, never assumed. */
#ifndef CGOCOST_TIMING_ALLOCS_H
#define CGOCOST_TIMING_ALLOCS_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

struct alloc_counts {
	int counting; /* the counter library is in the process */
	uint64_t mallocs, frees;
};

void alloc_counts_read(struct alloc_counts *c);

/* Known allocators: "glibc" (none preloaded), "jemalloc", "tcmalloc",
 * "mimalloc". The soname can be overridden by CGOCOST_<NAME> (for example
 * CGOCOST_JEMALLOC=libjemalloc.so.2). Returns 0, or -1 for an unknown name. */
int allocator_soname(const char *name, const char **soname);

/* The file that provides the malloc the process calls (under the counter,
 * the one it hands calls to), and the allocator it is: "glibc", "jemalloc",
 * "tcmalloc", "mimalloc" or "unknown". */
void allocator_in_effect(char *path, size_t len, const char **name);

#endif
