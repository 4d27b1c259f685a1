/* analyse/ratios.c — see ratios.h. */
#include "analyse/ratios.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/options.h"
#include "stats/signrank.h"

static const char *exe_base(const struct ratio_cell *c)
{
	const char *slash = strrchr(c->exe, '/');
	return slash ? slash + 1 : c->exe;
}

/* The cell of executable base in mode async with work (-1: the options'). */
static int find_work(const struct ratio_cell *cells, int from, int to, const char *base, int async, int work)
{
	for (int i = from; i < to; i++)
		if (strcmp(exe_base(&cells[i]), base) == 0 && cells[i].async == async && cells[i].work == work)
			return i;
	return -1;
}

static int find(const struct ratio_cell *cells, int from, int to, const char *base, int async)
{
	return find_work(cells, from, to, base, async, -1);
}

static int add(struct paired_rec *pr, const char *name, int num, int den, int judged)
{
	struct pair_ratio_rec *r;

	if (num < 0 || den < 0)
		return 0;
	if ((r = model_append((void **)&pr->ratios, &pr->nratios, sizeof(*pr->ratios))) == NULL)
		return -1;
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->num = num;
	r->den = den;
	r->judged = judged;
	return 0;
}

int ratios_define(const struct ratio_cell *cells, int nself, int ncells, const struct options *o, struct paired_rec *pr)
{
	static const char *const modes[] = { "sync", "async" };
	char name[80];
	int rc = 0;

	if (o->kind == RUN_COMPARE) {
		static const char *const exes[] = { "bench", "bench-shared" }, *const libs[] = { "archive", "shared" };
		for (int l = 0; l < 2; l++) {
			snprintf(name, sizeof(name), "async/sync lib=%s wall", libs[l]);
			rc |= add(pr, name, find(cells, 0, nself, exes[l], 1), find(cells, 0, nself, exes[l], 0), 0);
		}
		for (int m = 0; m < 2; m++) {
			snprintf(name, sizeof(name), "shared/archive mode=%s wall", modes[m]);
			rc |= add(pr, name, find(cells, 0, nself, "bench-shared", m), find(cells, 0, nself, "bench", m),
				  0);
		}
		for (int m = 0; m < 2; m++) {
			snprintf(name, sizeof(name), "go %s/c lib=archive wall", modes[m]);
			rc |= add(pr, name, find(cells, 0, nself, "bench", m), find(cells, 0, nself, "bench-host", 0),
				  0);
		}
		/* async in round trips: over the C handoff's bare cell */
		for (int l = 0; l < 2; l++) {
			snprintf(name, sizeof(name), "async/roundtrip lib=%s wall", libs[l]);
			rc |= add(pr, name, find(cells, 0, nself, exes[l], 1),
				  find_work(cells, 0, nself, "bench-host", 1, WORK_BARE), 0);
		}
		/* the harness check: bench's bare loop over the textbook loop */
		for (int m = 0; m < 2; m++) {
			snprintf(name, sizeof(name), "bench/textbook mode=%s wall", modes[m]);
			rc |= add(pr, name, find_work(cells, 0, nself, "bench", m, WORK_BARE),
				  find(cells, 0, nself, "bench-textbook", m), 0);
		}
	}
	/* your plugin's two configurations: the async cell over the sync one */
	if (o->kind == RUN_PLUGIN_COMPARE && nself == 2 && o->nlibs == 1) {
		const char *slash = strrchr(o->libs[0], '/');
		snprintf(name, sizeof(name), "async/sync plugin=%s wall", slash ? slash + 1 : o->libs[0]);
		rc |= add(pr, name, cells[1].async ? 1 : 0, cells[1].async ? 0 : 1, 0);
	}
	/* --host-calls both: a batched cell right after its per-field one */
	for (int i = 0; o->kind == RUN_PER_EVENT && i + 1 < nself; i++)
		if (cells[i].host_calls == HOST_CALLS_PER_FIELD && cells[i + 1].host_calls == HOST_CALLS_BATCHED &&
		    cells[i].async == cells[i + 1].async && strcmp(cells[i].exe, cells[i + 1].exe) == 0) {
			snprintf(name, sizeof(name), "batched/per-field %s %s wall", exe_base(&cells[i]),
				 modes[cells[i].async]);
			rc |= add(pr, name, i + 1, i, 0);
		}
	/* --against: the base's cells come in the same order as this build's */
	for (int i = 0; o->base == BASE_BUILD && i < nself && nself + i < ncells; i++) {
		snprintf(name, sizeof(name), "this/base %s %s", exe_base(&cells[i]), modes[cells[i].async]);
		rc |= add(pr, name, i, nself + i, 1);
	}
	return rc;
}

void ratios_name(struct paired_rec *pr)
{
	for (size_t k = 0; k < pr->nratios; k++)
		if (pr->ratios[k].judged)
			snprintf(pr->ratios[k].name, sizeof(pr->ratios[k].name), "%s",
				 pr->cells[pr->ratios[k].num].name);
}

double ratios_half_width(const struct paired_rec *pr, const struct pair_ratio_rec *r)
{
	double *x = malloc((pr->ngenerations + 1) * sizeof(double)), hw = NAN;
	struct signrank_ci ci;

	if (x == NULL)
		return NAN;
	if (paired_generation_ratios(pr, r, pr->cells[r->num].block_ns, pr->cells[r->den].block_ns, x) == 0 &&
	    signrank_ratio_interval(x, pr->ngenerations, 0.95, &ci) == 0 && isfinite(ci.lo))
		hw = 100.0 * (ci.hi - ci.lo) / 2.0 / ci.point;
	free(x);
	return hw;
}

int ratios_precise(const struct paired_rec *pr)
{
	for (size_t k = 0; k < pr->nratios; k++) {
		double hw = ratios_half_width(pr, &pr->ratios[k]);
		if (!(hw <= pr->precision_pct))
			return 0;
	}
	return pr->nratios > 0;
}
