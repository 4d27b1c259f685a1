/* timing/loop_open.c — the open loop (see loops.h): the requests of
 * --rate or --gap-us, each due at its time (openloop.h runs them), with a
 * latency per request and the calls' own time summed into the batches. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/clock.h"
#include "timing/loops.h"
#include "timing/openloop.h"
#include "timing/runner.h"
#include "timing/schedule.h"
#include "timing/series.h"

/* The open loop's view of one caller: the call, the watchdog's due time,
 * and the calls' own time summed into the batches. */
struct open_ctx {
	struct job *j;
	uint64_t evt0;
	int st;
	uint32_t batch;
	uint64_t in_batch, batch_ns;
};

static uint64_t open_now(void *ctx)
{
	(void)ctx;
	return now_ns();
}

static int open_call(void *ctx, uint64_t i)
{
	struct open_ctx *c = ctx;
	c->st = extractor_extract(c->j->x, c->evt0 + i);
	return c->st != EXTRACT_OK;
}

/* The watchdog times the request from its due time: one held up by a slow
 * predecessor is outstanding already. */
static void open_starting(void *ctx, uint64_t i, uint64_t due_ns)
{
	struct open_ctx *c = ctx;
	(void)i;
	atomic_store_explicit(&c->j->progress->at_ns, due_ns, memory_order_relaxed);
}

static void open_ended(void *ctx, uint64_t i, uint64_t service_ns)
{
	struct open_ctx *c = ctx;
	struct series *s = &c->j->pr->batches;
	(void)i;
	/* asleep until the next due time is not stuck: out of the watchdog's sight */
	atomic_store_explicit(&c->j->progress->at_ns, UINT64_MAX, memory_order_relaxed);
	c->batch_ns += service_ns;
	if (c->batch < s->nbatches && ++c->in_batch == s->ops[c->batch]) {
		series_add(s, c->batch, c->batch_ns);
		c->batch++;
		c->in_batch = c->batch_ns = 0;
	}
}

/* The open-loop requests (--rate, --gap-us) in place of the timed batches. */
void loop_open(struct job *j, uint64_t *evt, double per_op, int *dead)
{
	const struct options *o = j->sh->o;
	struct plugin_run *pr = j->pr;
	struct open_ctx c = { .j = j, .evt0 = *evt };
	const struct openloop_ops ops = { .now = open_now,
					  .wait_until = openloop_wait_until,
					  .call = open_call,
					  .starting = open_starting,
					  .ended = open_ended };
	struct schedule sched = { 0 };
	struct openloop_result res;

	(void)per_op; /* the schedule, not the pace, sets the requests */
	if (*dead)
		return;
	if ((pr->latencies = calloc(o->n, sizeof(*pr->latencies))) == NULL ||
	    (o->rate > 0 && schedule_make(&sched, o->n, o->rate, o->arrival, o->seed + pr->index - 1) != 0)) {
		pr->failed = 1;
		snprintf(pr->error, sizeof(pr->error), "plugin %u: out of memory for %llu latencies", pr->index,
			 (unsigned long long)o->n);
		*dead = 1;
		return;
	}
	openloop_thread_setup();
	atomic_store(&j->progress->slack_ns, 0);
	openloop_run(o->rate > 0 ? &sched : NULL, o->n, o->ngaps ? o->gaps_us[0] * 1000 : 0, &ops, &c, pr->latencies,
		     &res);
	schedule_free(&sched);
	pr->nlatencies = res.served;
	pr->open_start_ns = res.start_ns;
	pr->open_end_ns = res.end_ns;
	atomic_store_explicit(&j->progress->at_ns, now_ns(), memory_order_relaxed);
	*evt += res.served + (res.status != 0);
	if (res.status != 0) {
		runner_fail(pr, "timed", *evt - 1, c.st);
		*dead = 1;
	}
}
