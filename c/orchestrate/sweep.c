/* orchestrate/sweep.c — see sweep.h. */
#include "orchestrate/sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/status.h"
#include "orchestrate/launch.h"
#include "orchestrate/progress.h"

void sweep_child_options(const struct options *o, double rate, int async, struct options *co)
{
	double t = o->time_s > 0 ? o->time_s : OPT_SWEEP_TIME_S;

	*co = *o;
	co->nsweep = 0;
	co->async = async;
	co->arrival = rate > 0 ? o->arrival : ARRIVAL_EVEN;
	if (rate > 0) {
		co->rate = rate;
		co->time_s = t;
		co->n = (uint64_t)floor(rate * t + 0.5);
	} else {
		/* "max": back to back, a closed loop with no gap */
		co->rate = 0;
		co->time_s = 0;
		co->ngaps = 1;
		co->gaps_us[0] = 0;
		co->n = o->n_set ? o->n : OPT_SWEEP_MAX_N;
	}
	if (co->n < 1)
		co->n = 1;
	if (co->batches > co->n)
		co->batches = (uint32_t)co->n;
}

/* splitmix64's finalizer: every bit of z reaches every bit of the result. */
static uint64_t mix64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t sweep_child_seed(uint64_t seed, int k, int async)
{
	/* below 2^53: a JSON reader of any kind holds it exactly */
	return mix64(seed ^ mix64(2 * (uint64_t)k + (uint64_t)(async != 0) + 1)) & ((1ULL << 53) - 1);
}

/* Which launch of the sweep, on the progress line (progress.h). */
static void announce(struct progress *line, int done, int total, double rate, int async)
{
	char what[96];

	if (rate > 0)
		snprintf(what, sizeof(what), "sweep launch %d of %d: %g requests/s %s", done + 1, total, rate,
			 async ? "async" : "sync");
	else
		snprintf(what, sizeof(what), "sweep launch %d of %d: max %s", done + 1, total,
			 async ? "async" : "sync");
	progress_show(line, what, "");
}

/* One child launch; its cell moves into d. */
static int sweep_one(const struct options *o, int k, int async, struct doc *d, char *err, size_t errlen)
{
	struct options co;
	struct doc child;
	char seed[24];
	char *extra[] = { (char *)"--seed", seed, NULL };
	struct cell_rec *cell;
	int status;

	sweep_child_options(o, o->sweep[k], async, &co);
	/* its own seed (a child launch gets none from the table: it was 1) */
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)sweep_child_seed(o->seed, k, async));
	memset(&child, 0, sizeof(child));
	status = launch_options(&co, extra, &child, err, errlen);
	if (status == EXIT_CHILD_STALLED)
		status = EXIT_RUN_FAILED; /* a stalled request is what the sweep measures: not rerun */
	if (status == EXIT_OK && (child.ncells != 1 || !child.cells[0].has_latency)) {
		snprintf(err, errlen, "a sweep launch returned %zu cells, not one latency cell", child.ncells);
		status = EXIT_RUN_FAILED;
	}
	if (status == EXIT_OK) {
		if ((cell = model_append((void **)&d->cells, &d->ncells, sizeof(*d->cells))) == NULL) {
			snprintf(err, errlen, "out of memory");
			status = EXIT_RUN_FAILED;
		} else {
			*cell = child.cells[0];
			memset(&child.cells[0], 0, sizeof(child.cells[0]));
		}
	}
	doc_free(&child);
	return status;
}

int sweep_run(const struct options *o, const struct machine_rec *m, struct doc *d, char *err, size_t errlen)
{
	int total = 2 * o->nsweep, done = 0, status = EXIT_OK;
	struct progress line;

	doc_begin(d, m, o);
	progress_begin(&line, o, 0);
	for (int k = 0; status == EXIT_OK && k < o->nsweep; k++)
		for (int j = 0; status == EXIT_OK && j < 2; j++) {
			int async = (j + k) % 2; /* sync first, then async first, ... */
			announce(&line, done++, total, o->sweep[k], async);
			status = sweep_one(o, k, async, d, err, errlen);
		}
	progress_end(&line);
	return status;
}
