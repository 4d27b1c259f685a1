/* timing/measure.c — see measure.h. */
#include "timing/measure.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/selfpath.h"
#include "base/status.h"
#include "plugin/extractor.h"
#include "plugin/load.h"
#include "timing/floors.h"
#include "timing/pool.h"
#include "timing/record.h"
#include "timing/runner.h"

/* Appends a message line to err. */
static void say(char *err, size_t errlen, const char *msg)
{
	size_t used = strlen(err);
	snprintf(err + used, errlen - used, "%s%s", used ? "\n" : "", msg);
}

static void put(const char *s)
{
	ssize_t w = write(STDERR_FILENO, s, strlen(s));
	(void)w;
}

/* SIGALRM while the libraries load: says which call of which library hung
 * (one line, the parent's classification reads it), then dies of the
 * signal as before. */
static void load_hung(int sig)
{
	const char *lib = NULL, *call = session_open_step(&lib);

	put("bench: hung while loading ");
	put(lib ? lib : "the plugin libraries");
	if (call && *call) {
		put(", in ");
		put(call);
	}
	put(" (no progress for --stall-timeout)\n");
	signal(sig, SIG_DFL);
	raise(sig);
}

/* The two CPUs of the cache-line round trip: the first caller's CPU when
 * pinned, and the worker's (--worker-cpu) or else another CPU this process
 * may use. */
static void handoff_cpus(const struct options *o, const struct machine *m, int *a, int *b)
{
	*a = o->ncpus ? o->cpus[0] : (m->allowed_cpus > 0 ? m->allowed[0] : -1);
	*b = o->worker_cpu;
	if (*b >= 0 && *b != *a)
		return;
	*b = -1;
	for (int i = 0; i < m->allowed_cpus; i++)
		if (m->allowed[i] != *a) {
			*b = m->allowed[i];
			break;
		}
}

/* "0,1" into buf. */
static const char *cpus_text(const int *cpus, int n, char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%d", i ? "," : "", cpus[i]);
	return buf;
}

/* --worker-cpu, verified rather than assumed: every thread but the
 * callers was still held on the worker's CPU after the run (a thread the
 * Go runtime starts inherits its creator's mask, a caller's one too), and
 * the async Extract ran there at the probes. */
static int worker_side_verified(const struct run *r, char *msg, size_t len)
{
	const struct worker_side_rec *w = &r->worker_side;
	char cpus[256];

	if (!r->has_worker_side)
		return 0;
	if (w->nallowed != 1 || w->allowed[0] != w->cpu) {
		snprintf(msg, len, "--worker-cpu %d: the worker side was allowed CPUs %s after the run, not %d alone",
			 w->cpu,
			 w->nallowed < 0 ? "(unreadable)" : cpus_text(w->allowed, w->nallowed, cpus, sizeof(cpus)),
			 w->cpu);
		return -1;
	}
	if (w->nran_on > 1 || (w->nran_on == 1 && w->ran_on[0] != w->cpu)) {
		snprintf(msg, len, "--worker-cpu %d: the async Extract ran on CPU %s at the probes", w->cpu,
			 cpus_text(w->ran_on, w->nran_on, cpus, sizeof(cpus)));
		return -1;
	}
	return 0;
}

/* A finished run's failures, a sync run that ran async, and a worker side
 * that was not where --worker-cpu put it. */
