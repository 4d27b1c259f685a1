/* slot_place.c — an LD_PRELOAD library for --slot-offset: it places the Go
 * plugin SDK's async slot array (its one allocation of SLOT_ARRAY_BYTES,
 * plugin/sdkslot.h) CGOCOST_SLOT_OFFSET bytes past a 64-byte boundary, and
 * hands every other allocation to the next allocator (glibc's, or the one
 * --malloc preloaded after this library). Only the first allocation of
 * that size is placed; the driver checks afterwards that it was the SDK's
 * (the slot found at the offset asked), so a wrong guess is a failed run,
 * never a wrong figure. The placed block comes from the next allocator's
 * aligned_alloc and goes back through its free. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>

/* 256 slots of 56 bytes: cgo.MaxHandle + 1 records (plugin-sdk-go v0.8.3) */
#define SLOT_ARRAY_BYTES (256u * 56u)
#define ALIGN		 64u

static void *(*next_malloc)(size_t);
static void (*next_free)(void *);
static void *(*next_aligned_alloc)(size_t, size_t);
static void *placed, *placed_block;
static int done, offset = -1;

/* Resolved on the first call; dlsym's success path allocates nothing. */
static void resolve(void)
{
	const char *e = getenv("CGOCOST_SLOT_OFFSET");

	next_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
	next_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
	next_aligned_alloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "aligned_alloc");
	if (e != NULL && *e >= '0' && *e <= '9')
		offset = atoi(e) % (int)ALIGN;
}

void *malloc(size_t n)
{
	if (next_malloc == NULL)
		resolve();
	if (n == SLOT_ARRAY_BYTES && offset >= 0 && !__atomic_exchange_n(&done, 1, __ATOMIC_ACQ_REL)) {
		placed_block = next_aligned_alloc(ALIGN, n + ALIGN);
		if (placed_block == NULL)
			return NULL;
		placed = (char *)placed_block + offset;
		return placed;
	}
	return next_malloc(n);
}

void free(void *p)
{
	if (next_free == NULL)
		resolve();
	if (p != NULL && p == placed) {
		placed = NULL;
		next_free(placed_block);
		return;
	}
	next_free(p);
}

/* The malloc this library hands calls to, so the driver can name the
 * allocator underneath. */
void *cgocost_slot_next_malloc(void)
{
	if (next_malloc == NULL)
		resolve();
	return (void *)(uintptr_t)next_malloc;
}

/* The mark the driver looks up (dlsym) to know the placer is in the
 * process: the offset it places at, -1 when none was asked. */
int cgocost_slot_place(void)
{
	if (next_malloc == NULL)
		resolve();
	return offset;
}
