/* model/codec.c — see codec.h. Each record has one function that lists its
 * fields once (model/codec_fields.h: a direction says whether that list
 * writes, reads or frees); here the records of cells, comparisons,
 * analyses and paired runs, and the document; a launch's records are in
 * model/codec_launch.c, the options record in model/codec_options.c. */
#include "model/codec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/codec_counts.h"
#include "model/codec_fields.h"
#include "model/codec_launch.h"
#include "model/codec_options.h"
#include "model/codec_source.h"

static void outlier_fields(struct obj *o, void *rec)
{
	stats_summary *s = rec;
	uint64_t v[4] = { s->low_severe, s->low_mild, s->high_mild, s->high_severe };
	f_u64(o, "low_severe", &v[0]);
	f_u64(o, "low_mild", &v[1]);
	f_u64(o, "high_mild", &v[2]);
	f_u64(o, "high_severe", &v[3]);
	s->low_severe = v[0], s->low_mild = v[1], s->high_mild = v[2], s->high_severe = v[3];
}

static void summary_fields(struct obj *o, void *rec)
{
	struct summary_rec *r = rec;
	stats_summary *s = &r->s;
	uint64_t n = s->n;

	f_str(o, "unit", r->unit);
	f_u64(o, "n", &n);
	s->n = n;
	f_num(o, "median", &s->median);
	f_num(o, "mean", &s->mean);
	f_num(o, "stddev", &s->stddev);
	f_num(o, "min", &s->min);
	f_num(o, "max", &s->max);
	f_num(o, "q1", &s->q1);
	f_num(o, "q3", &s->q3);
	f_num(o, "ci_low", &s->ci_lo);
	f_num(o, "ci_high", &s->ci_hi);
	f_num(o, "ci_level", &s->ci_level);
	f_sub(o, "outliers", outlier_fields, s, NULL);
}

/* A counted change's samples (fixed arrays of COUNT_PAIRS_MAX), n of them
 * written; read back within the bound, which n must agree with. */
static void change_samples(struct obj *o, const char *key, double *fixed, size_t n)
{
	double *x = o->c->dir == WRITE ? fixed : NULL;
	size_t k = o->c->dir == WRITE ? n : 0;

	f_nums(o, key, &x, &k);
	if (o->c->dir != READ)
		return;
	if (k > COUNT_PAIRS_MAX || k != n)
		codec_failf(o->c, "%s: %zu samples, not the %zu of the change (at most %d)", key, k, n,
			    COUNT_PAIRS_MAX);
	else if (k)
		memcpy(fixed, x, k * sizeof(*x));
	free(x);
}

static void change_fields(struct obj *o, void *rec)
{
	struct change_rec *r = rec;
	uint64_t nb = r->base_n, n = r->n;
	char verdict[24], sentence[128];
	int has_why = r->not_gated_because[0] != '\0', has_metric = r->metric[0] != '\0';

	snprintf(verdict, sizeof(verdict), "%s", verdict_name(r->ch.verdict));
	change_sentence(r, sentence, sizeof(sentence));
	f_str(o, "scenario", r->scenario);
	f_str(o, "kind", r->kind);
	f_bool(o, "gated", &r->gated);
	f_num(o, "low", &r->ch.lo);
	f_num(o, "point", &r->ch.point);
	f_num(o, "high", &r->ch.hi);
	f_num(o, "p", &r->ch.p);
	f_num(o, "alpha", &r->ch.alpha);
	f_u64(o, "base_n", &nb);
	f_u64(o, "n", &n);
	r->base_n = nb, r->n = n;
	f_str(o, "verdict", verdict);
	f_str(o, "sentence", sentence); /* derived from the verdict */
	f_str(o, "line", r->line);
	if (f_opt(o, "not_gated_because", &has_why))
		f_str(o, "not_gated_because", r->not_gated_because);
	if (f_opt(o, "metric", &has_metric)) {
		f_str(o, "metric", r->metric);
		change_samples(o, "base_samples", r->base_samples, r->base_n);
		change_samples(o, "samples", r->samples, r->n);
	}
	if (o->c->dir == READ && !o->c->bad && verdict_parse(verdict, &r->ch.verdict) != 0)
		codec_wrong(o, "verdict", "a verdict name");
}

