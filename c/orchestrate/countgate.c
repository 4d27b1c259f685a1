/* orchestrate/countgate.c — see countgate.h. */
#include "orchestrate/countgate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/interrupt.h"
#include "base/status.h"
#include "model/codec.h"
#include "model/codec_identity.h"
#include "orchestrate/count.h"
#include "orchestrate/launch.h"
#include "orchestrate/plan.h"
#include "orchestrate/progress.h"

/* The probe launches' -n at most, and their argument lists' room. */
#define COUNT_GATE_PROBE_N     1000
#define COUNT_GATE_PROBE_ARGS  160
#define COUNT_GATE_PROBE_STORE 65536

/* One side of the gate: its executable, its options, its counts, and the
 * document of its first counted run (what was counted). */
struct side {
	const char *exe, *label;
	struct options o;
	struct counts_rec r;
	char *first;
};

/* The cell the side's first run described, without its launches, with
 * the side's counts, as d's one cell. 0, or -1 with why. */
static int side_cell(struct side *s, struct doc *d, char *err, size_t errlen)
{
	struct doc child;
	struct cell_rec *c;
	char why[512];

	memset(&child, 0, sizeof(child));
	if (s->first == NULL || doc_loads(&child, s->first, strlen(s->first), why, sizeof(why)) != 0 ||
	    child.ncells != 1) {
		snprintf(err, errlen, "--count instructions: %s printed no document of one cell under valgrind",
			 s->exe);
		doc_free(&child);
		return -1;
	}
	if ((c = model_append((void **)&d->cells, &d->ncells, sizeof(*d->cells))) == NULL) {
		snprintf(err, errlen, "out of memory");
		doc_free(&child);
		return -1;
	}
	/* the cell is moved, with its one launch: the first counted run,
	 * which the documents need (what was measured, the mode in effect),
	 * though its times were taken under valgrind and say nothing */
	*c = child.cells[0];
	c->has_counts = 1;
	c->counts = s->r;
	child.cells[0].launches = NULL;
	child.cells[0].nlaunches = 0;
	doc_free(&child);
	return 0;
}

/* One launch of side s (is_base: the --against build), not counted, at
 * -n COUNT_GATE_PROBE_N at most, within a launch's bound: its document's
 * identity (malloc'd) into *id. EXIT_OK; or the launch's failure (exit 2
 * when the side refused its arguments, 3 else: no document, a crash, a
 * hang), or 3 when it measured other than one cell, with one line. */
static int side_probe(const struct side *s, int is_base, char **id, char *err, size_t errlen)
{
	struct options co = s->o;
	struct variant *v = calloc(1, sizeof(*v));
	char *argv[COUNT_GATE_PROBE_ARGS], *store = malloc(COUNT_GATE_PROBE_STORE), what[256], why[1024] = "";
	struct doc d;
	int status = EXIT_OK;

	*id = NULL;
	memset(&d, 0, sizeof(d));
	if (v == NULL || store == NULL) {
		free(v), free(store);
		snprintf(err, errlen, "out of memory");
		return EXIT_RUN_FAILED;
	}
	snprintf(v->exe, sizeof(v->exe), "%s", s->exe);
	v->async = co.async;
	v->work = -1;
	v->host_calls = -1;
	v->base = is_base;
	co.count = 0;
	co.floors = 0;
	co.async_extra_ns = 0;
	if (co.n > COUNT_GATE_PROBE_N && co.batches <= COUNT_GATE_PROBE_N)
		co.n = COUNT_GATE_PROBE_N;
	snprintf(what, sizeof(what), "the counting gate: a launch of %s (%s), not counted, before the counts", s->exe,
		 s->label);
	interrupt_doing(what);
	if (child_args(&co, v, argv, COUNT_GATE_PROBE_ARGS, store, COUNT_GATE_PROBE_STORE) < 0) {
		snprintf(why, sizeof(why), "arguments too long for a launch");
		status = EXIT_RUN_FAILED;
	} else if ((status = launch_document_within(argv, plan_bound_ms(&co, 1), &d, id, why, sizeof(why))) ==
		   EXIT_CHILD_STALLED) {
		status = EXIT_RUN_FAILED;
	} else if (status == EXIT_OK && (d.ncells != 1 || *id == NULL)) {
		snprintf(why, sizeof(why), "its launch measured %zu cells, not the one cell the gate counts", d.ncells);
		status = EXIT_RUN_FAILED;
	}
	if (status != EXIT_OK) {
		snprintf(err, errlen, "the counting gate: %s (%s): %s: nothing was counted", s->label, s->exe, why);
		free(*id);
		*id = NULL;
	}
	doc_free(&d);
	free(v);
	free(store);
	return status;
}

