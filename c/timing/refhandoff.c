/* timing/refhandoff.c — see refhandoff.h: the caller's side. */
#include "timing/refhandoff.h"

#include <errno.h>
#include <linux/futex.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "stats/stats.h"
#include "timing/floorcheck.h"
#include "timing/series.h"

#define WAKE_TRIALS 31

static inline void cpu_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield");
#endif
}

/* One handoff of step s: post, wake the worker if it sleeps, spin for the
 * acknowledgement; returns 0, or -1 when the answer is not this request's.
 * *wakes counts the futex wake-ups sent. Why a count of 0 proves that no
 * request waited for a sleeping worker: the worker sets sleeping before its
 * last look at req and only then blocks; the caller stores req before it
 * looks at sleeping (both sequentially consistent). So a worker that blocks
 * while this request is pending was seen sleeping here, and counted (a
 * worker that set sleeping and then saw the request is counted too: the
 * count errs on the side of rejecting). The count costs nothing on the
 * spin path: it is in the branch that already calls futex. */
static inline int handoff(struct ref_handoff *h, uint64_t seq, enum ref_step s, uint64_t *wakes)
{
	if (s != REF_BARE)
		__atomic_store_n(&h->evtnum, seq, __ATOMIC_RELAXED);
	__atomic_store_n(&h->req, seq, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&h->sleeping, __ATOMIC_SEQ_CST)) {
		syscall(SYS_futex, &h->req, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
		++*wakes;
	}
	while (__atomic_load_n(&h->ack, __ATOMIC_ACQUIRE) != seq)
		cpu_pause();
	if (s == REF_RESULT && __atomic_load_n(&h->value, __ATOMIC_RELAXED) != ref_value(seq))
		return -1;
	return 0;
}

/* One step: its warm-up (wake-ups allowed: the worker may sleep before
 * it), then its timed batches. A batch that needs a wake-up is dropped at
 * that wake-up (counted, with it), or at its end with a thread off its
 * CPU, and measured again while floor_try_again says so (its budget open
 * once one batch was clean); a step that cannot fill its batches is left NAN
 * (r->short_step says which). */
static int timed_step(struct ref_handoff *h, clockid_t worker, uint64_t *seq, enum ref_step s, uint64_t n,
		      uint32_t batches, uint64_t warmup, struct ref_result *r)
{
	struct series ser;
	uint64_t warm_wakes = 0;
	uint32_t kept = 0, tries = 0;
	uint64_t began;

	if (series_init(&ser, n, batches) != 0)
		return -1;
	for (uint64_t i = 0; i < warmup; i++)
		if (handoff(h, ++*seq, s, &warm_wakes) != 0)
			goto bad;
	began = now_ns();
	while (floor_try_again(kept, ser.nbatches, tries, now_ns() - began, kept > 0)) {
		uint64_t c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID), w0 = clock_ns(worker);
		uint64_t wakes = 0, t0 = now_ns(), end = *seq + ser.ops[kept], dt;
		while (*seq < end && wakes == 0) /* a batch is dropped at its first wake-up */
			if (handoff(h, ++*seq, s, &wakes) != 0)
				goto bad;
		dt = now_ns() - t0;
		tries++;
		r->tries[s] = tries;
		if (wakes != 0) {
			r->wakeups[s] += wakes;
			r->dropped[s]++;
			continue;
		}
		uint64_t c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID), w1 = clock_ns(worker);
		if (off_cpu_ns(dt, c0, c1, FLOOR_LOST_NS) || off_cpu_ns(dt, w0, w1, FLOOR_LOST_NS)) {
			r->offcpu[s]++;
			r->dropped[s]++;
			continue;
		}
		series_add(&ser, kept++, dt);
	}
	if (kept < ser.nbatches) {
		r->short_step = (int)s;
		r->kept = kept;
	} else {
		struct floor_fig f;
		floor_fig_of_series(&f, &ser);
		r->step_ns[s] = f.median_ns;
		r->step_min_ns[s] = f.min_ns;
		r->step_max_ns[s] = f.max_ns;
	}
	series_free(&ser);
	return 0;
bad:
	series_free(&ser);
	return -1;
}

/* The wake-up: wait until the worker blocks, then time one handoff. */
static int wake_ups(struct ref_handoff *h, uint64_t *seq, double *median)
{
	double x[WAKE_TRIALS];
	struct timespec nap = { 0, 200000 };
	uint64_t wakes = 0; /* this one is meant to wake the worker */

	for (int i = 0; i < WAKE_TRIALS; i++) {
		for (int w = 0; w < 5000 && !__atomic_load_n(&h->sleeping, __ATOMIC_SEQ_CST); w++)
			nanosleep(&nap, NULL);
		if (!__atomic_load_n(&h->sleeping, __ATOMIC_SEQ_CST))
			return -1;
		uint64_t t0 = now_ns();
		if (handoff(h, ++*seq, REF_BARE, &wakes) != 0)
			return -1;
		x[i] = (double)(now_ns() - t0);
	}
	*median = stats_median(x, WAKE_TRIALS);
	return 0;
}