static void allocator_fields(struct obj *o, void *rec)
{
	struct cell_rec *c = rec;
	f_str(o, "name", c->allocator);
	f_str(o, "path", c->allocator_path);
}

static void mode_fields(struct obj *o, void *rec)
{
	struct cell_rec *c = rec;
	int has_by = 0, has_why = 0;
	f_str(o, "requested", c->requested);
	f_str(o, "in_effect", c->in_effect);
	f_bool(o, "verified", &c->mode_verified);
	f_strn(o, "reason", c->reason);
	if (o->c->dir == WRITE) {
		has_by = c->verified_by[0] != '\0';
		has_why = c->unverifiable[0] != '\0';
	}
	if (f_opt(o, "verified_by", &has_by))
		f_str(o, "verified_by", c->verified_by);
	if (f_opt(o, "unverifiable", &has_why))
		f_str(o, "unverifiable", c->unverifiable);
	if (f_opt(o, "set_by_plugin_config", &c->by_plugin_config))
		f_bool(o, "set_by_plugin_config", &c->by_plugin_config);
}

static void cell_stats_fields(struct obj *o, struct cell_stats *s)
{
	f_sub(o, "statistics", summary_fields, &s->time, NULL);
	f_nums(o, "samples", &s->samples, &s->nsamples);
	f_sub(o, "cpu_statistics", summary_fields, &s->cpu, NULL);
	f_nums(o, "cpu_samples", &s->cpu_samples, &s->ncpu_samples);
	f_num(o, "cold_ns_median", &s->cold_ns_median);
	f_u64(o, "stalled_batches", &s->stalled_batches);
	f_u64(o, "batches", &s->batches);
	f_num(o, "slowest_batch_ns_per_extraction", &s->slowest_batch_ns);
	f_num(o, "other_cpu_ns_per_extraction_median", &s->other_cpu_ns_median);
	f_num(o, "switches_per_1000_median", &s->switches_per_1000_median);
	f_num(o, "steal_ns_median", &s->steal_ns_median);
	f_num(o, "go_allocs_per_extraction", &s->go_allocs_per_extraction);
	f_num(o, "c_mallocs_per_iteration", &s->c_mallocs_per_iteration);
	f_num(o, "c_frees_per_iteration", &s->c_frees_per_iteration);
	f_num(o, "go_alloc_bytes_per_extraction", &s->go_alloc_bytes_per_extraction);
	f_sub(o, "floors", codec_cell_floors_fields, &s->floors, &s->has_floors);
	f_str(o, "key", s->key);
}

static void cell_fields(struct obj *o, void *rec)
{
	struct cell_rec *c = rec;
	int rerun = c->stalled_launches_rerun >= 0;

	f_str(o, "name", c->name);
	f_str(o, "scenario", c->scenario);
	f_sub(o, "allocator", allocator_fields, c, NULL);
	f_str(o, "lib", c->lib);
	f_str(o, "executable", c->executable);
	f_str(o, "go_version", c->go_version);
	f_str(o, "sdk_version", c->sdk_version);
	f_int(o, "gomaxprocs", &c->gomaxprocs);
	f_int(o, "max_handle", &c->max_handle);
	f_sub(o, "mode", mode_fields, c, NULL);
	f_list(o, "launches", &c->launches, &c->nlaunches, codec_launch_fields);
	if (f_opt(o, "stalled_launches_rerun", &rerun))
		f_i64n(o, "stalled_launches_rerun", &c->stalled_launches_rerun);
	else if (o->c->dir == READ)
		c->stalled_launches_rerun = -1;
	if (o->c->dir == READ)
		c->analysed = json_object_get(o->j, "statistics") != NULL;
	if (c->analysed)
		cell_stats_fields(o, &c->st);
	if (f_opt(o, "vs_glibc", &c->has_vs_glibc))
		f_sub(o, "vs_glibc", change_fields, &c->vs_glibc, NULL);
	if (f_opt(o, "latency", &c->has_latency))
		f_sub(o, "latency", codec_latency_fields, &c->latency, NULL);
	if (f_opt(o, "counts", &c->has_counts))
		f_sub(o, "counts", codec_counts_fields, &c->counts, NULL);
}

