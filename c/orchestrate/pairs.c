/* orchestrate/pairs.c — see pairs.h. */
#include "orchestrate/pairs.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyse/paired.h"
#include "analyse/ratios.h"
#include "analyse/verdict.h"
#include "base/clock.h"
#include "base/fdio.h"
#include "base/interrupt.h"
#include "base/status.h"
#include "base/sysinfo.h"
#include "model/codec.h"
#include "orchestrate/child.h"
#include "orchestrate/childmsg.h"
#include "orchestrate/progress.h"
#include "stats/stats.h"
#include "timing/blocks.h"
#include "timing/record.h"

/* The most cells a paired run holds at once. */
#define MAX_CELLS 32

/* One cell's child. */
struct server {
	struct variant *v;
	struct child c; /* CHILD_SERVER: its commands and replies pipes */
	struct block_reply ready;
	size_t cap; /* of its pair_cell_rec arrays */
};

/* --- the children ----------------------------------------------------------- */

/* How a child ended (reaped within timeout_ms), from its status and
 * stderr: EXIT_OK when it exited cleanly and ended_ok says that is what was
 * expected; else its one-line reason, what saying when. */
static int outcome(struct server *s, const char *what, int timeout_ms, int ended_ok, char *err, size_t errlen)
{
	char why[600];
	enum child_kind kind = child_end(&s->c, timeout_ms, why, sizeof(why));

	if (kind == CHILD_OK && ended_ok)
		return EXIT_OK;
	if (kind == CHILD_BAD_INPUT) {
		snprintf(err, errlen, "%s", why);
		return EXIT_BAD_INPUT;
	}
	snprintf(err, errlen, "paired launch of %s (%s) %s %s: %s", s->v->exe, s->v->async ? "async" : "sync",
		 child_verb(kind), what, kind == CHILD_OK ? "it ended without a word" : why);
	return EXIT_RUN_FAILED;
}

/* What became of a child that stopped answering, as one line; one that
 * answered nothing for --stall-timeout (timeout_ms 0) is killed first. */
static int failure(struct server *s, const char *what, int timeout_ms, char *err, size_t errlen)
{
	if (timeout_ms == 0) {
		child_reap(&s->c, 0);
		snprintf(err, errlen, "paired launch of %s (%s) stalled %s: no progress for --stall-timeout; killed",
			 s->v->exe, s->v->async ? "async" : "sync", what);
		return EXIT_RUN_FAILED;
	}
	return outcome(s, what, timeout_ms, 0, err, errlen);
}

/* A child whose reply is none of the protocol's (a ready reply says the
 * calls of a block and a mode, every block's reply those calls): it is no
 * bench serving blocks, or a broken one; killed. */
static int garbage(struct server *s, const char *what, char *err, size_t errlen)
{
	child_reap(&s->c, 0);
	snprintf(
		err, errlen,
		"paired launch of %s (%s) failed: %s is not one of the blocks protocol (garbage on its replies pipe); killed",
		s->v->exe, s->v->async ? "async" : "sync", what);
	return EXIT_RUN_FAILED;
}

static int stall_ms(const struct options *o)
{
	return o->stall_timeout_s ? (int)o->stall_timeout_s * 1000 : -1;
}

