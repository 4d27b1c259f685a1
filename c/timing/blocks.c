/* timing/blocks.c — see blocks.h. */
#include "timing/blocks.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/fdio.h"
#include "base/threadcpu.h"
#include "stats/steady.h"

uint64_t blocks_calls(uint64_t block_ns, uint64_t n, double per_op_ns)
{
	double calls;

	if (block_ns == 0)
		return n;
	calls = per_op_ns > 0 ? (double)block_ns / per_op_ns : 1.0;
	return calls < 1.0 ? 1 : calls > 1e9 ? 1000000000 : (uint64_t)calls;
}

/* One more batch in the series, of calls operations. */
static int grow(struct series *s, uint64_t calls)
{
	uint64_t *ns = realloc(s->ns, (s->nbatches + 1) * sizeof(*ns));
	uint64_t *ops;

	if (ns == NULL)
		return -1;
	s->ns = ns;
	if ((ops = realloc(s->ops, (s->nbatches + 1) * sizeof(*ops))) == NULL)
		return -1;
	s->ops = ops;
	s->ns[s->nbatches] = 0;
	s->ops[s->nbatches] = calls;
	s->nbatches++;
	s->total_ops += calls;
	return 0;
}

/* The lead-in: one untimed extraction, then more until lead_in_ns has
 * passed since the start; or with steady_max_us, until they are steady
 * (groups of STEADY_GROUP, one clock read each) and lead_in_ns has passed,
 * or steady_max_us has passed since the first call ended (which may wait
 * for an async worker's wake). */
static int lead_in(struct block_server *b, const struct block_cmd *c, uint64_t *evt, struct block_reply *r)
{
	uint64_t t0 = now_ns(), t, t1, g, calls = 0, steady_max_ns = (uint64_t)c->steady_max_us * 1000;
	struct steady sd;
	int st, steady;

	st = extractor_extract(b->x, (*evt)++);
	t = now_ns();
	r->first_ns = t - t0;
	calls = 1;
	if (steady_max_ns == 0)
		for (; st == EXTRACT_OK && t - t0 < c->lead_in_ns; calls++, t = now_ns())
			st = extractor_extract(b->x, (*evt)++);
	else
		for (t1 = t, steady = 0, steady_init(&sd);
		     st == EXTRACT_OK && t - t1 < steady_max_ns && !(steady && t - t0 >= c->lead_in_ns);) {
			g = t;
			for (int i = 0; i < STEADY_GROUP && st == EXTRACT_OK; i++, calls++)
				st = extractor_extract(b->x, (*evt)++);
			t = now_ns();
			steady = steady_add(&sd, t - g);
		}
	r->lead_ns = t - t0;
	r->lead_calls = calls;
	b->lead_calls += calls;
	return st;
}

/* One timed block: nothing in the loop but the call and its check. Its
 * CPU time is every listed thread's own clock (base/threadcpu.h: the
 * process clock misses a spinning worker's time within a tick). */
static int timed_block(struct block_server *b, struct threadcpu *tc, uint64_t *evt, struct block_reply *r)
{
	uint64_t e = *evt, end = e + b->calls, t0, t1, cpu;
	int st = EXTRACT_OK;

	threadcpu_mark(tc);
	t0 = now_ns();
	if (b->every == 0) {
		for (; e < end; e++) {
			st = extractor_extract(b->x, e);
			if (__builtin_expect(st != EXTRACT_OK, 0))
				break;
		}
	} else {
		/* the slowdown: the same event once more after every b->every
		 * calls (a countdown: a division per call would cost more) */
		for (uint32_t left = b->every; e < end; e++) {
			st = extractor_extract(b->x, e);
			if (--left == 0 && st == EXTRACT_OK) {
				left = b->every;
				st = extractor_extract(b->x, e);
				b->extra_calls++;
			}
			if (st != EXTRACT_OK)
				break;
		}
	}
	t1 = now_ns();
	cpu = threadcpu_since(tc);
	*evt = e;
	r->ns = t1 - t0;
	r->cpu_ns = cpu;
	r->calls = b->calls;
	b->cpu_ns += r->cpu_ns;
	return st;
}

int blocks_serve(struct block_server *b, uint64_t *evt)
{
	struct block_reply r = { .async_in_effect = b->async_in_effect, .calls = b->calls };
	struct block_cmd c;
	struct threadcpu tc;

	b->s->nbatches = 0;
	b->s->total_ops = b->s->total_ns = 0;
	atomic_store(b->at_ns, UINT64_MAX);
	if (fd_write_all(BLOCKS_REPLY_FD, &r, sizeof(r)) != 0) {
		snprintf(b->error, sizeof(b->error), "cannot say ready to the parent: %s", strerror(errno));
		return -1;
	}
	for (;;) {
		if (fd_read_exact(BLOCKS_CMD_FD, &c, sizeof(c)) != 0 || c.op == BLOCK_END)
			return 0; /* the parent is done (or gone: PDEATHSIG ends us) */
		if (c.op != BLOCK_RUN) {
			snprintf(b->error, sizeof(b->error), "unknown command %u from the parent", c.op);
			return -1;
		}
		memset(&r, 0, sizeof(r));
		atomic_store(b->at_ns, now_ns());
		/* the threads whose CPU the block counts, listed before its
		 * lead-in: the directory read stays out of the block's edge */
		if (threadcpu_list(&tc) != 0) {
			snprintf(b->error, sizeof(b->error), "cannot list this process's threads: %s", strerror(errno));
			return -1;
		}
		r.status = lead_in(b, &c, evt, &r);
		if (r.status == EXTRACT_OK)
			r.status = timed_block(b, &tc, evt, &r);
		if (r.status == EXTRACT_OK && grow(b->s, b->calls) == 0)
			series_add(b->s, b->s->nbatches - 1, r.ns);
		else if (r.status == EXTRACT_OK)
			r.status = EXTRACT_FAILED; /* out of memory: reported as a failure */
		atomic_store(b->at_ns, UINT64_MAX);
		if (r.status != EXTRACT_OK) {
			b->status = r.status;
			b->failed_evt = *evt;
		}
		if (fd_write_all(BLOCKS_REPLY_FD, &r, sizeof(r)) != 0) {
			snprintf(b->error, sizeof(b->error), "cannot reply to the parent: %s", strerror(errno));
			return -1;
		}
		if (r.status != EXTRACT_OK)
			return -1;
	}
}