static void ratio_fields(struct obj *o, void *rec)
{
	struct ratio_rec *r = rec;
	f_str(o, "name", r->name);
	f_str(o, "numerator", r->numerator);
	f_str(o, "denominator", r->denominator);
	f_str(o, "metric", r->metric);
	f_sub(o, "statistics", summary_fields, &r->st, NULL);
	f_nums(o, "samples", &r->samples, &r->nsamples);
}

/* The run's verdict in one word, and the minimum it needed: "regressed",
 * "no_regression", or "undefined" with why (too few generations). Optional
 * on read (documents before them); the verdict is derived, not read. */
static void comparison_verdict_fields(struct obj *o, struct comparison_rec *c)
{
	char verdict[16];
	int has_min = c->min_samples > 0, has_why = c->undefined_because[0] != '\0', has_verdict = 1;

	snprintf(verdict, sizeof(verdict), "%s", comparison_verdict_name(c));
	if (f_opt(o, "verdict", &has_verdict))
		f_str(o, "verdict", verdict);
	/* documents before the third verdict said "undefined" for too few
	 * samples: inconclusive now */
	if (o->c->dir == READ && has_verdict)
		c->inconclusive = strcmp(verdict, "inconclusive") == 0 || strcmp(verdict, "undefined") == 0;
	{
		int has_need = c->inconclusive;
		if (f_opt(o, "need_factor", &has_need)) {
			f_num(o, "need_factor", &c->need_factor);
			f_num(o, "need_s", &c->need_s);
		} else if (o->c->dir == READ) {
			c->need_factor = c->need_s = NAN;
		}
	}
	{
		int has_pass = 1;
		if (f_opt(o, "inconclusive_pass", &has_pass))
			f_bool(o, "inconclusive_pass", &c->inconclusive_pass);
	}
	if (f_opt(o, "min_samples", &has_min))
		f_u64(o, "min_samples", &c->min_samples);
	if (f_opt(o, "undefined_because", &has_why))
		f_str(o, "undefined_because", c->undefined_because);
	for (size_t i = 0; o->c->dir == READ && i < c->nchanges; i++)
		c->changes[i].min_n = c->min_samples;
}

static void comparison_fields(struct obj *o, void *rec)
{
	struct comparison_rec *c = rec;
	f_str(o, "against", c->against);
	f_bool(o, "same_time", &c->same_time);
	f_bool(o, "machine_key_matches", &c->machine_key_matches);
	f_num(o, "threshold", &c->threshold);
	f_num(o, "alpha", &c->alpha);
	f_u64(o, "bootstrap_seed", &c->seed);
	f_u64(o, "resamples", &c->resamples);
	f_list(o, "changes", &c->changes, &c->nchanges, change_fields);
	f_bool(o, "regressed", &c->regressed);
	comparison_verdict_fields(o, c);
}