/* One reply, within the stall timeout. 0; 1 the child is gone; 2 it is stuck. */
static int receive(struct server *s, struct block_reply *r, int timeout_ms)
{
	size_t got = 0;

	while (got < sizeof(*r)) {
		struct pollfd p = { .fd = s->c.reply, .events = POLLIN };
		int n = poll(&p, 1, timeout_ms);
		ssize_t k;
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			return 2;
		k = read(s->c.reply, (char *)r + got, sizeof(*r) - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return 1;
		got += (size_t)k;
	}
	return 0;
}

static int send_cmd(struct server *s, uint32_t op, uint64_t lead_in_ns, uint32_t steady_max_us)
{
	struct block_cmd c = { .op = op, .steady_max_us = steady_max_us, .lead_in_ns = lead_in_ns };
	return fd_write_all(s->c.cmd, &c, sizeof(c));
}

/* --- the run ------------------------------------------------------------------ */

/* The first reply of a child starting up (load, warm-up): within the
 * child's deadline (child.h) of its bound as a launch's start is (plan.h):
 * past the bound for as long as it keeps using CPU, up to
 * CHILD_BUSY_MAX_FACTOR times the bound. On a loaded machine an async
 * warm-up is slow without being stuck: each handoff waits until the worker
 * gets a CPU (milliseconds a call at a load of 8 on 2 CPUs, past the
 * bound's 20 us); a stopped or blocked child uses no CPU and ends at the
 * bound. As receive; 2 with the reason in err, the child killed. */
static int receive_ready(struct server *s, const struct options *o, char *err, size_t errlen)
{
	int bound = plan_bound_ms(o, 0), left, got;
	struct child_deadline d;

	child_deadline_start(&d, &s->c, bound);
	do
		got = receive(s, &s->ready, left = child_deadline_left_ms(&d, &s->c));
	while (got == 2 && left != 0);
	if (got != 2)
		return got;
	child_reap(&s->c, 0);
	if (d.busy)
		snprintf(err, errlen,
			 "paired launch of %s (%s) stalled before its first block: not ready after %d s, though it "
			 "kept using CPU (%d x its bound of %d s, the most a start-up may take); killed",
			 s->v->exe, s->v->async ? "async" : "sync", child_deadline_waited_ms(&d) / 1000,
			 CHILD_BUSY_MAX_FACTOR, bound / 1000);
	else
		snprintf(err, errlen,
			 "paired launch of %s (%s) stalled before its first block: not ready after %d s (2 x "
			 "--stall-timeout + 10 s + its warm-up, then as long as it used CPU); killed",
			 s->v->exe, s->v->async ? "async" : "sync", child_deadline_waited_ms(&d) / 1000);
	return 2;
}

static int start(struct server *s, const struct options *o, int cpu, char *err, size_t errlen)
{
	char *argv[PLAN_MAX_ARGS + 6], store[PLAN_ARGS_BYTES], blockns[32], cpuarg[16];
	struct options co = *o;
	int n, got;

	/* every caller on the same CPU (the vCPUs of a VM differ in speed) */
	if (cpu >= 0) {
		co.ncpus = 1;
		co.cpus[0] = cpu;
	}
	n = child_args(&co, s->v, argv, PLAN_MAX_ARGS, store, sizeof(store));

	/* -n given: that many calls a block; else as many as fill --block-ms
	 * (an async cell's: --async-block-ms, when given) */
	snprintf(blockns, sizeof(blockns), "%llu",
		 o->n_set ? 0ULL : (unsigned long long)llround(options_block_ms(o, s->v->async) * 1e6));
	if (n < 0) {
		snprintf(err, errlen, "arguments too long for a launch");
		return EXIT_RUN_FAILED;
	}
	/* the textbook loop takes the same placement as an option of its own */
	if (s->v->minimal && cpu >= 0) {
		snprintf(cpuarg, sizeof(cpuarg), "%d", cpu);
		argv[n++] = (char *)"-c";
		argv[n++] = cpuarg;
	}
	/* and the SDK state bench's probe leaves: the same field IDs asked
	 * (the SDK's map of them costs +46 instructions a field past 8) */
	if (s->v->minimal)
		argv[n++] = (char *)"-P";
	argv[n] = (char *)"--serve-blocks";
	argv[n + 1] = blockns;
	argv[n + 2] = NULL;
	if (child_spawn(&s->c, CHILD_SERVER, argv, err, errlen) != 0)
		return EXIT_RUN_FAILED;
	got = receive_ready(s, o, err, errlen);
	if (got == 2)
		return EXIT_RUN_FAILED;
	if (got != 0)
		return failure(s, "before its first block", 10000, err, errlen);
	if (s->ready.status != 0 || s->ready.calls == 0 || s->ready.async_in_effect < -1 ||
	    s->ready.async_in_effect > 1)
		return garbage(s, "its first reply", err, errlen);
	/* the mode in effect, verified at the child's first probe */
	return childmsg_ready(&s->ready, s->v, err, errlen) == 0 ? EXIT_OK : EXIT_RUN_FAILED;
}

/* A random order of n cells (Fisher-Yates). */
void pairs_order(int *order, int n, stats_rng *rng)
{
	for (int i = 0; i < n; i++)
		order[i] = i;
	for (int i = n - 1; i > 0; i--) {
		int j = (int)stats_rng_below(rng, (size_t)i + 1), t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
}

const char *pairs_stop(struct paired_rec *pr, const struct options *o, double elapsed_s)
{
	/* --launches L: L generations, each of --time / L rounds, however long
	 * their start-ups take; else until --time is spent */
	int end = o->launches_set ? pr->ngenerations >= o->launches : elapsed_s >= o->time_s;

	/* --against: a look at the scheduled generation counts and at the end,
	 * each spending its share of alpha; a decisive one ends the run */
	if (pr->has_sequential && (end || seq_is_look(&pr->seq, pr->ngenerations))) {
		double a = seq_take(&pr->seq, end);
		verdict_t v = a > 0 ? paired_look(pr, a, o->threshold) : VERDICT_INCONCLUSIVE;
		if (a > 0)
			pr->verdict_alpha = a;
		if (v == VERDICT_REGRESSED || verdict_passes(v))
			return "verdict";
	}
	if (o->launches_set)
		return end ? "launches" : NULL;
	if (end)
		return "time";
	if (pr->precision_pct > 0 && !pr->has_sequential && pr->ngenerations >= PAIRS_MIN_GENERATIONS &&
	    ratios_precise(pr))
		return "precision";
	return NULL;
}

/* The rounds of one generation, until it has lasted its time (or the whole
 * budget is spent), and PAIRS_MIN_ROUNDS at least. */
static int rounds(struct server *sv, int nv, const struct options *o, struct paired_rec *pr, stats_rng *rng,
		  uint64_t run_t0, char *err, size_t errlen)
{
	uint64_t t0 = now_ns(), budget = (uint64_t)(o->time_s * 1e9), lead = o->lead_in_us * 1000;
	/* fixed lead-ins (--lead-in-us given), or until steady, capped, and
	 * --lead-in-us's default at least after an async block or a start (the
	 * worker before spins on for 1 ms: a sync block in its wake was 1.1%
	 * slower, docs/results.md); prepare decided which */
	uint32_t steady_max = pr->has_steady ? (uint32_t)pr->lead_in_steady_max_us : 0;
	uint64_t gen = (uint64_t)(pr->generation_s * 1e9);
	uint32_t done = 0;
	int order[MAX_CELLS], prev = -1; /* the cell of the block before: none at a start */

	uint32_t k = pr->blocks_per_visit ? pr->blocks_per_visit : 1;

	/* a round visits every cell once, in a random order; a visit is one
	 * lead-in and k timed blocks in a row (the blocks after the first
	 * start with one untimed call: the cell is hot), block j of a visit
	 * paired with block j of every other cell's visit: k rounds */
	for (;;) {
		pairs_order(order, nv, rng);
		for (int i = 0; i < nv; i++)
			for (uint32_t j = 0; j < k; j++) {
				struct server *s = &sv[order[i]];
				struct block_reply r;
				int got;
				int after_async = prev < 0 || sv[prev].ready.async_in_effect != 0;
				uint64_t l = j ? 0 : steady_max && !after_async ? 0 : lead;
				if (send_cmd(s, BLOCK_RUN, l, j ? 0 : steady_max) != 0)
					return failure(s, "during a block", 10000, err, errlen);
				got = receive(s, &r, stall_ms(o));
				if (got != 0)
					return failure(s, "during a block", got == 2 ? 0 : 10000, err, errlen);
				if (r.status == 0 && r.calls != s->ready.calls)
					return garbage(s, "a block's reply", err, errlen);
				if (r.status != 0)
					return failure(s, "during a block", 10000, err, errlen);
				if (childmsg_block(&pr->cells[order[i]], &sv[order[i]].cap, &r,
						   j   ? order[i]
						   : i ? order[i - 1]
						       : -1) != 0) {
					snprintf(err, errlen, "out of memory for the blocks");
					return EXIT_RUN_FAILED;
				}
				pr->lead_s += (double)r.lead_ns / 1e9;
				pr->lead_ins_capped +=
					!j && steady_max && r.lead_ns - r.first_ns >= (uint64_t)steady_max * 1000;
				prev = order[i];
				pr->timed_s += (double)r.ns / 1e9;
			}
		pr->rounds += k;
		done += k;
		if (done >= PAIRS_MIN_ROUNDS && (now_ns() - t0 >= gen || now_ns() - run_t0 >= budget))
			break;
	}
	return model_append((void **)&pr->generation_rounds, &pr->ngenerations, sizeof(double)) == NULL
		       ? (snprintf(err, errlen, "out of memory"), EXIT_RUN_FAILED)
		       : (pr->generation_rounds[pr->ngenerations - 1] = done, EXIT_OK);
}

/* The document of a textbook child (bench-textbook): its seed and mode
 * lines, as one launch whose batches are the generation's last n blocks
 * of its paired record pc (as a bench child's launch has a batch a block). */
static int textbook_document(struct variant *v, const char *out, const struct options *o,
			     const struct pair_cell_rec *pc, size_t n, char *err, size_t errlen)
{
	struct doc child;
	struct caller_rec *c;
	double *per = n ? malloc(n * sizeof(double)) : NULL;
	int status;

	memset(&child, 0, sizeof(child));
	if (out == NULL || record_minimal(&child, out, o, v->async, v->exe) != 0) {
		free(per);
		snprintf(err, errlen, "paired launch of %s printed no seed line and verified mode", v->exe);
		return EXIT_RUN_FAILED;
	}
	c = &child.cells[0].launches[0].callers[0];
	if (per && n <= pc->nblocks) {
		struct batch_rec *b = realloc(c->batches, n * sizeof(*b));
		for (size_t k = 0; b && k < n; k++) {
			per[k] = pc->block_ns[pc->nblocks - n + k];
			b[k] = (struct batch_rec){ (uint64_t)llround(per[k] * (double)pc->per_block), pc->per_block };
			c->slowest_batch_ns = k == 0 || per[k] > c->slowest_batch_ns ? per[k] : c->slowest_batch_ns;
		}
		if (b) {
			c->batches = b;
			c->nbatches = n;
			c->median_batch_ns = stats_median(per, n);
		}
	}
	free(per);
	status = plan_merge_launch(v, &child, err, errlen);
	doc_free(&child);
	return status;
}

/* Ends every child and takes its document: one launch, a batch a block;
 * each must have measured what its side's other launches and, on the
 * --against side, this build's same cell measured. */
static int finish(struct plan *p, struct server *sv, int nv, const struct options *o, const struct paired_rec *pr,
		  char *err, size_t errlen)
{
	size_t rounds = pr->ngenerations ? (size_t)pr->generation_rounds[pr->ngenerations - 1] : 0;
	int timeout = stall_ms(o) < 0 ? 600000 : stall_ms(o) + 10000;

	for (int i = 0; i < nv; i++)
		send_cmd(&sv[i], BLOCK_END, 0, 0);
	for (int i = 0; i < nv; i++) {
		struct server *s = &sv[i];
		int status = outcome(s, "at its end", timeout, 1, err, errlen);

		if (status == EXIT_OK && s->v->minimal)
			status = textbook_document(s->v, s->c.output, o, &pr->cells[i], rounds, err, errlen);
		else if (status == EXIT_OK)
			status = childmsg_document(s->v, s->c.output, err, errlen);
		if (status == EXIT_OK)
			status = plan_check_identity(p, (int)(s->v - p->v), s->c.output, err, errlen);
		if (status != EXIT_OK)
			return status;
	}
	return EXIT_OK;
}

/* The record's settings, cells and ratios from the plan and options; every
 * server closed. */
static int prepare(struct plan *p, const struct options *o, struct paired_rec *pr, struct server *sv, char *err,
		   size_t errlen)
{
	struct ratio_cell cells[MAX_CELLS];
	int nv = p->nv;

	memset(pr, 0, sizeof(*pr));
	pr->block_ms = o->n_set ? 0 : o->block_ms;
	pr->async_block_ms = o->n_set ? 0 : options_block_ms(o, 1);
	pr->lead_in_us = (double)o->lead_in_us;
	pr->has_steady = !o->lead_in_set; /* --lead-in-us given: fixed lead-ins */
	pr->lead_in_steady_max_us = pr->has_steady ? OPT_LEAD_IN_STEADY_MAX_US : 0;
	pr->budget_s = o->time_s;
	pr->precision_pct = o->precision_pct;
	pr->order_seed = o->seed;
	pr->blocks_per_visit = o->blocks_per_visit ? o->blocks_per_visit : 1;
	if (nv > MAX_CELLS || nv > INTERRUPT_SLOTS) {
		snprintf(err, errlen, "too many cells to pair (%d)", nv);
		return EXIT_BAD_INPUT;
	}
	for (int i = 0; i < nv; i++)
		cells[i] = (struct ratio_cell){ .exe = p->v[i].exe,
						.async = p->v[i].async,
						.host_calls = p->v[i].host_calls,
						.work = p->v[i].work };
	if ((pr->cells = calloc((size_t)nv, sizeof(*pr->cells))) == NULL ||
	    ratios_define(cells, p->nself, nv, o, pr) != 0) {
		snprintf(err, errlen, "out of memory");
		return EXIT_RUN_FAILED;
	}
	pr->ncells = (size_t)nv;
	for (int i = 0; i < nv; i++) {
		memset(&sv[i], 0, sizeof(sv[i]));
		sv[i].v = &p->v[i];
		child_init(&sv[i].c, i);
		snprintf(pr->cells[i].side, sizeof(pr->cells[i].side), "%s", p->v[i].base ? "against" : "this");
		/* what start() asks every generation's child to fill */
		pr->cells[i].block_ms = o->n_set ? 0 : options_block_ms(o, p->v[i].async);
	}
	pr->caller_cpu = o->ncpus ? o->cpus[0] : first_allowed_cpu();
	pr->generation_s = options_generation_s(o);
	/* --against: a sequential design over the most generations the
	 * budget holds (the verdict is drawn at whichever look ends the run) */
	if (o->base == BASE_BUILD) {
		double least_s;
		pr->has_sequential = 1;
		seq_init(&pr->seq, VERDICT_MIN_GENERATIONS, options_max_generations(o, nv, &least_s), VERDICT_ALPHA);
	}
	return EXIT_OK;
}

/* One generation of fresh children: started, run in rounds, ended, their
 * documents taken; none is left running. */
static int generation(struct plan *p, struct server *sv, int nv, const struct options *o, struct paired_rec *pr,
		      stats_rng *rng, uint64_t t0, char *err, size_t errlen)
{
	uint64_t s0 = now_ns(), s1;
	/* one at a time: the start-up and warm-up of one never overlap
	 * another's; in a random order, so that being started first
	 * (measured: about 2% in an A/A run) is no cell's privilege */
	int order[MAX_CELLS], status = EXIT_OK;

	interrupt_doing("the start of the paired launches");
	pairs_order(order, nv, rng);
	for (int k = 0; status == EXIT_OK && k < nv; k++) {
		int i = order[k];
		status = start(&sv[i], o, pr->caller_cpu, err, errlen);
		pr->cells[i].per_block = sv[i].ready.calls;
	}
	s1 = now_ns();
	interrupt_doing("the paired blocks");
	if (status == EXIT_OK)
		status = rounds(sv, nv, o, pr, rng, t0, err, errlen);
	s0 += now_ns() - s1; /* what follows is start-up time too */
	interrupt_doing("the end of the paired launches");
	if (status == EXIT_OK)
		status = finish(p, sv, nv, o, pr, err, errlen);
	for (int i = 0; i < nv; i++)
		child_close(&sv[i].c);
	pr->startup_s += (double)(now_ns() - s0) / 1e9;
	return status;
}

/* Between generations, no child alive: the progress line (progress.h). */
static void show_progress(struct progress *line, const struct options *o, const struct paired_rec *pr)
{
	char done[64], figure[MODEL_NAME_MAX + 64];

	if (!line->on)
		return;
	if (o->launches_set) /* --launches L: L generations, however long */
		snprintf(done, sizeof(done), "generation %zu of %u, %u rounds", pr->ngenerations, o->launches,
			 pr->rounds);
	else
		snprintf(done, sizeof(done), "generation %zu, %u rounds", pr->ngenerations, pr->rounds);
	progress_show(line, done, progress_paired_figure(pr, figure, sizeof(figure)));
}

int pairs_run(struct plan *p, const struct options *o, struct paired_rec *pr, char *err, size_t errlen)
{
	struct server sv[MAX_CELLS];
	int status, nv = p->nv;
	stats_rng rng;
	uint64_t t0;
	const char *stop;
	struct progress line;
	void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN);

	if ((status = prepare(p, o, pr, sv, err, errlen)) != EXIT_OK) {
		signal(SIGPIPE, old_pipe);
		return status;
	}
	stats_rng_seed(&rng, pr->order_seed);
	t0 = now_ns();
	progress_begin(&line, o, o->launches_set ? 0 : o->time_s);
	/* generations of fresh children until the budget is spent: each
	 * process is placed and laid out anew, and the verdict is taken over
	 * generations, so that one process's luck is not mistaken for a change */
	while (status == EXIT_OK) {
		status = generation(p, sv, nv, o, pr, &rng, t0, err, errlen);
		if (status != EXIT_OK)
			break;
		show_progress(&line, o, pr);
		if ((stop = pairs_stop(pr, o, (double)(now_ns() - t0) / 1e9)) != NULL) {
			snprintf(pr->stopped_by, sizeof(pr->stopped_by), "%s", stop);
			break;
		}
	}
	pr->elapsed_s = (double)(now_ns() - t0) / 1e9;
	progress_end(&line);
	signal(SIGPIPE, old_pipe);
	/* the cells' names, now that the children said which mode ran */
	for (int i = 0; status == EXIT_OK && i < nv; i++)
		snprintf(pr->cells[i].name, sizeof(pr->cells[i].name), "%s",
			 p->v[i].ncells ? p->v[i].cells[0].name : p->v[i].exe);
	if (status == EXIT_OK)
		ratios_name(pr);
	return status;
}
