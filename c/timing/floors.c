/* floors.c — see floors.h. Every loop here has the shape of the extraction
 * loop in runner.c: the clock is read only at batch boundaries. */
#include "timing/floors.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/sysinfo.h"
#include "plugin/goruntime.h"
#include "timing/roundtrip.h"

struct call_job {
	struct floors *f;
	uint64_t warmup;
	int cpu;
	int failed;
};

static void *call_floors_thread(void *arg)
{
	struct call_job *j = arg;
	struct floors *f = j->f;
	void (*volatile c_fn)(void) = cgocost_c_noop;
	void (*go_fn)(void) = goruntime_raw_noop();
	uint64_t t0;

	if (j->cpu >= 0 && pin_to_cpu(j->cpu) != 0) {
		j->failed = 1;
		return NULL;
	}
	/* the first C->Go call of this new C thread, alone (when a Go runtime
	 * with cgocost's raw export is in the process: not in bench-host with
	 * a C plugin) */
	if (go_fn) {
		t0 = now_ns();
		go_fn();
		f->go_raw_cold_ns = now_ns() - t0;
	}

	for (uint64_t i = 0; i < j->warmup; i++)
		c_fn();
	for (uint32_t b = 0; b < f->c_call.nbatches; b++) {
		uint64_t ops = f->c_call.ops[b];
		t0 = now_ns();
		for (uint64_t i = 0; i < ops; i++)
			c_fn();
		series_add(&f->c_call, b, now_ns() - t0);
	}

	if (go_fn == NULL)
		return NULL;
	for (uint64_t i = 0; i < j->warmup; i++)
		go_fn();
	for (uint32_t b = 0; b < f->go_raw.nbatches; b++) {
		uint64_t ops = f->go_raw.ops[b];
		t0 = now_ns();
		for (uint64_t i = 0; i < ops; i++)
			go_fn();
		series_add(&f->go_raw, b, now_ns() - t0);
	}
	f->go_raw_measured = 1;
	return NULL;
}

/* The floors measured together, and measured again together. */
enum group { G_REF, G_CALLS, G_HANDOFF, GROUPS };

static const char *const group_name[GROUPS] = { "the reference handoff", "the call floors",
						"the cache-line round trip" };

struct plan {
	uint64_t n, warmup, spin;
	uint32_t batches;
	int caller_cpu;
};

/* The reference handoff's caller: a C thread of its own, pinned to the
 * round trip's CPU a, its worker to CPU b (refhandoff.h, "Where it runs");
 * unpinned when the round trip cannot be measured. */
struct ref_job {
	struct floors *f;
	const struct plan *p;
	char *err;
	size_t errlen;
	int rc;
};

static void *ref_thread(void *arg)
{
	struct ref_job *j = arg;
	struct floors *f = j->f;
	const struct plan *p = j->p;
	int pinned = f->cpu_a >= 0 && f->cpu_b >= 0;

	if (pinned && pin_to_cpu(f->cpu_a) != 0) {
		snprintf(j->err, j->errlen, "reference handoff: cannot pin its caller to CPU %d", f->cpu_a);
		j->rc = -1;
		return NULL;
	}
	j->rc = ref_measure_on(&f->ref, goruntime_ref_start(), p->spin, p->n < FLOOR_MAX_N ? p->n : FLOOR_MAX_N,
			       p->batches, p->warmup < FLOOR_MAX_N ? p->warmup : FLOOR_MAX_N, pinned ? f->cpu_b : -1,
			       j->err, j->errlen);
	return NULL;
}

static int measure_ref(struct floors *f, const struct plan *p, char *err, size_t errlen)
{
	struct ref_job job = { f, p, err, errlen, 0 };
	pthread_t t;

	if (pthread_create(&t, NULL, ref_thread, &job) != 0) {
		snprintf(err, errlen, "cannot start the reference handoff's thread");
		return -1;
	}
	pthread_join(t, NULL);
	if (job.rc != 0)
		return -1;
	for (int s = REF_BARE; s <= REF_RESULT; s++)
		f->fig[FLOOR_REF_BARE + s] =
			(struct floor_fig){ f->ref.step_ns[s], f->ref.step_min_ns[s], f->ref.step_max_ns[s] };
	return 0;
}