static void pair_cell_fields(struct obj *o, void *rec)
{
	struct pair_cell_rec *c = rec;
	f_str(o, "name", c->name);
	f_str(o, "side", c->side);
	f_u64(o, "extractions_per_block", &c->per_block);
	{
		int has = c->block_ms >= 0;
		if (f_opt(o, "block_ms", &has))
			f_num(o, "block_ms", &c->block_ms);
		else if (o->c->dir == READ)
			c->block_ms = -1;
	}
	f_nums(o, "block_ns_per_extraction", &c->block_ns, &c->nblocks);
	f_nums(o, "block_cpu_ns_per_extraction", &c->block_cpu_ns, &c->ncpu);
	f_nums(o, "lead_in_ns", &c->lead_ns, &c->nlead);
	f_nums(o, "lead_in_extractions", &c->lead_calls, &c->nleadcalls);
	f_nums(o, "lead_in_first_call_ns", &c->first_call_ns, &c->nfirst);
	f_nums(o, "after_cell", &c->after, &c->nafter);
	if (o->c->dir == READ && !o->c->bad &&
	    (c->ncpu != c->nblocks || c->nlead != c->nblocks || c->nleadcalls != c->nblocks ||
	     c->nfirst != c->nblocks || c->nafter != c->nblocks))
		codec_failf(o->c, "the per-block arrays of %s differ in length", c->name);
}

static void pair_change_fields(struct obj *o, void *rec)
{
	change_estimate *ch = rec;
	char verdict[24];

	snprintf(verdict, sizeof(verdict), "%s", verdict_name(ch->verdict));
	f_num(o, "low", &ch->lo);
	f_num(o, "point", &ch->point);
	f_num(o, "high", &ch->hi);
	f_num(o, "p", &ch->p);
	f_num(o, "alpha", &ch->alpha);
	f_num(o, "threshold", &ch->threshold);
	f_str(o, "verdict", verdict);
	if (o->c->dir == READ && !o->c->bad && verdict_parse(verdict, &ch->verdict) != 0)
		codec_failf(o->c, "verdict '%s' is not one cgocost gives", verdict);
}

static void pair_ratio_fields(struct obj *o, void *rec)
{
	struct pair_ratio_rec *r = rec;
	int has_change = r->judged;

	f_str(o, "name", r->name);
	f_int(o, "numerator", &r->num);
	f_int(o, "denominator", &r->den);
	f_bool(o, "judged", &r->judged);
	f_sub(o, "statistics", summary_fields, &r->st, NULL);
	f_sub(o, "cpu_statistics", summary_fields, &r->cpu, NULL);
	f_sub(o, "pair_statistics", summary_fields, &r->pairs, NULL);
	f_num(o, "estimate", &r->estimate);
	f_num(o, "low", &r->low);
	f_num(o, "high", &r->high);
	f_num(o, "coverage", &r->coverage);
	f_num(o, "half_width_pct", &r->half_width_pct);
	f_num(o, "signed_rank_p", &r->p);
	f_num(o, "signed_rank_w_plus", &r->w_plus);
	f_bool(o, "signed_rank_exact", &r->exact);
	f_nums(o, "samples", &r->samples, &r->nsamples);
	if (f_opt(o, "change", &has_change))
		f_sub(o, "change", pair_change_fields, &r->ch, NULL);
}

static void roundtrip_lib_fields(struct obj *o, void *rec)
{
	struct roundtrip_lib_rec *l = rec;
	f_str(o, "lib", l->lib);
	f_num(o, "sync_ns", &l->sync_ns);
	f_num(o, "async_ns", &l->async_ns);
	f_num(o, "round_trips", &l->rts);
	f_num(o, "round_trips_low", &l->rts_low);
	f_num(o, "round_trips_high", &l->rts_high);
	f_bool(o, "fitted", &l->fitted);
	f_str(o, "not_fitted_because", l->why);
	f_num(o, "slope", &l->slope);
	f_num(o, "slope_low", &l->slope_low);
	f_num(o, "slope_high", &l->slope_high);
	f_num(o, "intercept_ns", &l->intercept_ns);
	f_num(o, "crossover_ns", &l->crossover_ns);
	f_num(o, "crossover_low", &l->crossover_low);
	f_num(o, "crossover_high", &l->crossover_high);
}

