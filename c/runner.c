/* runner.c — see runner.h. */
#include "runner.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "allocs.h"
#include "clock.h"
#include "sysinfo.h"

struct shared {
	const struct options *o;
	enum scenario scen;
	struct pool *pool;	     /* SCEN_REUSE */
	pthread_mutex_t init_mu;     /* SCEN_ALLOC: init and destroy one at a time */
	struct plugin_config pc;     /* SCEN_ALLOC: what each new instance gets */
	pthread_mutex_t gate_mu;  /* start gate: main opens it once every thread exists */
	pthread_cond_t gate_cv;
	int gate;		  /* 0 closed, 1 go, -1 abort (a thread could not be created) */
	pthread_barrier_t finish; /* every thread done timing (sleeping wait) */
	_Atomic uint32_t warm;	  /* spin barrier: warm-up done, timing starts */
	uint64_t window_start_ns, window_end_ns;
	uint64_t cpu_start_ns, cpu_end_ns;
	uint64_t allocs_start, allocs_end, bytes_start, bytes_end;
	struct alloc_counts c_start, c_end;
	int64_t steal_start, steal_end;
};

struct job {
	_Atomic uint64_t progress_ns; /* when this thread last finished a step */
	_Atomic uint64_t slack_ns;    /* extra patience: 20x a batch at the warm-up's pace */
	_Atomic int phase;	       /* what it is doing (for the watchdog) */
	_Atomic int done;
	struct shared *sh;
	struct extractor *x;
	struct plugin_run *pr;
	uint32_t rank;
};

static uint64_t cpu_clock_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Reads a small /proc file into buf with open/read: no stdio, so the
 * driver's own bookkeeping allocates nothing inside a counted window. */
static int read_proc(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n, got = 0;

	if (fd < 0)
		return -1;
	while ((size_t)got < len - 1 && (n = read(fd, buf + got, len - 1 - (size_t)got)) > 0)
		got += n;
	close(fd);
	buf[got] = '\0';
	return got > 0 ? 0 : -1;
}

/* Machine-wide steal ticks from the first line of /proc/stat; -1 if unknown. */
static int64_t steal_ticks(void)
{
	char buf[512];
	unsigned long long v[8];

	if (read_proc("/proc/stat", buf, sizeof(buf)) != 0)
		return -1;
	if (sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
		   &v[5], &v[6], &v[7]) != 8)
		return -1;
	return (int64_t)v[7];
}

/* se.nr_migrations of the calling thread; -1 if the kernel does not say. */
static int64_t thread_migrations(void)
{
	char buf[8192];
	const char *line;

	if (read_proc("/proc/thread-self/sched", buf, sizeof(buf)) != 0)
		return -1;
	line = strstr(buf, "se.nr_migrations");
	if (line == NULL || (line = strchr(line, ':')) == NULL)
		return -1;
	return strtoll(line + 1, NULL, 10);
}

static void fail(struct plugin_run *pr, const char *what, uint64_t evtnum, int status)
{
	pr->failed = 1;
	if (status == EXTRACT_WRONG_VALUE)
		snprintf(pr->error, sizeof(pr->error),
			 "plugin %u: %s extraction of event %llu returned a wrong or missing value",
			 pr->index, what, (unsigned long long)evtnum);
	else
		snprintf(pr->error, sizeof(pr->error), "plugin %u: %s extraction of event %llu failed: %s",
			 pr->index, what, (unsigned long long)evtnum,
			 status == EXTRACT_FAILED ? "plugin_extract_fields returned failure" : "unknown");
}

static void spin_barrier(_Atomic uint32_t *count, uint32_t n)
{
	atomic_fetch_add(count, 1);
	while (atomic_load(count) < n)
		;
}

/* One lifecycle iteration of event evt: a new instance (alloc) or one from
 * the pool (reuse), one checked extraction, and the instance let go. */
