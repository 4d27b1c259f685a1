/* model/model.c — small lookups over the model. */
#include "model/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"

void doc_begin(struct doc *d, const struct machine_rec *m, const struct options *o)
{
	memset(d, 0, sizeof(*d));
	d->schema_version = SCHEMA_VERSION;
	if (m)
		d->machine = *m;
	d->options = *o;
	snprintf(d->source.commit, sizeof(d->source.commit), "%s", o->commit ? o->commit : "");
	snprintf(d->source.commit_time, sizeof(d->source.commit_time), "%s", o->commit_time ? o->commit_time : "");
	snprintf(d->source.label, sizeof(d->source.label), "%s", o->label ? o->label : "");
	d->has_source = o->commit || o->commit_time || o->label;
}

void *model_append(void **items, size_t *n, size_t size)
{
	char *a = realloc(*items, (*n + 1) * size);
	if (a == NULL)
		return NULL;
	*items = a;
	memset(a + *n * size, 0, size);
	return a + (*n)++ * size;
}

struct cell_rec *doc_find_cell(const struct doc *d, const char *name)
{
	for (size_t i = 0; i < d->ncells; i++)
		if (strcmp(d->cells[i].name, name) == 0)
			return &d->cells[i];
	return NULL;
}

const struct ratio_rec *doc_find_ratio(const struct doc *d, const char *name)
{
	for (size_t i = 0; i < d->nratios; i++)
		if (strcmp(d->ratios[i].name, name) == 0)
			return &d->ratios[i];
	return NULL;
}

const struct pair_ratio_rec *paired_find_ratio(const struct paired_rec *p, const char *name)
{
	for (size_t k = 0; k < p->nratios; k++)
		if (!p->ratios[k].judged && strcmp(p->ratios[k].name, name) == 0)
			return &p->ratios[k];
	return NULL;
}

double doc_ci_level(const struct doc *d)
{
	return isfinite(d->ci_level) && d->ci_level > 0 ? d->ci_level : 0.95;
}

struct cell_rec *doc_find_work(const struct doc *d, const char *lib, const char *mode, const char *scenario,
			       enum work work, int minimal)
{
	char w[32];

	snprintf(w, sizeof(w), "/work=%s/", work_name(work));
	for (size_t i = 0; i < d->ncells; i++) {
		struct cell_rec *c = &d->cells[i];
		if (strcmp(c->scenario, scenario) == 0 && strcmp(c->lib, lib) == 0 && strcmp(c->requested, mode) == 0 &&
		    strstr(c->name, w) != NULL && (strstr(c->name, "/driver=") != NULL) == minimal)
			return c;
	}
	return NULL;
}

struct cell_rec *doc_find_mode(const struct doc *d, const char *lib, const char *mode, const char *scenario)
{
	return doc_find_work(d, lib, mode, scenario, d->options.work, 0);
}

struct cell_rec *doc_find_beside(const struct doc *d, const char *mode, const char *role)
{
	char tag[32];

	snprintf(tag, sizeof(tag), "/with=%s:", role ? role : "");
	for (size_t i = 0; i < d->ncells; i++) {
		struct cell_rec *c = &d->cells[i];
		const char *with = strstr(c->name, "/with=");
		if (strcmp(c->scenario, "extract") != 0 || strcmp(c->requested, mode) != 0)
			continue;
		if (role ? with && strncmp(with, tag, strlen(tag)) == 0 : with == NULL)
			return c;
	}
	return NULL;
}

int cell_ran_as_asked(const struct cell_rec *c)
{
	return strcmp(c->requested, c->in_effect) == 0;
}

const char *cell_unit_noun(const struct cell_rec *c)
{
	return strcmp(c->scenario, "extract") == 0 ? "extraction" : "iteration";
}

uint64_t launch_requests(const struct launch_rec *l)
{
	uint64_t n = 0;
	for (size_t i = 0; i < l->ncallers; i++)
		n += l->callers[i].extractions;
	return n;
}

int paired_generation_medians(const struct paired_rec *pr, const double *v, size_t n, double *x)
{
	size_t at = 0;

	for (size_t g = 0; g < pr->ngenerations; g++) {
		size_t k = (size_t)pr->generation_rounds[g];
		if (at + k > n)
			k = n > at ? n - at : 0;
		x[g] = stats_median(v + at, k);
		at += k;
	}
	return 0;
}

int paired_generation_ratios(const struct paired_rec *pr, const struct pair_ratio_rec *r, const double *num,
			     const double *den, double *x)
{
	size_t n = pr->cells[r->num].nblocks;
	double *round;
	int rc;

	if (pr->cells[r->den].nblocks < n)
		n = pr->cells[r->den].nblocks;
	if ((round = malloc((n + 1) * sizeof(double))) == NULL)
		return -1;
	for (size_t i = 0; i < n; i++)
		round[i] = num[i] / den[i];
	rc = paired_generation_medians(pr, round, n, x);
	free(round);
	return rc;
}

const char *decision_key_name(enum decision_key k)
{
	static const char *const keys[DECISION_KEYS] = {
		"async", "link", "language", "pooling", "malloc", "toolchain"
	};
	return (unsigned)k < DECISION_KEYS ? keys[k] : "?";
}