static void roundtrip_fields(struct obj *o, void *rec)
{
	struct roundtrip_rec *r = rec;
	f_str(o, "cell", r->cell);
	f_nums(o, "generation_ns", &r->gen_ns, &r->ngen);
	f_num(o, "ns", &r->ns);
	f_num(o, "ns_min", &r->ns_min);
	f_num(o, "ns_max", &r->ns_max);
	f_list(o, "libs", &r->libs, &r->nlibs, roundtrip_lib_fields);
}

/* --against's sequential design: its schedule, the looks taken, the alpha
 * spent and the one the verdict was drawn at. */
static void sequential_fields(struct obj *o, void *rec)
{
	struct paired_rec *p = rec;
	uint64_t first = p->seq.first, nmax = p->seq.nmax;
	double level = paired_judged_level(p);

	f_u64(o, "first_look", &first);
	f_u64(o, "max_generations", &nmax);
	f_num(o, "alpha", &p->seq.alpha);
	f_u32(o, "looks_planned", &p->seq.nlooks);
	f_u32(o, "looks_taken", &p->seq.taken);
	f_num(o, "alpha_spent", &p->seq.spent);
	f_num(o, "verdict_alpha", &p->verdict_alpha);
	f_num(o, "judged_level", &level);
	if (o->c->dir == READ) {
		p->seq.first = (size_t)first;
		p->seq.nmax = (size_t)nmax;
	}
}

static void paired_fields(struct obj *o, void *rec)
{
	struct paired_rec *p = rec;
	f_num(o, "block_ms", &p->block_ms);
	{
		int has = p->async_block_ms > 0;
		if (f_opt(o, "async_block_ms", &has))
			f_num(o, "async_block_ms", &p->async_block_ms);
	}
	f_num(o, "lead_in_us", &p->lead_in_us);
	if (f_opt(o, "lead_in_steady_max_us", &p->has_steady)) {
		f_num(o, "lead_in_steady_max_us", &p->lead_in_steady_max_us);
		f_u32(o, "lead_ins_capped", &p->lead_ins_capped);
	}
	f_num(o, "budget_s", &p->budget_s);
	f_num(o, "precision_pct", &p->precision_pct);
	f_num(o, "elapsed_s", &p->elapsed_s);
	f_num(o, "lead_in_s", &p->lead_s);
	f_num(o, "timed_s", &p->timed_s);
	f_u64(o, "order_seed", &p->order_seed);
	{
		int has = 1;
		if (f_opt(o, "blocks_per_visit", &has))
			f_u32(o, "blocks_per_visit", &p->blocks_per_visit);
		else if (o->c->dir == READ)
			p->blocks_per_visit = 1;
	}
	f_u32(o, "rounds", &p->rounds);
	f_int(o, "caller_cpu", &p->caller_cpu);
	f_str(o, "stopped_by", p->stopped_by);
	f_num(o, "generation_s", &p->generation_s);
	f_nums(o, "generation_rounds", &p->generation_rounds, &p->ngenerations);
	f_num(o, "startup_s", &p->startup_s);
	f_list(o, "cells", &p->cells, &p->ncells, pair_cell_fields);
	f_list(o, "ratios", &p->ratios, &p->nratios, pair_ratio_fields);
	if (f_opt(o, "roundtrip", &p->has_roundtrip))
		f_sub(o, "roundtrip", roundtrip_fields, &p->roundtrip, NULL);
	if (f_opt(o, "sequential", &p->has_sequential))
		f_sub(o, "sequential", sequential_fields, p, NULL);
}

#define SAMPLES_BATCHES	 "batches of one launch (not independent: use --launches)"
#define SAMPLES_LAUNCHES "launch medians (one per fresh process)"