static int iteration(struct job *j, uint64_t evt)
{
	struct shared *sh = j->sh;
	struct extractor tmp, *x;
	char err[8];
	int st;

	if (sh->scen == SCEN_REUSE) {
		x = pool_take(sh->pool);
		st = extractor_extract(x, evt);
		pool_give(sh->pool, x);
		return st;
	}
	pthread_mutex_lock(&sh->init_mu);
	st = extractor_open(&tmp, &sh->pc, sh->o->fields, err, sizeof(err));
	pthread_mutex_unlock(&sh->init_mu);
	if (st != 0)
		return EXTRACT_FAILED;
	st = extractor_extract(&tmp, evt);
	pthread_mutex_lock(&sh->init_mu);
	extractor_close(&tmp);
	pthread_mutex_unlock(&sh->init_mu);
	return st;
}

/* The untimed probe of the scenario: which thread runs Extract. */
static int scenario_probe(struct job *j, struct probe *p, char *err, size_t errlen)
{
	struct shared *sh = j->sh;
	struct extractor tmp, *x;
	int rc;

	if (sh->scen == SCEN_EXTRACT)
		return extractor_probe(j->x, p, err, errlen);
	if (sh->scen == SCEN_REUSE) {
		x = pool_take(sh->pool);
		rc = extractor_probe(x, p, err, errlen);
		pool_give(sh->pool, x);
		return rc;
	}
	pthread_mutex_lock(&sh->init_mu);
	rc = extractor_open(&tmp, &sh->pc, sh->o->fields, err, errlen);
	pthread_mutex_unlock(&sh->init_mu);
	if (rc != 0)
		return -1;
	rc = extractor_probe(&tmp, p, err, errlen);
	pthread_mutex_lock(&sh->init_mu);
	extractor_close(&tmp);
	pthread_mutex_unlock(&sh->init_mu);
	return rc;
}

static inline int one(struct job *j, uint64_t evt)
{
	return j->sh->scen == SCEN_EXTRACT ? extractor_extract(j->x, evt) : iteration(j, evt);
}

enum phase { PH_START, PH_COLD, PH_PROBE, PH_WARMUP, PH_BATCHES, PH_PROBE_AFTER, PH_DONE };
static const char *const phase_names[] = {"start", "the cold extraction", "the first probe",
					   "the warm-up", "a timed batch", "the last probe", "done"};

static void step(struct job *j, enum phase ph)
{
	atomic_store_explicit(&j->phase, ph, memory_order_relaxed);
	atomic_store_explicit(&j->progress_ns, now_ns(), memory_order_relaxed);
}

struct watchdog {
	struct job *jobs;
	uint32_t n;
	uint64_t timeout_ns;
	_Atomic int stop;
};

static char dump_buf[1 << 20];

static void *dump_thread(void *arg)
{
	int *n = arg;
	*n = cgocost_goroutines(dump_buf, (int)sizeof(dump_buf));
	return NULL;
}

/* Writes the Go runtime's goroutine stacks to a file, if the runtime answers
 * within 3 s; returns the path, or NULL. */
static const char *dump_goroutines(char *path, size_t len)
{
	pthread_t t;
	struct timespec until;
	int n = -1, fd;

	if (pthread_create(&t, NULL, dump_thread, &n) != 0)
		return NULL;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 3;
	if (pthread_timedjoin_np(t, NULL, &until) != 0 || n <= 0)
		return NULL;
	snprintf(path, len, "/tmp/cgocost-stall-%d.txt", (int)getpid());
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return NULL;
	if (write(fd, dump_buf, (size_t)n) != n) {
		close(fd);
		return NULL;
	}
	close(fd);
	return path;
}

/* A caller stuck in the SDK's spin-wait never returns: rather than hang,
 * the run ends with what the caller was doing (exit status 3), and the
 * goroutine stacks go to a file when the Go runtime still answers. */