/* A series measured again starts empty. */
static int series_fresh(struct series *s, const struct plan *p)
{
	series_free(s);
	return series_init(s, p->n, p->batches);
}

static int measure_calls(struct floors *f, const struct plan *p, char *err, size_t errlen)
{
	struct call_job job;
	pthread_t t;

	if (series_fresh(&f->c_call, p) || series_fresh(&f->go_raw, p)) {
		snprintf(err, errlen, "out of memory for the floors");
		return -1;
	}
	memset(&job, 0, sizeof(job));
	job.f = f;
	job.warmup = p->warmup;
	job.cpu = p->caller_cpu;
	f->go_raw_measured = 0;
	/* a new C thread, like every extraction caller */
	if (pthread_create(&t, NULL, call_floors_thread, &job) != 0) {
		snprintf(err, errlen, "cannot start the floors thread");
		return -1;
	}
	pthread_join(t, NULL);
	if (job.failed) {
		snprintf(err, errlen, "floors: cannot pin to CPU %d", p->caller_cpu);
		return -1;
	}
	floor_fig_of_series(&f->fig[FLOOR_C_CALL], &f->c_call);
	if (f->go_raw_measured)
		floor_fig_of_series(&f->fig[FLOOR_GO_RAW], &f->go_raw);
	else
		f->fig[FLOOR_GO_RAW] = (struct floor_fig){ NAN, NAN, NAN };
	return 0;
}

static int measure_round_trip(struct floors *f, const struct plan *p, char *err, size_t errlen)
{
	f->fig[FLOOR_HANDOFF] = (struct floor_fig){ NAN, NAN, NAN };
	f->handoff_measured = 0;
	if (f->cpu_a < 0 || f->cpu_b < 0) {
		snprintf(f->handoff_why, sizeof(f->handoff_why), "needs two CPUs and this process may run on one");
		return 0;
	}
	struct plan rt = *p;
	rt.n = p->n < FLOOR_MAX_N ? p->n : FLOOR_MAX_N;
	if (series_fresh(&f->handoff, &rt)) {
		snprintf(err, errlen, "out of memory for the floors");
		return -1;
	}
	if (rt_measure(&f->handoff, p->warmup, f->cpu_a, f->cpu_b, &f->rt, err, errlen) != 0)
		return -1;
	f->handoff_measured = 1;
	if (f->rt.kept == f->handoff.nbatches)
		floor_fig_of_series(&f->fig[FLOOR_HANDOFF], &f->handoff);
	return 0;
}

static int measure_group(struct floors *f, enum group g, const struct plan *p, char *err, size_t errlen)
{
	return g == G_REF     ? measure_ref(f, p, err, errlen)
	       : g == G_CALLS ? measure_calls(f, p, err, errlen)
			      : measure_round_trip(f, p, err, errlen);
}

/* The first check that group g fails: 1 with the floor, the reference
 * handoff's wake-ups and the reason; 0 when every floor of g is a figure. */
static int group_rejected(const struct floors *f, enum group g, struct floor_reject *r)
{
	static const enum floor_kind first[GROUPS] = { FLOOR_REF_BARE, FLOOR_C_CALL, FLOOR_HANDOFF };
	static const int count[GROUPS] = { 3, 2, 1 };

	memset(r, 0, sizeof(*r));
	r->wakeups = g == G_REF ? ref_wakeups(&f->ref) : 0;
	if (g == G_REF && f->ref.short_step >= 0) {
		r->kind = FLOOR_REF_BARE + f->ref.short_step;
		snprintf(
			r->reason, sizeof(r->reason),
			"only %u of %u batches in %u tries ran without a futex wake-up of its worker (%llu wake-ups): a figure with one would be its idle policy, not a handoff",
			f->ref.kept, f->handoff_batches, f->ref.tries[f->ref.short_step],
			(unsigned long long)r->wakeups);
		return 1;
	}
	if (g == G_HANDOFF && f->handoff_measured && f->rt.kept < f->handoff.nbatches) {
		r->kind = FLOOR_HANDOFF;
		snprintf(
			r->reason, sizeof(r->reason),
			"only %u of %u batches in %u tries ran with both threads on their CPUs (%u lost one): a figure with one would be the scheduler's, not a round trip",
			f->rt.kept, f->handoff.nbatches, f->rt.tries, f->rt.dropped);
		return 1;
	}
	for (int i = 0; i < count[g]; i++)
		if (floor_check(f->fig, first[g] + i, r->reason, sizeof(r->reason))) {
			r->kind = first[g] + i;
			return 1;
		}
	return 0;
}

