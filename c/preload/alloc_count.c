/* alloc_count.c — an LD_PRELOAD library that counts C-side allocations
 * (malloc, calloc, realloc, aligned allocations, free) of the whole process
 * and hands every call to the next allocator: glibc's, or the one --malloc
 * preloaded after this library. The bench driver preloads it for
 * --count-allocs and reads the counts through cgocost_alloc_counts(). */
#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static void *(*next_malloc)(size_t);
static void *(*next_calloc)(size_t, size_t);
static void *(*next_realloc)(void *, size_t);
static void (*next_free)(void *);
static int (*next_posix_memalign)(void **, size_t, size_t);
static void *(*next_aligned_alloc)(size_t, size_t);
static void *(*next_memalign)(size_t, size_t);

static _Atomic uint64_t mallocs, frees, reallocs;

/* dlsym itself may allocate: those few early requests are served from a
 * static buffer, never freed to the real allocator. */
static _Alignas(16) unsigned char boot[16384];
static size_t boot_used;
static _Thread_local int resolving;

static void *boot_alloc(size_t n)
{
	size_t at = (boot_used + 15) & ~(size_t)15;
	if (at + n > sizeof(boot))
		return NULL;
	boot_used = at + n;
	return boot + at;
}

static int from_boot(const void *p)
{
	return (const unsigned char *)p >= boot && (const unsigned char *)p < boot + sizeof(boot);
}

static void resolve(void)
{
	resolving = 1;
	next_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
	next_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
	next_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
	next_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
	next_posix_memalign = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
	next_aligned_alloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "aligned_alloc");
	next_memalign = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "memalign");
	resolving = 0;
}

void *malloc(size_t n)
{
	if (next_malloc == NULL) {
		if (resolving)
			return boot_alloc(n);
		resolve();
	}
	atomic_fetch_add_explicit(&mallocs, 1, memory_order_relaxed);
	return next_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	if (next_calloc == NULL) {
		if (resolving)
			return boot_alloc(n * size); /* static memory is zeroed */
		resolve();
	}
	atomic_fetch_add_explicit(&mallocs, 1, memory_order_relaxed);
	return next_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	if (from_boot(p)) {
		void *q = malloc(n);
		if (q)
			memcpy(q, p, n); /* boot blocks are small; n bounds the copy */
		return q;
	}
	if (next_realloc == NULL)
		resolve();
	if (p == NULL)
		atomic_fetch_add_explicit(&mallocs, 1, memory_order_relaxed);
	else
		atomic_fetch_add_explicit(&reallocs, 1, memory_order_relaxed);
	return next_realloc(p, n);
}

void free(void *p)
{
	if (p == NULL || from_boot(p))
		return;
	if (next_free == NULL)
		resolve();
	atomic_fetch_add_explicit(&frees, 1, memory_order_relaxed);
	next_free(p);
}

int posix_memalign(void **out, size_t align, size_t n)
{
	if (next_posix_memalign == NULL)
		resolve();
	atomic_fetch_add_explicit(&mallocs, 1, memory_order_relaxed);
	return next_posix_memalign(out, align, n);
}

void *aligned_alloc(size_t align, size_t n)
{
	if (next_aligned_alloc == NULL)
		resolve();
	atomic_fetch_add_explicit(&mallocs, 1, memory_order_relaxed);
	return next_aligned_alloc(align, n);
}

void *memalign(size_t align, size_t n)
{
	if (next_memalign == NULL)
		resolve();
	atomic_fetch_add_explicit(&mallocs, 1, memory_order_relaxed);
	return next_memalign(align, n);
}

/* What the driver reads: allocations, frees and reallocations so far. */
void cgocost_alloc_counts(uint64_t *m, uint64_t *f, uint64_t *r)
{
	*m = atomic_load(&mallocs);
	*f = atomic_load(&frees);
	*r = atomic_load(&reallocs);
}

/* The malloc this library hands calls to, so the driver can name the
 * allocator underneath. */
void *cgocost_alloc_next_malloc(void)
{
	if (next_malloc == NULL)
		resolve();
	return (void *)(uintptr_t)next_malloc;
}