static int run_verified(const struct options *o, const struct run *r, char *err, size_t errlen)
{
	int status = EXIT_OK;
	char msg[512];

	for (uint32_t i = 0; i < r->nplugins; i++)
		if (r->plugins[i].failed) {
			say(err, errlen, r->plugins[i].error);
			status = EXIT_RUN_FAILED;
		}
	/* a plugin without probe fields (its mode read from the SDK's state):
	 * its own configuration passed verbatim says the mode, and the report
	 * names the one that ran; cgocost's own plugins read -a, and their
	 * --plugin-config never sets the mode (it is still verified) */
	for (uint32_t i = 0; status == EXIT_OK && i < r->nplugins; i++)
		if (!o->async && r->plugins[i].mode_by_slot && r->plugins[i].async_in_effect) {
			if (o->plugin_config != NULL)
				continue;
			snprintf(
				msg, sizeof(msg),
				"plugin %u: sync was requested but the SDK's async mode is in effect (the instance's async slot waits for requests): the plugin turned async on itself; pass its configuration with --plugin-config to measure the mode it sets",
				i + 1);
			say(err, errlen, msg);
			status = EXIT_RUN_FAILED;
		} else if (!o->async && r->plugins[i].mode_known && r->plugins[i].async_in_effect) {
			snprintf(
				msg, sizeof(msg),
				"plugin %u: sync was requested but Extract ran on thread %llu, not the caller's %d: the SDK's async mode is on; refusing to report",
				i + 1, (unsigned long long)r->plugins[i].after.tid, (int)r->plugins[i].caller_tid);
			say(err, errlen, msg);
			status = EXIT_RUN_FAILED;
		}
	if (status == EXIT_OK && worker_side_verified(r, msg, sizeof(msg)) != 0) {
		say(err, errlen, msg);
		status = EXIT_RUN_FAILED;
	}
	return status;
}

/* The instances a scenario needs before it starts: -p per measured library
 * (extract), a pool (reuse), or proof that one can be made (alloc). */
static int open_instances(const struct options *o, enum scenario scen, const struct session *s, struct extractor **xs,
			  struct pool *pool, char *err, size_t errlen)
{
	const struct plugin_config *pc = &s->libs[0].pc;
	uint32_t ncallers = o->plugins * (uint32_t)s->nlibs;
	char msg[1500];
	struct extractor probe;

	*xs = NULL;
	if (scen == SCEN_REUSE) {
		if (pool_open(pool, (int)o->pool, pc, o->fields, msg, sizeof(msg)) == 0)
			return 0;
		snprintf(err, errlen, "reuse pool: %s", msg);
		return -1;
	}
	if (scen == SCEN_ALLOC) {
		if (extractor_open(&probe, pc, o->fields, err, errlen) != 0)
			return -1;
		extractor_close(&probe);
		return 0;
	}
	if ((*xs = calloc(ncallers, sizeof(**xs))) == NULL) {
		snprintf(err, errlen, "out of memory for %u plugins", ncallers);
		return -1;
	}
	/* one at a time: the SDK does not allow concurrent plugin_init */
	for (uint32_t i = 0; i < ncallers; i++)
		if (extractor_open(&(*xs)[i], &s->libs[i / o->plugins].pc, o->fields, msg, sizeof(msg)) != 0) {
			snprintf(err, errlen, "plugin %u: %s", i + 1, msg);
			while (i-- > 0)
				extractor_close(&(*xs)[i]);
			free(*xs);
			*xs = NULL;
			return -1;
		}
	return 0;
}

static void close_instances(uint32_t ncallers, enum scenario scen, struct extractor *xs, struct pool *pool)
{
	if (xs) {
		for (uint32_t i = 0; i < ncallers; i++)
			extractor_close(&xs[i]);
		free(xs);
	}
	if (scen == SCEN_REUSE)
		pool_close(pool);
}

/* What the launch record says about the libraries and runtimes. Each
 * measured library spins its own async workers (its own runtime), and so
 * does a busy one, when async is in effect. */
static int record_libraries(struct launch_rec *l, struct session *s, const struct run *r)
{
	uint64_t per = l->async_workers;
	int busy = s->other && s->other->role == ROLE_BUSY;

	if (s->other)
		s->other->extractions = r->busy_extractions;
	if (strcmp(l->mode_in_effect, "async") == 0 || strcmp(l->mode_in_effect, "mixed") == 0)
		l->async_workers = per * (uint64_t)s->nlibs + (busy ? per : 0);
	l->go_runtimes = s->go_runtimes;
	return session_records(s, &l->libraries, &l->nlibraries);
}

/* Runs one scenario and appends its cell to d. */
static int measure_scenario(const struct options *o, enum scenario scen, struct session *s, const struct floors *f,
			    struct doc *d, char *err, size_t errlen)
{
	uint32_t ncallers = o->plugins * (uint32_t)s->nlibs;
	struct extractor *xs;
	struct pool pool;
	struct run r;
	struct cell_rec *cell;
	char self[PATH_MAX];
	int status;