static void analysis_fields(struct obj *o, void *rec)
{
	struct doc *d = rec;
	char samples[80], interval[64] = "distribution-free, from order statistics";

	snprintf(samples, sizeof(samples), "%s", d->samples_are_batches ? SAMPLES_BATCHES : SAMPLES_LAUNCHES);
	f_num(o, "ci_level", &d->ci_level);
	f_str(o, "samples", samples);
	f_str(o, "interval", interval);
	if (o->c->dir == READ)
		d->samples_are_batches = strcmp(samples, SAMPLES_BATCHES) == 0;
}

static void repeat_fields(struct obj *o, void *rec)
{
	struct repeat_rec *r = rec;
	int libs = r->libraries != NULL;
	f_u32(o, "loads", &r->loads);
	f_u32(o, "ok", &r->ok);
	f_u32(o, "crashed", &r->crashed);
	f_u32(o, "panicked", &r->panicked);
	f_u32(o, "hung", &r->hung);
	f_u32(o, "failed", &r->failed);
	f_strn(o, "first_crash", r->crash);
	f_strn(o, "first_panic", r->panic);
	f_strn(o, "first_hang", r->hang);
	f_strn(o, "first_failure", r->failure);
	f_int(o, "go_runtimes", &r->go_runtimes);
	if (f_opt(o, "libraries", &libs))
		f_list(o, "libraries", &r->libraries, &r->nlibraries, codec_library_fields);
}

static void decision_fields(struct obj *o, void *rec)
{
	struct decision_rec *r = rec;
	f_str(o, "key", r->key);
	f_str(o, "question", r->question);
	f_bool(o, "measured", &r->measured);
	f_strn(o, "answer", r->answer);
	f_strn(o, "figure", r->figure);
	f_num(o, "estimate", &r->estimate);
	f_num(o, "low", &r->low);
	f_num(o, "high", &r->high);
	f_strn(o, "flips_when", r->flips_when);
	f_strn(o, "command", r->command);
}

/* A report's command and its decisions: optional (a child launch's
 * document and documents before them have neither); when read, the six
 * decisions in their order. */
static void report_fields(struct obj *o, struct doc *d)
{
	int has_command = d->command != NULL, has_decisions = d->ndecisions > 0;

	if (f_opt(o, "command", &has_command))
		f_strs(o, "command", &d->command, &d->ncommand);
	if (!f_opt(o, "decisions", &has_decisions))
		return;
	f_list(o, "decisions", &d->decisions, &d->ndecisions, decision_fields);
	if (o->c->dir != READ || o->c->bad)
		return;
	for (size_t i = 0; i < DECISION_KEYS; i++)
		if (d->ndecisions != DECISION_KEYS || strcmp(d->decisions[i].key, decision_key_name(i)) != 0) {
			codec_failf(o->c, "decisions: not the %d decisions %s, %s, %s, %s, %s, %s in that order",
				    DECISION_KEYS, decision_key_name(0), decision_key_name(1), decision_key_name(2),
				    decision_key_name(3), decision_key_name(4), decision_key_name(5));
			return;
		}
}

static void options_field(struct obj *o, const char *key, struct options *opt)
{
	json_t *j;
	size_t at;

	if (o->c->dir == WRITE)
		codec_put(o, key, options_to_json(opt));
	else if (o->c->dir == READ && (j = codec_get(o, key, 1)) != NULL) {
		char msg[256];
		if (options_from_json(opt, j, msg, sizeof(msg)) != 0) {
			at = codec_path_push(o->c, "", -1);
			codec_failf(o->c, "%s", msg);
			codec_path_pop(o->c, at);
		}
	}
}

/* The version, and what was found when it is not this one: "schema_version
 * 1.5, this cgocost reads 1", never a rounded or converted value. */