/* Stops the worker and waits, at most 3 s, for it to say it stopped. */
static int stop_worker(struct ref_handoff *h)
{
	struct timespec nap = { 0, 1000000 };

	__atomic_store_n(&h->stop, 1, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, &h->req, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	for (int i = 0; i < 3000 && !__atomic_load_n(&h->stopped, __ATOMIC_SEQ_CST); i++) {
		syscall(SYS_futex, &h->req, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
		nanosleep(&nap, NULL);
	}
	return __atomic_load_n(&h->stopped, __ATOMIC_SEQ_CST) ? 0 : -1;
}

uint64_t ref_wakeups(const struct ref_result *r)
{
	return r->wakeups[REF_BARE] + r->wakeups[REF_EVENT] + r->wakeups[REF_RESULT];
}

uint32_t ref_dropped(const struct ref_result *r)
{
	return r->dropped[REF_BARE] + r->dropped[REF_EVENT] + r->dropped[REF_RESULT];
}

/* Waits, at most REF_START_S, for the worker to say which thread it is:
 * 0 with its CPU clock, -1 with a message. */
static int worker_clock(struct ref_handoff *h, clockid_t *clock, char *err, size_t errlen)
{
	struct timespec nap = { 0, 1000000 };
	uint64_t t = 0;

	for (int i = 0; i < REF_START_S * 1000 && (t = __atomic_load_n(&h->worker_thread, __ATOMIC_SEQ_CST)) == 0; i++)
		nanosleep(&nap, NULL);
	if (t != 0 && pthread_getcpuclockid((pthread_t)t, clock) == 0)
		return 0;
	snprintf(err, errlen, "reference handoff: its worker did not say its thread within %d s", REF_START_S);
	return -1;
}

/* Waits, at most REF_START_S, for a worker asked to pin itself to say
 * whether it did: 0 pinned, -1 with a message. */
static int worker_pinned(struct ref_handoff *h, int cpu, char *err, size_t errlen)
{
	struct timespec nap = { 0, 1000000 };
	int32_t v = 0;

	for (int i = 0; i < REF_START_S * 1000 && (v = __atomic_load_n(&h->worker_pinned, __ATOMIC_SEQ_CST)) == 0; i++)
		nanosleep(&nap, NULL);
	if (v == 1)
		return 0;
	if (v < 0)
		snprintf(err, errlen, "reference handoff: its worker cannot pin itself to CPU %d", cpu);
	else
		snprintf(err, errlen, "reference handoff: its worker did not start within %d s", REF_START_S);
	return -1;
}

int ref_measure(struct ref_result *r, void (*start)(struct ref_handoff *), uint64_t spin_rounds, uint64_t n,
		uint32_t batches, uint64_t warmup, char *err, size_t errlen)
{
	return ref_measure_on(r, start, spin_rounds, n, batches, warmup, -1, err, errlen);
}

int ref_measure_on(struct ref_result *r, void (*start)(struct ref_handoff *), uint64_t spin_rounds, uint64_t n,
		   uint32_t batches, uint64_t warmup, int worker_cpu, char *err, size_t errlen)
{
	struct ref_handoff *h;
	uint64_t seq = 0;
	clockid_t worker;
	int rc = 0;

	*r = (struct ref_result){ .wake_ns = NAN, .short_step = -1 };
	for (int s = REF_BARE; s <= REF_RESULT; s++)
		r->step_ns[s] = r->step_min_ns[s] = r->step_max_ns[s] = NAN;
	if (start == NULL)
		return 0;
	if ((h = aligned_alloc(64, sizeof(*h))) == NULL) {
		snprintf(err, errlen, "reference handoff: out of memory");
		return -1;
	}
	*h = (struct ref_handoff){ .spin_rounds = spin_rounds, .worker_cpu = worker_cpu };
	start(h);
	if (worker_cpu >= 0 && worker_pinned(h, worker_cpu, err, errlen) != 0)
		rc = -2; /* its message said; the worker is stopped all the same */
	else if (worker_clock(h, &worker, err, errlen) != 0)
		rc = -2;
	for (int s = REF_BARE; rc == 0 && s <= REF_RESULT && r->short_step < 0; s++) {
		__atomic_store_n(&h->step, (uint32_t)s, __ATOMIC_SEQ_CST);
		rc = timed_step(h, worker, &seq, (enum ref_step)s, n, batches, warmup, r);
	}
	if (rc == 0 && r->short_step < 0)
		rc = wake_ups(h, &seq, &r->wake_ns);
	if (rc == -1)
		snprintf(err, errlen, "reference handoff: a request was answered wrongly or never (request %llu)",
			 (unsigned long long)seq);
	if (stop_worker(h) != 0) {
		/* never free memory a running worker may still touch */
		snprintf(err, errlen, "reference handoff: the worker did not stop within 3 s");
		return -1;
	}
	r->requests = seq;
	r->answered = __atomic_load_n(&h->answered, __ATOMIC_SEQ_CST);
	if (rc == 0 && r->answered != r->requests) {
		snprintf(err, errlen, "reference handoff: %llu requests posted, %llu answered",
			 (unsigned long long)r->requests, (unsigned long long)r->answered);
		rc = -1;
	}
	free(h);
	return rc == 0 ? 0 : -1;
}