	if (open_instances(o, scen, s, &xs, &pool, err, errlen) != 0)
		return EXIT_RUN_FAILED;
	status = run_scenario(o, scen, ncallers, xs, scen == SCEN_REUSE ? &pool : NULL, &s->libs[0].pc,
			      s->other && s->other->role == ROLE_BUSY ? &s->other->first : NULL, &r, err, errlen) == 0
			 ? EXIT_OK
			 : EXIT_RUN_FAILED;
	close_instances(ncallers, scen, xs, &pool);
	if (status != EXIT_OK)
		return status;
	status = run_verified(o, &r, err, errlen);
	if (status == EXIT_OK) {
		if (self_path(self, sizeof(self)) != 0)
			snprintf(self, sizeof(self), "bench");
		cell = model_append((void **)&d->cells, &d->ncells, sizeof(*d->cells));
		if (cell == NULL || (cell->launches = calloc(1, sizeof(*cell->launches))) == NULL) {
			snprintf(err, errlen, "out of memory");
			status = EXIT_RUN_FAILED;
		} else {
			record_cell(cell, &r, o, s, self);
			cell->nlaunches = 1;
			if (record_launch(&cell->launches[0], &r, o, f) != 0 ||
			    record_libraries(&cell->launches[0], s, &r) != 0 ||
			    (options_latency(o) && record_latency(cell, &cell->launches[0], &r, o) != 0)) {
				snprintf(err, errlen, "out of memory");
				status = EXIT_RUN_FAILED;
			}
		}
	}
	run_free(&r);
	return status;
}

int measure_here(const struct options *o, const struct machine *m, struct doc *d, char *err, size_t errlen)
{
	struct floors f;
	struct session s;
	struct machine_rec mr;
	struct options placed;
	int have_floors = 0, status;

	err[0] = '\0';
	record_machine(&mr, m);
	doc_begin(d, &mr, o);
	/* --worker-cpu without --cpus: the caller on the CPU setup chose */
	if (o->worker_cpu >= 0 && o->ncpus == 0 && m->caller_cpu >= 0) {
		placed = *o;
		placed.ncpus = 1;
		placed.cpus[0] = m->caller_cpu;
		o = &placed;
	}
	/* a library that hangs while loading ends the launch (SIGALRM) */
	signal(SIGALRM, load_hung);
	alarm(o->stall_timeout_s);
	status = session_open(&s, o, err, errlen);
	alarm(0);
	signal(SIGALRM, SIG_DFL);
	if (status != EXIT_OK) {
		session_close(&s);
		return status;
	}
	/* a counted floor's child: only that floor's loop, nothing measured */
	if (o->count_floor) {
		status = floors_loop((enum floor_kind)(o->count_floor - 1), o->n, o->warmup, err, errlen) == 0
				 ? EXIT_OK
				 : EXIT_RUN_FAILED;
		session_close(&s);
		return status;
	}
	/* floors first, before any plugin instance exists: no async worker runs */
	if (o->floors) {
		int a, b;
		handoff_cpus(o, m, &a, &b);
		if (floors_measure(&f, o->n, o->batches, o->warmup, o->ncpus ? o->cpus[0] : -1, a, b, err, errlen) !=
		    0) {
			session_close(&s);
			return EXIT_RUN_FAILED;
		}
		have_floors = 1;
	}
	if (o->lifecycle) {
		status = measure_scenario(o, SCEN_ALLOC, &s, have_floors ? &f : NULL, d, err, errlen);
		if (status == EXIT_OK)
			status = measure_scenario(o, SCEN_REUSE, &s, have_floors ? &f : NULL, d, err, errlen);
	} else if (o->ngaps > 1) {
		/* one cell per idle gap, in the order given */
		struct options one = *o;
		status = EXIT_OK;
		for (int g = 0; status == EXIT_OK && g < o->ngaps; g++) {
			one.ngaps = 1;
			one.gaps_us[0] = o->gaps_us[g];
			status = measure_scenario(&one, SCEN_EXTRACT, &s, have_floors ? &f : NULL, d, err, errlen);
		}
	} else {
		status = measure_scenario(o, SCEN_EXTRACT, &s, have_floors ? &f : NULL, d, err, errlen);
	}
	if (have_floors)
		floors_free(&f);
	session_close(&s);
	return status;
}