static void *watchdog_thread(void *arg)
{
	struct watchdog *w = arg;
	struct timespec tick = {0, 200000000};

	while (!atomic_load(&w->stop)) {
		uint64_t now = now_ns();
		nanosleep(&tick, NULL);
		for (uint32_t i = 0; i < w->n; i++) {
			struct job *j = &w->jobs[i];
			uint64_t last = atomic_load_explicit(&j->progress_ns, memory_order_relaxed);
			if (atomic_load(&j->done) || last == 0 || now < last ||
			    now - last < w->timeout_ns + atomic_load(&j->slack_ns))
				continue;
			char path[64];
			const char *dump = dump_goroutines(path, sizeof(path));
			fprintf(stderr,
				"bench: plugin %u made no progress for %.0f s in %s (a caller spinning on an async worker that is not scheduled looks like this); goroutine stacks: %s; giving up (see --stall-timeout)\n",
				i + 1, (double)(now - last) / 1e9, phase_names[atomic_load(&j->phase)],
				dump ? dump : "the Go runtime did not answer");
			_exit(3);
		}
	}
	return NULL;
}

static void *plugin_thread(void *arg)
{
	struct job *j = arg;
	struct shared *sh = j->sh;
	const struct options *o = sh->o;
	struct plugin_run *pr = j->pr;
	struct extractor *x = j->x;
	struct rusage ru0, ru1;
	uint64_t evt = 0, t0, cpu0;
	int64_t mig0;
	int st = EXTRACT_OK;
	int dead = 0;

	pr->caller_tid = thread_id();
	if (pr->pinned_cpu >= 0 && pin_to_cpu(pr->pinned_cpu) != 0) {
		pr->failed = 1;
		snprintf(pr->error, sizeof(pr->error), "plugin %u: cannot pin the caller to CPU %d",
			 pr->index, pr->pinned_cpu);
		dead = 1;
	}
	pthread_mutex_lock(&sh->gate_mu);
	while (sh->gate == 0)
		pthread_cond_wait(&sh->gate_cv, &sh->gate_mu);
	pthread_mutex_unlock(&sh->gate_mu);
	if (sh->gate < 0)
		return NULL;

	step(j, PH_COLD);
	if (!dead) {
		/* cold: the first call of this new C thread, timed alone */
		t0 = now_ns();
		st = one(j, evt);
		pr->cold_ns = now_ns() - t0;
		if (st != EXTRACT_OK) {
			fail(pr, "cold", evt, st);
			dead = 1;
		}
		evt++;
	}
	step(j, PH_PROBE);
	if (!dead && scenario_probe(j, &pr->before, pr->error, sizeof(pr->error)) != 0) {
		pr->failed = 1;
		dead = 1;
	}
	step(j, PH_WARMUP);
	t0 = now_ns();
	for (uint64_t i = 0; !dead && i < run_warmup(o, sh->scen); i++, evt++) {
		if ((i & 1023) == 0)
			step(j, PH_WARMUP);
		st = one(j, evt);
		if (st != EXTRACT_OK) {
			fail(pr, "warm-up", evt, st);
			dead = 1;
		}
	}

	if (run_warmup(o, sh->scen) > 0) {
		/* a batch may rightly take long: give the watchdog 20 batches of slack */
		double per = (double)(now_ns() - t0) / (double)run_warmup(o, sh->scen);
		atomic_store(&j->slack_ns, (uint64_t)(20.0 * per * (double)pr->batches.ops[0]));
	}
	/* all callers start timing together; the wait spins, so no caller (and
	 * no async worker) goes to sleep right before its first timed batch */
	spin_barrier(&sh->warm, o->plugins);
	if (j->rank == 0) {
		sh->steal_start = steal_ticks();
		sh->allocs_start = cgocost_go_allocs();
		alloc_counts_read(&sh->c_start);
		sh->bytes_start = cgocost_go_alloc_bytes();
		sh->cpu_start_ns = cpu_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
		sh->window_start_ns = now_ns();
	}
	mig0 = thread_migrations();
	getrusage(RUSAGE_THREAD, &ru0);
	pr->caller_cpu_first = current_cpu();
	cpu0 = cpu_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	step(j, PH_BATCHES);
	for (uint32_t b = 0; !dead && b < pr->batches.nbatches; b++) {
		uint64_t end = evt + pr->batches.ops[b];
		t0 = now_ns();
		if (sh->scen == SCEN_EXTRACT) {
			/* the extraction loop proper: nothing but the call and its check */
			for (; evt < end; evt++) {
				st = extractor_extract(x, evt);
				if (__builtin_expect(st != EXTRACT_OK, 0))
					break;
			}
		} else {
			for (; evt < end; evt++) {
				st = iteration(j, evt);
				if (__builtin_expect(st != EXTRACT_OK, 0))
					break;
			}
		}
		series_add(&pr->batches, b, now_ns() - t0);
		atomic_store_explicit(&j->progress_ns, now_ns(), memory_order_relaxed);
		if (evt != end) {
			fail(pr, "timed", evt, st);
			dead = 1;
		}
	}
	pr->noise.thread_cpu_ns = cpu_clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	pr->caller_cpu_last = current_cpu();
	getrusage(RUSAGE_THREAD, &ru1);
	pr->noise.vol_switches = (uint64_t)(ru1.ru_nvcsw - ru0.ru_nvcsw);
	pr->noise.invol_switches = (uint64_t)(ru1.ru_nivcsw - ru0.ru_nivcsw);
	{
		int64_t mig1 = thread_migrations();
		pr->noise.migrations = mig0 >= 0 && mig1 >= 0 ? mig1 - mig0 : -1;
	}
	{
		uint64_t end_ns = now_ns();
		/* the window ends when the last caller ends */
		uint64_t prev = __atomic_load_n(&sh->window_end_ns, __ATOMIC_RELAXED);
		while (end_ns > prev &&
		       !__atomic_compare_exchange_n(&sh->window_end_ns, &prev, end_ns, 0,
						    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			;
	}
	pthread_barrier_wait(&sh->finish);
	if (j->rank == 0) {
		sh->cpu_end_ns = cpu_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
		sh->allocs_end = cgocost_go_allocs();
		alloc_counts_read(&sh->c_end);
		sh->bytes_end = cgocost_go_alloc_bytes();
		sh->steal_end = steal_ticks();
	}

	step(j, PH_PROBE_AFTER);
	if (!dead) {
		if (scenario_probe(j, &pr->after, pr->error, sizeof(pr->error)) != 0) {
			pr->failed = 1;
			return NULL;
		}
		uint64_t want = (run_warmup(o, sh->scen) + o->n) * o->fields + PROBE_FIELDS;
		if (sh->scen == SCEN_EXTRACT && pr->after.calls - pr->before.calls != want) {
			pr->failed = 1;
			snprintf(pr->error, sizeof(pr->error),
				 "plugin %u: the plugin served %llu field extractions between the probes, the driver asked for %llu",
				 pr->index, (unsigned long long)(pr->after.calls - pr->before.calls),
				 (unsigned long long)want);
			return NULL;
		}
		int before = pr->before.tid != (uint64_t)pr->caller_tid;
		int after = pr->after.tid != (uint64_t)pr->caller_tid;
		if (before != after) {
			pr->failed = 1;
			snprintf(pr->error, sizeof(pr->error),
				 "plugin %u: the extraction mode changed during the run (Extract on thread %llu, then %llu; caller %d)",
				 pr->index, (unsigned long long)pr->before.tid,
				 (unsigned long long)pr->after.tid, (int)pr->caller_tid);
			return NULL;
		}
		pr->async_in_effect = after;
	}
	return NULL;
}

static void *plugin_thread_main(void *arg)
{
	struct job *j = arg;
	void *r = plugin_thread(arg);
	step(j, PH_DONE);
	atomic_store(&j->done, 1);
	return r;
}

uint64_t run_warmup(const struct options *o, enum scenario scen)
{
	/* a lifecycle iteration costs microseconds: a shorter warm-up */
	if (scen != SCEN_EXTRACT && !o->warmup_set && o->warmup > LIFECYCLE_WARMUP)
		return LIFECYCLE_WARMUP;
	return o->warmup;
}

int run_scenario(const struct options *o, enum scenario scen, struct extractor *xs, struct pool *pool,
		 const struct plugin_config *pc, struct run *r, char *err, size_t errlen)
{
	struct shared sh;
	struct job *jobs;
	pthread_t *threads;
	uint32_t started = 0;

	memset(r, 0, sizeof(*r));
	memset(&sh, 0, sizeof(sh));
	sh.o = o;
	sh.scen = scen;
	sh.pool = pool;
	if (pc)
		sh.pc = *pc;
	r->scenario = scen;
	pthread_mutex_init(&sh.init_mu, NULL);
	r->nplugins = o->plugins;
	r->clock_ticks = sysconf(_SC_CLK_TCK);
	r->plugins = calloc(o->plugins, sizeof(*r->plugins));
	jobs = calloc(o->plugins, sizeof(*jobs));
	threads = calloc(o->plugins, sizeof(*threads));
	if (r->plugins == NULL || jobs == NULL || threads == NULL) {
		snprintf(err, errlen, "out of memory for %u plugins", o->plugins);
		goto fail;
	}
	for (uint32_t i = 0; i < o->plugins; i++) {
		struct plugin_run *pr = &r->plugins[i];
		pr->index = i + 1;
		pr->pinned_cpu = o->ncpus ? o->cpus[i] : -1;
		if (series_init(&pr->batches, o->n, o->runs) != 0) {
			snprintf(err, errlen, "out of memory for %u batches", o->runs);
			goto fail;
		}
		jobs[i].sh = &sh;
		jobs[i].x = xs ? &xs[i] : NULL;
		jobs[i].pr = pr;
		jobs[i].rank = i;
	}
	pthread_mutex_init(&sh.gate_mu, NULL);
	pthread_cond_init(&sh.gate_cv, NULL);
	pthread_barrier_init(&sh.finish, NULL, o->plugins);
	for (; started < o->plugins; started++)
		if (pthread_create(&threads[started], NULL, plugin_thread_main, &jobs[started]) != 0)
			break;
	struct watchdog wd = {.jobs = jobs, .n = started, .timeout_ns = (uint64_t)o->stall_timeout_s * 1000000000u};
	pthread_t wdt;
	int have_wd = o->stall_timeout_s > 0 && pthread_create(&wdt, NULL, watchdog_thread, &wd) == 0;
	/* open the gate, or tell the threads that exist to leave */
	pthread_mutex_lock(&sh.gate_mu);
	sh.gate = started == o->plugins ? 1 : -1;
	pthread_cond_broadcast(&sh.gate_cv);
	pthread_mutex_unlock(&sh.gate_mu);
	for (uint32_t i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	if (have_wd) {
		atomic_store(&wd.stop, 1);
		pthread_join(wdt, NULL);
	}
	pthread_barrier_destroy(&sh.finish);
	pthread_mutex_destroy(&sh.init_mu);
	pthread_cond_destroy(&sh.gate_cv);
	pthread_mutex_destroy(&sh.gate_mu);
	if (started < o->plugins) {
		snprintf(err, errlen, "cannot start thread %u of %u", started + 1, o->plugins);
		goto fail;
	}
	r->wall_ns = sh.window_end_ns - sh.window_start_ns;
	r->process_cpu_ns = sh.cpu_end_ns - sh.cpu_start_ns;
	r->go_allocs = sh.allocs_end - sh.allocs_start;
	r->c_counted = sh.c_start.counting;
	r->c_mallocs = sh.c_end.mallocs - sh.c_start.mallocs;
	r->c_frees = sh.c_end.frees - sh.c_start.frees;
	r->pool_waits = pool ? pool->waits : 0;
	r->go_alloc_bytes = sh.bytes_end - sh.bytes_start;
	r->steal_ticks = sh.steal_start >= 0 && sh.steal_end >= 0 ? sh.steal_end - sh.steal_start : -1;
	free(jobs);
	free(threads);
	return 0;
fail:
	free(jobs);
	free(threads);
	run_free(r);
	return -1;
}

void run_free(struct run *r)
{
	if (r->plugins)
		for (uint32_t i = 0; i < r->nplugins; i++)
			series_free(&r->plugins[i].batches);
	free(r->plugins);
	memset(r, 0, sizeof(*r));
}