/* Before anything is counted (each build's count takes tens of seconds
 * under valgrind): one short launch of each side, the --against build's
 * first, which must print a document of one cell, and the same cell as
 * this build's (model/codec_identity.h: the same options and cells, their
 * lib= part aside, as the paired gate has it). So /bin/true, a script that
 * prints garbage, or a build that measures another cell is found in a
 * second, not after the counts. EXIT_OK, or the status with one line. */
static int probe_sides(const struct side *sides, char *err, size_t errlen)
{
	char *id[2] = { NULL, NULL }, diff_cell[MODEL_NAME_MAX], what[400];
	int status = side_probe(&sides[1], 1, &id[1], err, errlen);

	if (status == EXIT_OK)
		status = side_probe(&sides[0], 0, &id[0], err, errlen);
	if (status == EXIT_OK && identity_diff(id[0], id[1], diff_cell, sizeof(diff_cell), what, sizeof(what))) {
		snprintf(err, errlen,
			 "the counting gate: --against (%s) measures another cell than this build: the cell %s, then "
			 "%s: nothing was counted",
			 sides[1].exe, diff_cell, what);
		status = EXIT_RUN_FAILED;
	}
	free(id[0]);
	free(id[1]);
	return status;
}

/* One pair of counted runs of side s; the first run's document kept once. */
static int side_pair(struct side *s, int long_first, char *err, size_t errlen)
{
	char what[256], why[2048];
	const char *base = strrchr(s->exe, '/');

	snprintf(what, sizeof(what), "the counting gate: pair %zu of %s (%s)", s->r.instructions.npairs + 1,
		 base ? base + 1 : s->exe, s->label);
	interrupt_doing(what);
	if (count_instructions_pair(&s->o, s->exe, &s->r, long_first, s->first ? NULL : &s->first, why, sizeof(why)) ==
	    EXIT_OK)
		return EXIT_OK;
	/* the side named: which build failed its count */
	snprintf(err, errlen, "the counting gate: %s (%s): %s", s->label, s->exe, why);
	return EXIT_RUN_FAILED;
}

int count_gate_run(const struct options *o, const char *self, const char *other, const struct machine_rec *m,
		   struct doc *d, struct doc *base, char *err, size_t errlen)
{
	struct side sides[2];
	struct progress line;
	uint64_t start = now_ns(), round_ns = 0;
	size_t want = o->time_s > 0 ? COUNT_PAIRS_MAX : COUNT_GATE_PAIRS;
	int status = EXIT_OK;

	memset(sides, 0, sizeof(sides));
	sides[0].exe = self;
	sides[0].label = "this build";
	sides[1].exe = other;
	sides[1].label = "--against";
	for (int k = 0; k < 2; k++) {
		sides[k].o = *o;
		sides[k].o.count = 0;
		count_lengths(&sides[k].o, &sides[k].r);
		sides[k].r.pairs = (uint32_t)want;
	}
	/* injected slowdowns reach the build under test only */
	sides[1].o.slowdown_pct = 0;
	sides[1].o.extra_ns = 0;
	sides[1].o.async_extra_ns = 0;
	doc_begin(d, m, o);
	doc_begin(base, m, o);
	progress_begin(&line, o, o->time_s);
	status = probe_sides(sides, err, errlen);
	for (size_t p = 0; status == EXIT_OK && p < want; p++) {
		uint64_t t0 = now_ns();
		double spent = (double)(t0 - start) / 1e9;
		char done[64];
		/* a --time budget: the next round only when one as long as the
		 * last still fits */
		if (o->time_s > 0 && p > 0 && spent + (double)round_ns / 1e9 > o->time_s)
			break;
		snprintf(done, sizeof(done), "counted pairs of runs: %zu of %zu a build", p, want);
		progress_show(&line, done, "");
		/* the builds alternate which goes first, and so do the lengths */
		for (int k = 0; status == EXIT_OK && k < 2; k++)
			status = side_pair(&sides[(p + (size_t)k) % 2], (int)((p / 2) % 2), err, errlen);
		round_ns = now_ns() - t0;
	}
	progress_end(&line);
	for (int k = 0; k < 2; k++)
		sides[k].r.pairs = (uint32_t)sides[k].r.instructions.npairs;
	if (status == EXIT_OK &&
	    (side_cell(&sides[0], d, err, errlen) != 0 || side_cell(&sides[1], base, err, errlen) != 0))
		status = EXIT_RUN_FAILED;
	/* the same cell but for its lib= part (bench against bench-shared, as
	 * the probes found): judged as one, as the paired gate pairs them by
	 * position, under this build's name */
	if (status == EXIT_OK)
		snprintf(base->cells[0].name, sizeof(base->cells[0].name), "%s", d->cells[0].name);
	free(sides[0].first);
	free(sides[1].first);
	return status;
}
