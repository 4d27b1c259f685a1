/* cli/counting.c — --count after the measurement: the counts of the run's
 * one cell, or of every cell of a --compare or --anatomy plan and the
 * anatomy's counted floors (orchestrate/count.h), each count that could not
 * be taken said in one line; the run goes on to its report. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/interrupt.h"
#include "base/selfpath.h"
#include "base/status.h"
#include "cli/cli.h"
#include "orchestrate/count.h"
#include "orchestrate/plan.h"
#include "orchestrate/progress.h"

static int run_count_single(const struct options *o, struct doc *d)
{
	char exe[PATH_MAX], err[1024];
	struct counts_rec *r;
	struct progress line;
	int status = EXIT_OK;

	if (d->ncells != 1) {
		fprintf(stderr, "%s: --count: the run measured %zu cells, not one: nothing was counted\n", prog,
			d->ncells);
		return EXIT_RUN_FAILED;
	}
	if (self_path(exe, sizeof(exe)) != 0) {
		fprintf(stderr, "%s: --count: cannot find this executable: nothing was counted\n", prog);
		return EXIT_RUN_FAILED;
	}
	r = &d->cells[0].counts;
	memset(r, 0, sizeof(*r));
	d->cells[0].has_counts = 1;
	interrupt_doing("the counts, after the measurement");
	progress_begin(&line, o, 0);
	progress_show(&line, "counting instructions (valgrind)", "");
	if ((o->count & COUNT_INSTRUCTIONS) && count_instructions(o, exe, r, err, sizeof(err)) != EXIT_OK) {
		fprintf(stderr, "%s: %s\n", prog, err);
		status = EXIT_RUN_FAILED;
	}
	progress_show(&line, "counting system calls (perf stat)", "");
	if ((o->count & COUNT_SYSCALLS) && count_syscalls(o, exe, r, err, sizeof(err)) != EXIT_OK) {
		fprintf(stderr, "%s: %s\n", prog, err);
		status = EXIT_RUN_FAILED;
	}
	progress_end(&line);
	return status;
}

/* What a plan's count has failed at: a count that failed once is not
 * tried again in the cells after (a missing tool would fail them all). */
struct plan_count {
	const struct options *o;
	int failed[2]; /* instructions, system calls */
	struct progress line;
	int done, total; /* cells counted, to count */
};

/* The counts asked of one cell (floor: 0, or 1 + the floor's kind), named
 * what in the messages. EXIT_OK, or EXIT_RUN_FAILED once said. */
static int count_one(struct plan_count *pc, const struct variant *v, int floor, const char *what, struct counts_rec *r)
{
	char err[1024], doing[PATH_MAX + 96];
	int status = EXIT_OK;

	memset(r, 0, sizeof(*r));
	count_lengths(pc->o, r); /* a cell's whose one count is left out too */
	snprintf(doing, sizeof(doing), "the counts of %s, after the measurement", what);
	interrupt_doing(doing);
	snprintf(doing, sizeof(doing), "counting %d of %d: %s", ++pc->done, pc->total, what);
	progress_show(&pc->line, doing, "");
	if (pc->o->count & COUNT_INSTRUCTIONS) {
		if (v->async && !floor) {
			snprintf(r->instructions_not_counted, sizeof(r->instructions_not_counted), "%s",
				 count_async_reason());
		} else if (pc->failed[0]) {
			status = EXIT_RUN_FAILED;
		} else if (count_variant_instructions(pc->o, v, floor, r, err, sizeof(err)) != EXIT_OK) {
			fprintf(stderr, "%s: %s: %s (nor in the cells after it)\n", prog, what, err);
			pc->failed[0] = 1;
			status = EXIT_RUN_FAILED;
		}
	}
	if (pc->o->count & COUNT_SYSCALLS) {
		if (pc->failed[1]) {
			status = EXIT_RUN_FAILED;
		} else if (count_variant_syscalls(pc->o, v, floor, r, err, sizeof(err)) != EXIT_OK) {
			fprintf(stderr, "%s: %s: %s (nor in the cells after it)\n", prog, what, err);
			pc->failed[1] = 1;
			status = EXIT_RUN_FAILED;
		}
	}
	return status;
}

/* --compare and --anatomy: the plan built again as the measurement built
 * it, its variant i the document's cell i; then the anatomy's floors, run
 * by the archive build in its first (sync) variant. */
static int run_count_plan(const struct options *o, struct doc *d)
{
	struct plan *p = calloc(1, sizeof(*p));
	struct plan_count pc = { .o = o };
	char err[1024];
	int status = EXIT_OK;

	if (p == NULL) {
		fprintf(stderr, "%s: --count: out of memory: nothing was counted\n", prog);
		return EXIT_RUN_FAILED;
	}
	if (plan_build(p, o, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: --count: %s: nothing was counted\n", prog, err);
		plan_free(p);
		free(p);
		return EXIT_RUN_FAILED;
	}
	if (p->nself != (int)d->ncells) {
		fprintf(stderr, "%s: --count: the run measured %zu cells, its plan has %d: nothing was counted\n", prog,
			d->ncells, p->nself);
		plan_free(p);
		free(p);
		return EXIT_RUN_FAILED;
	}
	pc.total = p->nself + (o->kind == RUN_ANATOMY ? FLOOR_COUNTED : 0);
	progress_begin(&pc.line, o, 0);
	for (int i = 0; i < p->nself; i++) {
		d->cells[i].has_counts = 1;
		status |= count_one(&pc, &p->v[i], 0, d->cells[i].name, &d->cells[i].counts);
	}
	if (o->kind == RUN_ANATOMY) {
		d->has_floor_counts = 1;
		for (int k = 0; k < FLOOR_COUNTED; k++)
			status |= count_one(&pc, &p->v[0], 1 + k, floor_kind_name((enum floor_kind)k),
					    &d->floor_counts[k]);
	}
	progress_end(&pc.line);
	plan_free(p);
	free(p);
	return status ? EXIT_RUN_FAILED : EXIT_OK;
}

int run_count(const struct options *o, struct doc *d)
{
	if (o->count == 0)
		return EXIT_OK;
	if (o->kind == RUN_COMPARE || o->kind == RUN_ANATOMY)
		return run_count_plan(o, d);
	return run_count_single(o, d);
}