static void schema_version_field(struct obj *o, int *v)
{
	json_t *j;
	char *found;

	if (o->c->dir != READ) {
		f_int(o, "schema_version", v);
		return;
	}
	if ((j = codec_get(o, "schema_version", 1)) == NULL)
		return;
	if (json_is_integer(j) && json_integer_value(j) >= 1 && json_integer_value(j) <= SCHEMA_VERSION) {
		*v = (int)json_integer_value(j);
		return;
	}
	found = json_dumps(j, JSON_ENCODE_ANY | JSON_COMPACT | JSON_ENSURE_ASCII);
	codec_failf(o->c, "schema_version %.40s, this cgocost reads 1 to %d", found ? found : "?", SCHEMA_VERSION);
	free(found);
}

static void doc_fields(struct obj *o, void *rec)
{
	struct doc *d = rec;
	char generator[32] = GENERATOR;

	schema_version_field(o, &d->schema_version);
	if (o->c->bad)
		return;
	f_str(o, "generator", generator);
	if (o->c->dir == READ && !o->c->bad && strcmp(generator, GENERATOR) != 0) {
		codec_failf(o->c, "generator '%s', not '%s'", generator, GENERATOR);
		return;
	}
	f_sub(o, "machine", codec_machine_fields, &d->machine, NULL);
	options_field(o, "options", &d->options);
	if (f_opt(o, "source", &d->has_source))
		f_sub(o, "source", codec_source_fields, &d->source, NULL);
	report_fields(o, d);
	f_list(o, "cells", &d->cells, &d->ncells, cell_fields);
	f_sub(o, "comparison", comparison_fields, &d->comparison, &d->has_comparison);
	if (f_opt(o, "ratios", &d->analysed)) {
		f_list(o, "ratios", &d->ratios, &d->nratios, ratio_fields);
		f_sub(o, "analysis", analysis_fields, d, NULL);
	}
	if (f_opt(o, "repeat_load", &d->has_repeat))
		f_sub(o, "repeat_load", repeat_fields, &d->repeat, NULL);
	if (f_opt(o, "paired", &d->has_paired))
		f_sub(o, "paired", paired_fields, &d->paired, NULL);
	if (f_opt(o, "floor_counts", &d->has_floor_counts))
		f_sub(o, "floor_counts", codec_floor_counts_fields, d->floor_counts, NULL);
}

json_t *doc_to_json(const struct doc *d)
{
	struct codec c = { .dir = WRITE };
	json_t *j = json_object();
	codec_visit(&c, j, doc_fields, (void *)d);
	return j;
}

int doc_from_json(struct doc *d, const json_t *j, char *err, size_t errlen)
{
	struct codec c = { .dir = READ, .err = err, .errlen = errlen };

	memset(d, 0, sizeof(*d));
	if (!json_is_object(j)) {
		snprintf(err, errlen, "not a JSON object");
		return -1;
	}
	codec_visit(&c, (json_t *)j, doc_fields, d);
	if (c.bad) {
		doc_free(d);
		return -1;
	}
	return 0;
}

void doc_free(struct doc *d)
{
	struct codec c = { .dir = FREE };
	codec_visit(&c, NULL, doc_fields, d);
	memset(d, 0, sizeof(*d));
}

char *doc_dumps(const struct doc *d, int compact)
{
	json_t *j = doc_to_json(d);
	char *s = json_dumps(j, (compact ? JSON_COMPACT : JSON_INDENT(1)) | JSON_ENSURE_ASCII | JSON_PRESERVE_ORDER);
	size_t len;
	char *t;

	json_decref(j);
	if (s == NULL)
		return NULL;
	len = strlen(s);
	t = realloc(s, len + 2);
	if (t == NULL) {
		free(s);
		return NULL;
	}
	t[len] = '\n';
	t[len + 1] = '\0';
	return t;
}

int doc_loads(struct doc *d, const char *text, size_t len, char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *j = json_loadb(text, len, 0, &jerr);
	int rc;

	memset(d, 0, sizeof(*d));
	if (j == NULL) {
		snprintf(err, errlen, "JSON error at line %d: %s", jerr.line, jerr.text);
		return -1;
	}
	rc = doc_from_json(d, j, err, errlen);
	json_decref(j);
	return rc;
}
