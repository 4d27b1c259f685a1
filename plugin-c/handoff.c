/* plugin-c/handoff.c — see handoff.h. */
#include "handoff.h"

#include <linux/futex.h>
#include <stddef.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

_Static_assert(offsetof(struct handoff, sleeping) == 64 && offsetof(struct handoff, seq) == 128,
	       "the request slot, the sleep and the caller's own each on a line of their own");

static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

static uint64_t mono_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void futex_wait(_Atomic uint32_t *w, uint32_t seen)
{
	syscall(SYS_futex, (uint32_t *)w, FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
}

static void futex_wake(_Atomic uint32_t *w)
{
	syscall(SYS_futex, (uint32_t *)w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* Waits for a request after seen: its sequence number, or 0 when stopped.
 * Spins, reading the clock only every 1024 rounds; sleeps when idle. */
static uint64_t next_request(struct handoff *h, uint64_t seen)
{
	uint64_t idle_since = mono_ns();

	for (unsigned k = 1;; k++) {
		uint64_t r = atomic_load_explicit(&h->req, memory_order_acquire);
		if (r != seen)
			return r;
		if (atomic_load_explicit(&h->stop, memory_order_relaxed))
			return 0;
		relax();
		if (k % 1024 || mono_ns() - idle_since < HANDOFF_IDLE_NS)
			continue;
		/* announce the sleep, then look once more: a caller either sees
		 * sleeping and rings, or posted before and is seen here */
		uint32_t bell = atomic_load(&h->bell);
		atomic_store(&h->sleeping, 1);
		if (atomic_load(&h->req) == seen && !atomic_load(&h->stop))
			futex_wait(&h->bell, bell);
		atomic_store(&h->sleeping, 0);
		idle_since = mono_ns();
	}
}

static void *worker(void *arg)
{
	struct handoff *h = arg;
	uint64_t seen = 0, r;

	while ((r = next_request(h, seen)) != 0) {
		seen = r;
		h->rc = h->fn(h->ctx, h->evt, h->in);
		atomic_store_explicit(&h->ack, r, memory_order_release);
	}
	return NULL;
}

int handoff_start(struct handoff *h, handoff_fn fn, void *ctx)
{
	int e;

	memset(h, 0, sizeof(*h));
	h->fn = fn;
	h->ctx = ctx;
	if ((e = pthread_create(&h->thread, NULL, worker, h)) != 0)
		return e;
	h->started = 1;
	return 0;
}

static void ring(struct handoff *h)
{
	if (atomic_load(&h->sleeping)) {
		h->wakeups++;
		atomic_fetch_add(&h->bell, 1);
		futex_wake(&h->bell);
	}
}

int handoff_call(struct handoff *h, const void *evt, const void *in)
{
	uint64_t s = ++h->seq;

	h->evt = evt;
	h->in = in;
	atomic_store(&h->req, s); /* sequentially consistent: ordered before the look at sleeping */
	ring(h);
	while (atomic_load_explicit(&h->ack, memory_order_acquire) != s)
		relax();
	return h->rc;
}

void handoff_stop(struct handoff *h)
{
	if (!h->started)
		return;
	atomic_store(&h->stop, 1);
	ring(h);
	pthread_join(h->thread, NULL);
	h->started = 0;
}
