/* timing/roundtrip.c — see roundtrip.h. */
#include "timing/roundtrip.h"

#include <pthread.h>
#include <sched.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "base/sysinfo.h"

/* The shared cache line, alone on its line, and pong's word on its pin
 * (1 pinned, -1 it could not, 0 not yet), which ping waits for before its
 * first request, with pong's CPU clock (read by pong itself: a thread
 * that already ended has none to give). STOP ends pong. */
struct rt_line {
	alignas(64) _Atomic uint64_t seq;
	alignas(64) _Atomic int pong_ready;
	clockid_t pong_clock;
};
#define STOP UINT64_MAX

struct rt_job {
	struct rt_line *line;
	struct series *s;
	struct rt_result *r;
	uint64_t warmup;
	int cpu;
	int failed;
};

/* Pong: answers every odd sequence number with the next even one, until
 * STOP. */
static void *pong(void *arg)
{
	struct rt_job *j = arg;

	if (pin_to_cpu(j->cpu) != 0 || pthread_getcpuclockid(pthread_self(), &j->line->pong_clock) != 0) {
		j->failed = 1;
		atomic_store(&j->line->pong_ready, -1);
		return NULL;
	}
	atomic_store(&j->line->pong_ready, 1);
	for (uint64_t want = 1;; want += 2) {
		uint64_t v;
		while ((v = atomic_load_explicit(&j->line->seq, memory_order_acquire)) != want)
			if (v == STOP)
				return NULL;
		atomic_store_explicit(&j->line->seq, want + 1, memory_order_release);
	}
}

static int round_trip(struct rt_line *l, uint64_t i)
{
	uint64_t v;

	atomic_store_explicit(&l->seq, 2 * i + 1, memory_order_release);
	while ((v = atomic_load_explicit(&l->seq, memory_order_acquire)) != 2 * i + 2)
		if (v == STOP)
			return -1;
	return 0;
}

/* Ping, on the calling thread pinned to CPU a: the warm-up, then each
 * batch until it is clean, within the tries and the budget. */
static int ping(struct rt_job *j)
{
	struct series *s = j->s;
	uint64_t i = 0, began;
	int ready;

	if (pin_to_cpu(j->cpu) != 0)
		return -1;
	while ((ready = atomic_load(&j->line->pong_ready)) == 0)
		sched_yield();
	if (ready < 0)
		return -1;
	for (; i < j->warmup; i++)
		if (round_trip(j->line, i))
			return -1;
	began = now_ns();
	while (floor_try_again(j->r->kept, s->nbatches, j->r->tries, now_ns() - began, 1)) {
		uint64_t end = i + s->ops[j->r->kept];
		uint64_t c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID), p0 = clock_ns(j->line->pong_clock), t0 = now_ns();
		for (; i < end; i++)
			if (round_trip(j->line, i))
				return -1;
		uint64_t dt = now_ns() - t0;
		uint64_t c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID), p1 = clock_ns(j->line->pong_clock);
		j->r->tries++;
		if (off_cpu_ns(dt, c0, c1, FLOOR_LOST_NS) || off_cpu_ns(dt, p0, p1, FLOOR_LOST_NS)) {
			j->r->dropped++;
			continue;
		}
		series_add(s, j->r->kept++, dt);
	}
	return 0;
}

static void *ping_thread(void *arg)
{
	struct rt_job *j = arg;

	j->failed = ping(j) != 0;
	atomic_store(&j->line->seq, STOP); /* pong's end, in every case */
	return NULL;
}

int rt_measure(struct series *s, uint64_t warmup, int cpu_a, int cpu_b, struct rt_result *r, char *err, size_t errlen)
{
	static struct rt_line line;
	struct rt_job a, b;
	pthread_t ta, tb;

	memset(r, 0, sizeof(*r));
	atomic_store(&line.seq, 0);
	atomic_store(&line.pong_ready, 0);
	a = (struct rt_job){ .line = &line, .s = s, .r = r, .warmup = warmup, .cpu = cpu_a };
	b = a;
	b.cpu = cpu_b;
	if (pthread_create(&tb, NULL, pong, &b) != 0) {
		snprintf(err, errlen, "cannot start the round-trip thread");
		return -1;
	}
	if (pthread_create(&ta, NULL, ping_thread, &a) != 0) {
		atomic_store(&line.seq, STOP);
		pthread_join(tb, NULL);
		snprintf(err, errlen, "cannot start the round-trip thread");
		return -1;
	}
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	if (a.failed || b.failed) {
		snprintf(err, errlen, "cache-line round trip: cannot pin to CPUs %d and %d", cpu_a, cpu_b);
		return -1;
	}
	return 0;
}