/* The spin of the reference handoff's worker: REF_SPIN_ROUNDS, or the test
 * hook's. */
static uint64_t worker_spin(void)
{
	const char *v = getenv(FLOORS_SPIN_ENV);
	char *end;
	unsigned long long x;

	if (v == NULL || *v == '\0')
		return REF_SPIN_ROUNDS;
	x = strtoull(v, &end, 10);
	return *end == '\0' ? (uint64_t)x : REF_SPIN_ROUNDS;
}

int floors_measure(struct floors *f, uint64_t n, uint32_t batches, uint64_t warmup, int caller_cpu, int cpu_a,
		   int cpu_b, char *err, size_t errlen)
{
	struct plan p = { n, warmup, worker_spin(), batches, caller_cpu };
	int attempts[GROUPS];

	memset(f, 0, sizeof(*f));
	f->cpu_a = cpu_a;
	f->cpu_b = cpu_b;
	f->handoff_batches = batches;
	for (int k = 0; k < FLOOR_KINDS; k++)
		f->fig[k] = (struct floor_fig){ NAN, NAN, NAN };
	/* the reference handoff first, its worker stopped before anything
	 * else runs: it must never spin beside another measurement */
	for (int g = 0; g < GROUPS; g++) {
		attempts[g] = 1;
		if (measure_group(f, (enum group)g, &p, err, errlen) != 0) {
			floors_free(f);
			return -1;
		}
	}
	for (;;) {
		struct floor_reject r;
		int g = 0;

		while (g < GROUPS && !group_rejected(f, (enum group)g, &r))
			g++;
		if (g == GROUPS)
			return 0;
		if (attempts[g] == FLOOR_ATTEMPTS) {
			snprintf(err, errlen, "floors: %s failed its checks in %d attempts, so it is no figure: %s: %s",
				 group_name[g], FLOOR_ATTEMPTS, floor_kind_name((enum floor_kind)r.kind), r.reason);
			floors_free(f);
			return -1;
		}
		if (f->nrejected < FLOOR_REJECTS_MAX)
			f->rejected[f->nrejected++] = r;
		attempts[g]++;
		if (measure_group(f, (enum group)g, &p, err, errlen) != 0) {
			floors_free(f);
			return -1;
		}
	}
}

void floors_free(struct floors *f)
{
	series_free(&f->c_call);
	series_free(&f->go_raw);
	series_free(&f->handoff);
}

struct loop_job {
	void (*fn)(void);
	uint64_t calls;
};

static void *loop_thread(void *arg)
{
	struct loop_job *j = arg;
	void (*volatile fn)(void) = j->fn;

	for (uint64_t i = 0; i < j->calls; i++)
		fn();
	return NULL;
}

int floors_loop(enum floor_kind k, uint64_t n, uint64_t warmup, char *err, size_t errlen)
{
	struct loop_job j = { k == FLOOR_GO_RAW ? goruntime_raw_noop() : cgocost_c_noop, warmup + n };
	pthread_t t;

	if (k != FLOOR_C_CALL && k != FLOOR_GO_RAW) {
		snprintf(err, errlen, "the floor %s has no loop of calls to count", floor_kind_name(k));
		return -1;
	}
	if (j.fn == NULL) {
		snprintf(err, errlen, "no Go runtime with cgocost's raw export in this process: no raw C->Go call");
		return -1;
	}
	if (pthread_create(&t, NULL, loop_thread, &j) != 0) {
		snprintf(err, errlen, "cannot start the floor's thread");
		return -1;
	}
	pthread_join(t, NULL);
	return 0;
}
