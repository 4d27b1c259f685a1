/* timing/runner.c — see runner.h. The callers' threads, their common start
 * and end, the untimed steps around the timed loop (cold call, probes,
 * warm-up), the choice of that loop (loops.h) and the run's totals. */
#include "timing/runner.h"

#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/status.h"
#include "base/sysinfo.h"
#include "plugin/goruntime.h"
#include "stats/pace.h"
#include "timing/allocs.h"
#include "timing/hostcalls.h"
#include "timing/loops.h"
#include "timing/watchdog.h"

static void snapshot_take(struct snapshot *s)
{
	s->cpu_ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	goruntime_allocs(&s->go_allocs, &s->go_bytes);
	alloc_counts_read(&s->c);
	s->steal = steal_ticks();
}

/* What one caller has spent at one edge of its timed batches. */
struct thread_snapshot {
	uint64_t cpu_ns;
	struct rusage ru;
	int64_t migrations;
	int cpu;
};

static void thread_snapshot_take(struct thread_snapshot *t)
{
	t->migrations = thread_migrations();
	getrusage(RUSAGE_THREAD, &t->ru);
	t->cpu = current_cpu();
	t->cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

void runner_fail(struct plugin_run *pr, const char *what, uint64_t evtnum, int status)
{
	pr->failed = 1;
	if (status == EXTRACT_WRONG_VALUE)
		snprintf(pr->error, sizeof(pr->error),
			 "plugin %u: %s extraction of event %llu returned a wrong or missing value", pr->index, what,
			 (unsigned long long)evtnum);
	else
		snprintf(pr->error, sizeof(pr->error), "plugin %u: %s extraction of event %llu failed: %s", pr->index,
			 what, (unsigned long long)evtnum,
			 status == EXTRACT_FAILED ? "plugin_extract_fields returned failure" : "unknown");
}

/* The untimed probe of the scenario: which thread runs Extract. */
static int scenario_probe(struct job *j, struct probe *p, char *err, size_t errlen)
{
	struct extractor tmp, *x;
	int rc;

	x = acquire(j, &tmp, err, errlen);
	if (x == NULL)
		return -1;
	rc = extractor_probe(x, p, err, errlen);
	release(j, x);
	return rc;
}

/* All callers start timing together. The last to finish its warm-up takes
 * the window's start snapshot, before anyone times, and lets the others go;
 * they spin meanwhile, so no caller (and no async worker) sleeps right
 * before its first timed batch. */
static void start_together(struct shared *sh)
{
	if (atomic_fetch_add(&sh->warm, 1) + 1 == sh->ncallers) {
		snapshot_take(&sh->start);
		sh->window_start_ns = now_ns();
		atomic_store(&sh->go, 1);
	}
	while (!atomic_load(&sh->go))
		;
}

/* The window ends when the last caller ends; one caller then takes the end
 * snapshot before any of them probes. */
static void end_together(struct shared *sh, uint64_t end_ns)
{
	uint64_t prev = __atomic_load_n(&sh->window_end_ns, __ATOMIC_RELAXED);
	while (end_ns > prev &&
	       !__atomic_compare_exchange_n(&sh->window_end_ns, &prev, end_ns, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	if (pthread_barrier_wait(&sh->finish) == PTHREAD_BARRIER_SERIAL_THREAD)
		snapshot_take(&sh->end);
	pthread_barrier_wait(&sh->measured);
}

enum phase { PH_START, PH_COLD, PH_PROBE, PH_WARMUP, PH_BATCHES, PH_PROBE_AFTER, PH_DONE };
static const char *const phase_names[] = { "start",	  "the cold extraction", "the first probe",
					   "the warm-up", "a timed batch",	 "the last probe",
					   "done" };

static void step(struct job *j, enum phase ph)
{
	atomic_store_explicit(&j->progress->phase, ph, memory_order_relaxed);
	atomic_store_explicit(&j->progress->at_ns, now_ns(), memory_order_relaxed);
}

/* Pins the caller when asked and waits for the start gate; -1: leave. */
static int caller_start(struct job *j, int *dead)
{
	struct shared *sh = j->sh;
	struct plugin_run *pr = j->pr;

	pr->caller_tid = thread_id();
	if (pr->pinned_cpu >= 0 && pin_to_cpu(pr->pinned_cpu) != 0) {
		pr->failed = 1;
		snprintf(pr->error, sizeof(pr->error), "plugin %u: cannot pin the caller to CPU %d", pr->index,
			 pr->pinned_cpu);
		*dead = 1;
	}
	pthread_mutex_lock(&sh->gate_mu);
	sh->arrived++;
	pthread_cond_broadcast(&sh->gate_cv);
	while (sh->gate == 0)
		pthread_cond_wait(&sh->gate_cv, &sh->gate_mu);
	pthread_mutex_unlock(&sh->gate_mu);
	return sh->gate < 0 ? -1 : 0;
}

/* The first call of this new C thread, timed alone. */
static void cold_step(struct job *j, uint64_t *evt, int *dead)
{
	uint64_t t0 = now_ns();
	int st = iteration(j, *evt);

	j->pr->cold_ns = now_ns() - t0;
	if (st != EXTRACT_OK) {
		runner_fail(j->pr, "cold", *evt, st);
		*dead = 1;
	}
	(*evt)++;
}

/* Untimed extractions right before timing, timed in groups; the
 * watchdog's slack is 20 batches at their mean pace, since a batch may
 * rightly take long. Returns the pace a paired child sizes its blocks from
 * (stats/pace.h: the mean, or four times the fastest group's pace when
 * that is less). */
static double warmup_step(struct job *j, uint64_t *evt, int *dead)
{
	uint64_t n = run_warmup(j->sh->o, j->sh->scen), group = pace_group(n);
	struct pace pc;

	pace_init(&pc);
	/* a clock read a group, none in the loop of calls: the pace measured
	 * is the calls' own */
	for (uint64_t done = 0, k; !*dead && done < n; done += k) {
		uint64_t g0 = now_ns();
		k = n - done < group ? n - done : group;
		for (uint64_t i = done; !*dead && i < done + k; i++, (*evt)++) {
			int st;
			if ((i & 1023) == 0)
				step(j, PH_WARMUP);
			st = iteration(j, *evt);
			if (st != EXTRACT_OK) {
				runner_fail(j->pr, "warm-up", *evt, st);
				*dead = 1;
			}
		}
		pace_add(&pc, k, now_ns() - g0);
	}
	if (n > 0)
		atomic_store(&j->progress->slack_ns, (uint64_t)(20.0 * pace_mean(&pc) * (double)j->pr->batches.ops[0]));
	return pace_for_blocks(&pc);
}

static void noise_record(struct plugin_run *pr, const struct thread_snapshot *a, const struct thread_snapshot *b)
{
	pr->noise.thread_cpu_ns = b->cpu_ns - a->cpu_ns;
	pr->caller_cpu_first = a->cpu;
	pr->caller_cpu_last = b->cpu;
	pr->noise.vol_switches = (uint64_t)(b->ru.ru_nvcsw - a->ru.ru_nvcsw);
	pr->noise.invol_switches = (uint64_t)(b->ru.ru_nivcsw - a->ru.ru_nivcsw);
	pr->noise.migrations = a->migrations >= 0 && b->migrations >= 0 ? b->migrations - a->migrations : -1;
}

/* Async in effect: where the SDK's slot of this instance lies, the lines
 * each async extraction moves (the last request was answered: it waits). */
static void slot_look(struct job *j)
{
	struct plugin_run *pr = j->pr;
	char msg[200];
	int found;

	if (j->sh->scen != SCEN_EXTRACT || j->x == NULL || !j->x->lib->runtime_file[0]) /* a Go plugin's only */
		return;
	found = sdk_slot_locate((const void *)j->x->lib->syms.init, j->x->s, &pr->slot, pr->slot_why,
				sizeof(pr->slot_why)) == 0;
	pr->slot_looked = 1;
	if (!found)
		pr->slot.line_bytes = 0;
	if (sdk_slot_misplaced(&pr->slot, found, pr->slot_why, msg, sizeof(msg))) {
		pr->failed = 1;
		snprintf(pr->error, sizeof(pr->error), "plugin %u: %s", pr->index, msg);
	}
}

/* A plugin without cgocost's probe fields: the mode in effect read from
 * the SDK's async state of the instance, when the library was built with
 * the SDK and keeps its symbol table (plugin/sdkslot.h); else why not. */
static void sdk_mode_after(struct job *j)
{
	struct plugin_run *pr = j->pr;
	int m;

	if (j->sh->scen != SCEN_EXTRACT || j->x == NULL)
		return;
	m = sdk_async_in_effect((const void *)j->x->lib->syms.init, j->x->s, pr->mode_why, sizeof(pr->mode_why));
	if (m < 0)
		return;
	pr->mode_known = pr->mode_by_slot = 1;
	pr->async_in_effect = m;
	if (m)
		slot_look(j);
}

/* The last probe: the plugin served exactly what was asked, and Extract
 * ran on the same kind of thread as at the first probe. */
static void verify_after(struct job *j)
{
	struct plugin_run *pr = j->pr;
	const struct options *o = j->sh->o;
	uint64_t want = 0;
	int before, after;

	pr->calls_per_event = NAN;
	if (j->sh->scen == SCEN_EXTRACT)
		want = (run_warmup(o, j->sh->scen) + pr->batches.total_ops + pr->lead_in_extractions) * j->x->nfields +
		       j->x->probe_in.num_fields;
	if (scenario_probe(j, &pr->after, pr->error, sizeof(pr->error)) != 0) {
		pr->failed = 1;
		return;
	}
	if (j->sh->scen == SCEN_EXTRACT && PROBE_KNOWN(&pr->after, PROBE_CALLS) &&
	    pr->after.calls - pr->before.calls != want) {
		pr->failed = 1;
		snprintf(
			pr->error, sizeof(pr->error),
			"plugin %u: the plugin served %llu field extractions between the probes, the driver asked for %llu",
			pr->index, (unsigned long long)(pr->after.calls - pr->before.calls), (unsigned long long)want);
		return;
	}
	if (j->sh->scen == SCEN_EXTRACT) {
		char msg[200];
		uint64_t events = run_warmup(o, j->sh->scen) + pr->batches.total_ops + pr->lead_in_extractions;
		if (hostcalls_check(&pr->before, &pr->after, events, j->x->plugin_extract ? j->x->nfields : 1,
				    &pr->calls_per_event, msg, sizeof(msg)) != 0) {
			pr->failed = 1;
			snprintf(pr->error, sizeof(pr->error), "plugin %u: %s", pr->index, msg);
			return;
		}
	}
	if (!PROBE_KNOWN(&pr->after, PROBE_TID)) {
		sdk_mode_after(j); /* no probe fields: the SDK's own state, if it has one */
		return;
	}
	pr->mode_known = 1;
	before = pr->before.tid != (uint64_t)pr->caller_tid;
	after = pr->after.tid != (uint64_t)pr->caller_tid;
	if (before != after) {
		pr->failed = 1;
		snprintf(
			pr->error, sizeof(pr->error),
			"plugin %u: the extraction mode changed during the run (Extract on thread %llu, then %llu; caller %d)",
			pr->index, (unsigned long long)pr->before.tid, (unsigned long long)pr->after.tid,
			(int)pr->caller_tid);
		return;
	}
	pr->async_in_effect = after;
	if (after)
		slot_look(j);
}

/* One caller: cold call, probe, warm-up, timed batches, noise, probe. */
static void *plugin_thread(void *arg)
{
	struct job *j = arg;
	struct thread_snapshot t0s, t1s;
	uint64_t evt = 0;
	int dead = 0;
	double per_op;

	if (caller_start(j, &dead) != 0)
		return NULL;
	step(j, PH_COLD);
	if (!dead)
		cold_step(j, &evt, &dead);
	step(j, PH_PROBE);
	if (!dead && scenario_probe(j, &j->pr->before, j->pr->error, sizeof(j->pr->error)) != 0) {
		j->pr->failed = 1;
		dead = 1;
	}
	/* a paired child: the threads the first calls started (the async
	 * worker among them: a thread Go starts from the pinned caller
	 * inherits its CPU) leave the caller's CPU before the warm-up, which
	 * otherwise hands every request to a worker waiting for the caller's
	 * time slice (milliseconds a call under load); loop_blocks moves the
	 * threads started later, and fails the run if it cannot */
	if (!dead && j->sh->loop == loop_blocks && j->pr->pinned_cpu >= 0)
		(void)pin_others_away(j->pr->caller_tid, j->pr->pinned_cpu);
	step(j, PH_WARMUP);
	per_op = warmup_step(j, &evt, &dead);
	start_together(j->sh);
	thread_snapshot_take(&t0s);
	step(j, PH_BATCHES);
	j->sh->loop(j, &evt, per_op, &dead);
	thread_snapshot_take(&t1s);
	end_together(j->sh, now_ns());
	noise_record(j->pr, &t0s, &t1s);
	step(j, PH_PROBE_AFTER);
	if (!dead)
		verify_after(j);
	return NULL;
}

static void *plugin_thread_main(void *arg)
{
	struct job *j = arg;
	void *r = plugin_thread(arg);
	step(j, PH_DONE);
	atomic_store(&j->progress->done, 1);
	return r;
}

/* What every report derives from the raw record, derived once: each
 * caller's median and slowest batch and stalls, and the sums over callers. */
static void run_totals(struct run *r)
{
	r->migrations = 0;
	for (uint32_t i = 0; i < r->nplugins; i++) {
		struct plugin_run *p = &r->plugins[i];
		p->stalls = batches_stalls(&p->batches, &p->slowest_per_op, &p->median_per_op);
		r->requests += p->batches.total_ops;
		r->callers_cpu_ns += p->noise.thread_cpu_ns;
		r->vol_switches += p->noise.vol_switches;
		r->invol_switches += p->noise.invol_switches;
		if (r->migrations >= 0)
			r->migrations = p->noise.migrations < 0 ? -1 : r->migrations + p->noise.migrations;
	}
}

uint64_t run_warmup(const struct options *o, enum scenario scen)
{
	/* a lifecycle iteration costs microseconds: a shorter warm-up */
	if (scen != SCEN_EXTRACT && !o->warmup_set && o->warmup > LIFECYCLE_WARMUP)
		return LIFECYCLE_WARMUP;
	return o->warmup;
}

/* The timed loop of a run, once for all its callers: the lifecycle
 * scenarios always time batches; extract serves blocks to a paired run's
 * parent, or runs open-loop requests, or times batches. */
static loop_fn *loop_of(const struct options *o, enum scenario scen)
{
	if (scen != SCEN_EXTRACT)
		return loop_closed;
	if (o->kind == RUN_SERVE_BLOCKS)
		return loop_blocks;
	if (options_latency(o))
		return loop_open;
	return loop_closed;
}

/* --worker-cpu: once every caller has its tid and its own CPU, every
 * other thread of the process (the SDK's worker, the Go runtime's threads,
 * this one, the watchdog) goes to the worker's CPU, before any caller
 * extracts. Called with gate_mu held; 0, or -1 with every caller failed. */
static int pin_worker_side(struct shared *sh, struct job *jobs)
{
	pid_t *tids = calloc(sh->ncallers, sizeof(*tids));
	int pinned = -1;

	while (sh->arrived < sh->ncallers)
		pthread_cond_wait(&sh->gate_cv, &sh->gate_mu);
	for (uint32_t i = 0; tids && i < sh->ncallers; i++)
		tids[i] = jobs[i].pr->caller_tid;
	if (tids)
		pinned = pin_others_to(tids, (int)sh->ncallers, sh->o->worker_cpu);
	free(tids);
	if (pinned > 0)
		return 0;
	for (uint32_t i = 0; i < sh->ncallers; i++) {
		jobs[i].pr->failed = 1;
		snprintf(jobs[i].pr->error, sizeof(jobs[i].pr->error),
			 "plugin %u: cannot pin the async worker side to CPU %d (--worker-cpu)", jobs[i].pr->index,
			 sh->o->worker_cpu);
	}
	return -1;
}

/* --worker-cpu: where the worker side was held, read back from the
 * kernel once the callers are done (so every thread the Go runtime
 * started meanwhile counts), and where Extract ran at the probes of the
 * callers whose extraction was async. */
static void worker_side_read(struct run *r, const struct options *o)
{
	struct worker_side_rec *w = &r->worker_side;
	pid_t *tids = calloc(r->nplugins, sizeof(*tids));

	r->has_worker_side = 1;
	w->cpu = o->worker_cpu;
	for (uint32_t i = 0; tids && i < r->nplugins; i++)
		tids[i] = r->plugins[i].caller_tid;
	w->nallowed = tids ? others_allowed_cpus(tids, (int)r->nplugins, w->allowed, WORKER_CPUS_MAX) : -1;
	free(tids);
	w->nran_on = 0;
	for (uint32_t i = 0; i < r->nplugins; i++) {
		const struct plugin_run *p = &r->plugins[i];
		const struct probe *at[2] = { &p->before, &p->after };
		if (!p->async_in_effect)
			continue;
		for (int k = 0; k < 2; k++)
			if (PROBE_KNOWN(at[k], PROBE_CPU))
				cpu_list_add(w->ran_on, &w->nran_on, WORKER_CPUS_MAX, (int)at[k]->cpu);
	}
}

/* Starts the callers and the watchdog, opens the start gate (or tells the
 * threads that exist to leave), and waits for every caller. Returns how
 * many callers were started. */
static uint32_t run_callers(struct shared *sh, struct job *jobs, struct progress *progress, pthread_t *threads)
{
	const struct options *o = sh->o;
	uint32_t started = 0;
	struct watchdog *wd;
	int gate_open;

	pthread_mutex_init(&sh->gate_mu, NULL);
	pthread_cond_init(&sh->gate_cv, NULL);
	pthread_barrier_init(&sh->finish, NULL, sh->ncallers);
	pthread_barrier_init(&sh->measured, NULL, sh->ncallers);
	for (; started < sh->ncallers; started++)
		if (pthread_create(&threads[started], NULL, plugin_thread_main, &jobs[started]) != 0)
			break;
	/* the async hint only where an async worker was asked for */
	wd = watchdog_start(progress, started, o->stall_timeout_s, phase_names,
			    o->async ? " (a caller spinning on an async worker that is not scheduled looks like this)"
				     : "",
			    run_kind_is_child(o->kind) ? EXIT_CHILD_STALLED : EXIT_RUN_FAILED);
	pthread_mutex_lock(&sh->gate_mu);
	/* the gate stays closed while the worker side is pinned: a caller
	 * arriving meanwhile must not extract before it */
	gate_open = started == sh->ncallers;
	if (gate_open && o->worker_cpu >= 0 && pin_worker_side(sh, jobs) != 0)
		gate_open = 0; /* every caller failed */
	sh->gate = gate_open ? 1 : -1;
	pthread_cond_broadcast(&sh->gate_cv);
	pthread_mutex_unlock(&sh->gate_mu);
	for (uint32_t i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	watchdog_stop(wd);
	pthread_barrier_destroy(&sh->finish);
	pthread_barrier_destroy(&sh->measured);
	pthread_cond_destroy(&sh->gate_cv);
	pthread_mutex_destroy(&sh->gate_mu);
	return started;
}

/* What the process spent over the timed window, from its two snapshots. */
static void run_window(struct run *r, const struct shared *sh, const struct pool *pool)
{
	r->wall_ns = sh->window_end_ns - sh->window_start_ns;
	r->process_cpu_ns = sh->end.cpu_ns - sh->start.cpu_ns;
	r->go_allocs = sh->end.go_allocs - sh->start.go_allocs;
	r->go_alloc_bytes = sh->end.go_bytes - sh->start.go_bytes;
	r->c_counted = sh->start.c.counting;
	r->c_mallocs = sh->end.c.mallocs - sh->start.c.mallocs;
	r->c_frees = sh->end.c.frees - sh->start.c.frees;
	r->steal_ticks = sh->start.steal >= 0 && sh->end.steal >= 0 ? sh->end.steal - sh->start.steal : -1;
	r->pool_waits = pool ? pool->waits : 0;
	run_totals(r);
}

/* The --busy library: extractions on a thread of its own, untimed, until
 * the callers are done. */
struct busy_job {
	struct extractor *x;
	_Atomic int stop;
	uint64_t done;
	int failed;
};

static void *busy_thread(void *arg)
{
	struct busy_job *b = arg;
	uint64_t e = 1;

	while (!atomic_load_explicit(&b->stop, memory_order_relaxed)) {
		if (extractor_extract(b->x, e++) != EXTRACT_OK) {
			b->failed = 1;
			break;
		}
	}
	b->done = e - 1;
	return NULL;
}

/* Waits for the --busy thread to leave its extraction loop, at most
 * --stall-timeout: one whose extraction never returns would hold the run
 * for ever (it cannot be cancelled, nor its library closed under it), so
 * the process ends there, with the status of a stalled caller. */
static void join_busy(pthread_t t, const struct options *o)
{
	struct timespec until;

	if (o->stall_timeout_s == 0) {
		pthread_join(t, NULL);
		return;
	}
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += o->stall_timeout_s;
	if (pthread_timedjoin_np(t, NULL, &until) == 0)
		return;
	fprintf(stderr,
		"bench: the --busy library %s made no progress for --stall-timeout (%u s): its extraction never returned\n",
		o->busy, o->stall_timeout_s);
	_exit(run_kind_is_child(o->kind) ? EXIT_CHILD_STALLED : EXIT_RUN_FAILED);
}

int run_scenario(const struct options *o, enum scenario scen, uint32_t ncallers, struct extractor *xs,
		 struct pool *pool, const struct plugin_config *pc, struct extractor *busy, struct run *r, char *err,
		 size_t errlen)
{
	struct shared sh = { .o = o, .ncallers = ncallers, .scen = scen, .loop = loop_of(o, scen), .pool = pool };
	struct job *jobs = calloc(ncallers, sizeof(*jobs));
	struct progress *progress = calloc(ncallers, sizeof(*progress));
	pthread_t *threads = calloc(ncallers, sizeof(*threads)), busy_t;
	struct busy_job bj = { .x = busy };
	uint32_t started;
	int rc = -1, busy_started = 0;

	memset(r, 0, sizeof(*r));
	if (pc)
		sh.pc = *pc;
	r->scenario = scen;
	r->nplugins = ncallers;
	r->clock_ticks = sysconf(_SC_CLK_TCK);
	r->plugins = calloc(ncallers, sizeof(*r->plugins));
	if (r->plugins == NULL || jobs == NULL || progress == NULL || threads == NULL) {
		snprintf(err, errlen, "out of memory for %u plugins", ncallers);
		goto out;
	}
	for (uint32_t i = 0; i < ncallers; i++) {
		struct plugin_run *pr = &r->plugins[i];
		pr->index = i + 1;
		pr->pinned_cpu = o->ncpus ? o->cpus[i] : -1;
		if (series_init(&pr->batches, o->n, o->batches) != 0) {
			snprintf(err, errlen, "out of memory for %u batches", o->batches);
			goto out;
		}
		jobs[i] = (struct job){ .progress = &progress[i], .sh = &sh, .x = xs ? &xs[i] : NULL, .pr = pr };
	}
	if (busy && pthread_create(&busy_t, NULL, busy_thread, &bj) == 0)
		busy_started = 1;
	pthread_mutex_init(&sh.init_mu, NULL);
	started = run_callers(&sh, jobs, progress, threads);
	pthread_mutex_destroy(&sh.init_mu);
	if (busy_started) {
		atomic_store(&bj.stop, 1);
		join_busy(busy_t, o);
	}
	if (started < ncallers) {
		snprintf(err, errlen, "cannot start thread %u of %u", started + 1, ncallers);
		goto out;
	}
	if (busy && (!busy_started || bj.failed)) {
		snprintf(err, errlen, "the --busy library %s",
			 busy_started ? "failed an extraction" : "could not start its thread");
		goto out;
	}
	run_window(r, &sh, pool);
	if (o->worker_cpu >= 0)
		worker_side_read(r, o);
	if (o->kind == RUN_SERVE_BLOCKS) {
		/* the window held waits for the parent: only the blocks count */
		r->wall_ns = r->plugins[0].batches.total_ns;
		r->process_cpu_ns = r->plugins[0].blocks_cpu_ns;
	}
	r->busy_extractions = bj.done;
	rc = 0;
out:
	free(jobs);
	free(progress);
	free(threads);
	if (rc != 0)
		run_free(r);
	return rc;
}

void run_free(struct run *r)
{
	if (r->plugins)
		for (uint32_t i = 0; i < r->nplugins; i++) {
			series_free(&r->plugins[i].batches);
			free(r->plugins[i].latencies);
		}
	free(r->plugins);
	memset(r, 0, sizeof(*r));
}