const char *decision_question(enum decision_key k)
{
	static const char *const questions[DECISION_KEYS] = {
		"Turn async on or leave it off?",	   "c-archive or c-shared?", "Go or C for the plugin?",
		"Pool plugin instances or allocate them?", "Which malloc?",	     "Which Go toolchain?",
	};
	return (unsigned)k < DECISION_KEYS ? questions[k] : "?";
}

int doc_set_command(struct doc *d, int argc, const char *const *argv)
{
	char **c = calloc((size_t)(argc > 0 ? argc : 0) + 1, sizeof(*c));

	if (c == NULL)
		return -1;
	for (int i = 0; i < argc; i++)
		if ((c[i] = strdup(argv[i] ? argv[i] : "")) == NULL) {
			while (i-- > 0)
				free(c[i]);
			free(c);
			return -1;
		}
	for (size_t i = 0; i < d->ncommand; i++)
		free(d->command[i]);
	free(d->command);
	d->command = c;
	d->ncommand = argc > 0 ? (size_t)argc : 0;
	return 0;
}

const char *floor_kind_key(enum floor_kind k)
{
	static const char *const keys[FLOOR_KINDS] = { "c_call",   "go_raw",	"handoff",
						       "ref_bare", "ref_event", "ref_result" };
	return (unsigned)k < FLOOR_KINDS ? keys[k] : "?";
}

const char *floor_kind_name(enum floor_kind k)
{
	static const char *const names[FLOOR_KINDS] = {
		"the C call",
		"the raw C->Go call",
		"the cache-line round trip",
		"the reference handoff (bare)",
		"the reference handoff +event",
		"the reference handoff +result",
	};
	return (unsigned)k < FLOOR_KINDS ? names[k] : "?";
}

const char *change_sentence(const struct change_rec *r, char *buf, size_t len)
{
	size_t n = r->n < r->base_n ? r->n : r->base_n;

	if (r->min_n && n < r->min_n)
		snprintf(buf, len, "Too few %s for a verdict (%zu of %zu).", r->metric[0] ? "pairs" : "generations", n,
			 r->min_n);
	else
		snprintf(buf, len, "%s", verdict_sentence(r->ch.verdict));
	return buf;
}

const char *comparison_verdict_name(const struct comparison_rec *c)
{
	return c->regressed ? "regressed" : c->inconclusive ? "inconclusive" : "no_regression";
}

int comparison_status(const struct comparison_rec *c)
{
	if (c->regressed)
		return EXIT_REGRESSION;
	if (c->inconclusive && !c->inconclusive_pass)
		return EXIT_INCONCLUSIVE;
	return EXIT_OK;
}

/* The first gated change that could not tell. */
static const struct change_rec *undecided(const struct comparison_rec *c)
{
	for (size_t i = 0; i < c->nchanges; i++)
		if (c->changes[i].gated && !verdict_passes(c->changes[i].ch.verdict) &&
		    c->changes[i].ch.verdict != VERDICT_REGRESSED)
			return &c->changes[i];
	return NULL;
}

const char *comparison_sentence(const struct comparison_rec *c, char *buf, size_t len)
{
	const struct change_rec *u = undecided(c);
	char why[MODEL_TEXT_MAX + MODEL_NAME_MAX + 64], more[96] = "";

	if (c->regressed || !c->inconclusive) {
		snprintf(buf, len, "%s", c->regressed ? "regression detected" : "no regression");
		return buf;
	}
	if (c->undefined_because[0])
		snprintf(why, sizeof(why), "%s", c->undefined_because);
	else if (u != NULL)
		snprintf(why, sizeof(why), "the interval of %s reaches %+g%% without lying above it", u->scenario,
			 100.0 * c->threshold);
	else
		snprintf(why, sizeof(why), "no change could be judged");
	if (isfinite(c->need_factor) && isfinite(c->need_s))
		snprintf(more, sizeof(more), "; about %.1fx the samples (~%.0f s more) would tell", c->need_factor,
			 c->need_s);
	else if (isfinite(c->need_factor))
		snprintf(more, sizeof(more), "; about %.1fx the samples would tell", c->need_factor);
	else if (u != NULL && !c->undefined_because[0])
		snprintf(more, sizeof(more), "; the change lies on the threshold, no length of run would tell");
	snprintf(buf, len, "inconclusive, %s%s", why, more);
	return buf;
}

double paired_judged_level(const struct paired_rec *p)
{
	size_t judged = 0;

	for (size_t k = 0; k < p->nratios; k++)
		judged += p->ratios[k].judged != 0;
	if (!p->has_sequential || judged == 0 || !(p->verdict_alpha > 0))
		return 0.95;
	return 1.0 - p->verdict_alpha / (double)judged;
}

const char *paired_sequential_text(const struct paired_rec *p, char *buf, size_t len)
{
	if (!p->has_sequential) {
		snprintf(buf, len, "%s", "");
		return buf;
	}
	snprintf(buf, len,
		 "sequential: verdict at look %u of %u planned (%zu generations), alpha %.4f of %.2f spent there, "
		 "Bonferroni over looks and judged ratios; judged intervals at %.2f%%",
		 p->seq.taken, p->seq.nlooks, p->ngenerations, p->verdict_alpha, p->seq.alpha,
		 100.0 * paired_judged_level(p));
	return buf;
}
