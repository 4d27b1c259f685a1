/* analysis.c — see analysis.h. */
#include "analysis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonutil.h"

json_t *summary_record(const stats_summary *s, const char *unit)
{
	return json_pack("{s:s, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:{s:I, s:I, s:I, s:I}}",
			 "unit", unit, "n", (json_int_t)s->n, "median", jnum(s->median), "mean",
			 jnum(s->mean), "stddev", jnum(s->stddev), "min", jnum(s->min), "max",
			 jnum(s->max), "q1", jnum(s->q1), "q3", jnum(s->q3), "ci_low", jnum(s->ci_lo),
			 "ci_high", jnum(s->ci_hi), "ci_level", jnum(s->ci_level), "outliers",
			 "low_severe", (json_int_t)s->low_severe, "low_mild", (json_int_t)s->low_mild,
			 "high_mild", (json_int_t)s->high_mild, "high_severe",
			 (json_int_t)s->high_severe);
}

double *samples_from_json(const json_t *array, size_t *n)
{
	size_t i, k = 0;
	json_t *v;
	double *x = malloc((json_array_size(array) + 1) * sizeof(double));

	*n = 0;
	if (x == NULL)
		return NULL;
	json_array_foreach(array, i, v)
	{
		if (json_is_number(v))
			x[k++] = json_number_value(v);
	}
	*n = k;
	return x;
}

static json_t *json_array_of(const double *x, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, jnum(x[i]));
	return a;
}

static int summarize_into(json_t *obj, const char *key, const char *samples_key, const double *x,
			  size_t n, const char *unit)
{
	stats_summary s;
	if (stats_summarize(x, n, &s) != 0)
		return -1;
	json_object_set_new(obj, key, summary_record(&s, unit));
	if (samples_key)
		json_object_set_new(obj, samples_key, json_array_of(x, n));
	return 0;
}

/* Median over launches of one number of each launch (or of its floors). */
static double launches_median(const json_t *launches, const char *sub, const char *key)
{
	size_t i, k = 0;
	json_t *l;
	double *x = malloc((json_array_size(launches) + 1) * sizeof(double));
	double m;

	if (x == NULL)
		return NAN;
	json_array_foreach(launches, i, l)
	{
		const json_t *o = sub ? json_object_get(l, sub) : l;
		double v = jget_num(o, key);
		if (!isnan(v))
			x[k++] = v;
	}
	m = k ? stats_median(x, k) : NAN;
	free(x);
	return m;
}

void cell_key(const json_t *doc, const json_t *cell, char *buf, size_t len)
{
	const json_t *m = json_object_get(doc, "machine");
	const json_t *o = json_object_get(doc, "options");
	char *cpus = json_dumps(json_object_get(o, "cpus"), JSON_COMPACT);

	snprintf(buf, len,
		 "cpu=%s;online_cpus=%.0f;kernel=%s;go=%s;lib=%s;malloc=%s;n=%.0f;runs=%.0f;plugins=%.0f;work=%s;fields=%.0f;warmup=%.0f;pinned=%s",
		 jget_str_or(m, "cpu_model", "?"), jget_num(m, "online_cpus"), jget_str_or(m, "kernel", "?"),
		 jget_str_or(cell, "go_version", "?"), jget_str_or(cell, "lib", "?"),
		 jget_str_or(json_object_get(cell, "allocator"), "name", "?"), jget_num(o, "n"),
		 jget_num(o, "runs"), jget_num(o, "plugins"),
		 jget_str_or(o, "work", "?"), jget_num(o, "fields"),
		 jget_num(o, "warmup"), cpus ? cpus : "[]");
	free(cpus);
}

/* The samples of a cell: one per launch (the launch's median batch), or,
 * with a single launch, its batches (not independent: said in "analysis"). */
static double *cell_samples(const json_t *launches, size_t *n)
{
	size_t i, j, k = 0, cap = 0;
	json_t *l, *p;
	double *x;

	if (json_array_size(launches) >= 2) {
		x = malloc(json_array_size(launches) * sizeof(double));
		if (x == NULL)
			return NULL;
		json_array_foreach(launches, i, l) x[k++] = jget_num(l, "ns_per_extraction");
		*n = k;
		return x;
	}
	l = json_array_get(launches, 0);
	json_array_foreach(json_object_get(l, "plugins"), i, p) cap += json_array_size(json_object_get(p, "batches"));
	x = malloc((cap + 1) * sizeof(double));
	if (x == NULL)
		return NULL;
	json_array_foreach(json_object_get(l, "plugins"), i, p)
	{
		json_t *b;
		json_array_foreach(json_object_get(p, "batches"), j, b)
		{
			double ops = jget_num(b, "ops");
			if (ops > 0)
				x[k++] = jget_num(b, "ns") / ops;
		}
	}
	*n = k;
	return x;
}

static int analyse_cell(json_t *doc, json_t *cell, char *err, size_t errlen)
{
	json_t *launches = json_object_get(cell, "launches");
	size_t n, i, stalls = 0, batches = 0;
	double slowest = NAN;
	double *x;
	json_t *l;
	char key[1024];

	if (!json_is_array(launches) || json_array_size(launches) == 0) {
		snprintf(err, errlen, "cell %s has no launches", jget_str(cell, "name"));
		return -1;
	}
	x = cell_samples(launches, &n);
	if (x == NULL || summarize_into(cell, "statistics", "samples", x, n,
					 strcmp(jget_str_or(cell, "scenario", "extract"), "extract") ? "ns/iteration"
												       : "ns/extraction") != 0) {
		free(x);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	free(x);
	x = malloc(json_array_size(launches) * sizeof(double));
	if (x == NULL)
		return -1;
	n = 0;
	json_array_foreach(launches, i, l) x[n++] = jget_num(l, "cpu_ns_per_extraction");
	summarize_into(cell, "cpu_statistics", "cpu_samples", x, n, "cpu-ns/extraction");
	free(x);

	json_array_foreach(launches, i, l)
	{
		size_t j;
		json_t *p;
		json_array_foreach(json_object_get(l, "plugins"), j, p)
		{
			double s = jget_num(p, "slowest_batch_ns_per_extraction");
			stalls += (size_t)jget_num(p, "stalled_batches");
			batches += json_array_size(json_object_get(p, "batches"));
			if (!isnan(s) && (isnan(slowest) || s > slowest))
				slowest = s;
		}
	}
	{
		/* cold: the median over launches of each launch's first plugin */
		size_t k = 0;
		double *c = malloc(json_array_size(launches) * sizeof(double));
		if (c) {
			json_array_foreach(launches, i, l)
			{
				json_t *p0 = json_array_get(json_object_get(l, "plugins"), 0);
				c[k++] = jget_num(p0, "cold_ns");
			}
			json_object_set_new(cell, "cold_ns_median", jnum(stats_median(c, k)));
			free(c);
		}
	}
	json_object_set_new(cell, "stalled_batches", json_integer((json_int_t)stalls));
	json_object_set_new(cell, "batches", json_integer((json_int_t)batches));
	json_object_set_new(cell, "slowest_batch_ns_per_extraction", jnum(slowest));
	json_object_set_new(cell, "other_cpu_ns_per_extraction_median",
			    jnum(launches_median(launches, NULL, "other_cpu_ns_per_extraction")));
	json_object_set_new(cell, "switches_per_1000_median",
			    jnum(launches_median(launches, NULL, "switches_per_1000")));
	json_object_set_new(cell, "steal_ns_median", jnum(launches_median(launches, NULL, "steal_ns")));
	{
		double allocs = 0, bytes = 0, requests = 0;
		json_array_foreach(launches, i, l)
		{
			size_t j;
			json_t *p;
			allocs += jget_num(l, "go_allocs");
			bytes += jget_num(l, "go_alloc_bytes");
			json_array_foreach(json_object_get(l, "plugins"), j, p) requests += jget_num(p, "extractions");
		}
		json_object_set_new(cell, "go_allocs_per_extraction", jnum(allocs / requests));
		{
			double cm = 0, cf = 0;
			int counted = 1;
			json_array_foreach(launches, i, l)
			{
				const json_t *ca = json_object_get(l, "c_allocs");
				if (!json_is_object(ca))
					counted = 0;
				cm += jget_num(ca, "mallocs");
				cf += jget_num(ca, "frees");
			}
			json_object_set_new(cell, "c_mallocs_per_iteration", counted ? jnum(cm / requests) : json_null());
			json_object_set_new(cell, "c_frees_per_iteration", counted ? jnum(cf / requests) : json_null());
		}
		json_object_set_new(cell, "go_alloc_bytes_per_extraction", jnum(bytes / requests));
	}
	if (json_is_object(json_object_get(json_array_get(launches, 0), "floors"))) {
		json_t *f = json_object_get(json_array_get(launches, 0), "floors");
		json_object_set_new(
			cell, "floors",
			json_pack("{s:o, s:o, s:o, s:o, s:O}", "c_call_ns",
				  jnum(launches_median(launches, "floors", "c_call_ns")), "go_raw_ns",
				  jnum(launches_median(launches, "floors", "go_raw_ns")), "go_raw_cold_ns",
				  jnum(launches_median(launches, "floors", "go_raw_cold_ns")), "handoff_ns",
				  jnum(launches_median(launches, "floors", "handoff_ns")), "handoff_cpus",
				  json_object_get(f, "handoff_cpus") ? json_object_get(f, "handoff_cpus")
								     : json_null()));
	} else {
		json_object_set_new(cell, "floors", json_null());
	}
	cell_key(doc, cell, key, sizeof(key));
	json_object_set_new(cell, "key", json_string(key));
	return 0;
}

json_t *find_cell(const json_t *cells, const char *lib, const char *mode, const char *scenario)
{
	size_t i;
	json_t *c;
	json_array_foreach(cells, i, c)
	{
		if (strcmp(jget_str_or(c, "scenario", "extract"), scenario) == 0 &&
		    strcmp(jget_str_or(c, "lib", ""), lib) == 0 &&
		    strcmp(jget_str_or(json_object_get(c, "mode"), "requested", ""), mode) == 0)
			return c;
	}
	return NULL;
}

int cell_ran_as_asked(const json_t *cell)
{
	const json_t *m = json_object_get(cell, "mode");
	return strcmp(jget_str_or(m, "requested", "?"), jget_str_or(m, "in_effect", "")) == 0;
}

/* A cell that ran in the mode it stands for: ratios are made of these only. */
static json_t *honest_cell(const json_t *cells, const char *lib, const char *mode, const char *scenario)
{
	json_t *c = find_cell(cells, lib, mode, scenario);
	return c && cell_ran_as_asked(c) ? c : NULL;
}

static void add_ratio(json_t *ratios, const char *name, const json_t *num, const json_t *den,
		      const char *metric)
{
	const json_t *ln = json_object_get(num, "launches"), *ld = json_object_get(den, "launches");
	const char *key = strcmp(metric, "cpu") == 0 ? "cpu_ns_per_extraction" : "ns_per_extraction";
	size_t n = json_array_size(ln) < json_array_size(ld) ? json_array_size(ln) : json_array_size(ld);
	double *x = malloc((n + 1) * sizeof(double));
	json_t *r;

	if (x == NULL || n == 0) {
		free(x);
		return;
	}
	/* one ratio per round: both cells ran in the same round, side by side */
	for (size_t i = 0; i < n; i++)
		x[i] = jget_num(json_array_get(ln, i), key) / jget_num(json_array_get(ld, i), key);
	r = json_pack("{s:s, s:s, s:s, s:s}", "name", name, "numerator", jget_str(num, "name"),
		      "denominator", jget_str(den, "name"), "metric", metric);
	summarize_into(r, "statistics", "samples", x, n, "ratio");
	json_array_append_new(ratios, r);
	free(x);
}

int analyse_document(json_t *doc, char *err, size_t errlen)
{
	json_t *cells = json_object_get(doc, "cells");
	json_t *ratios = json_array();
	size_t i;
	json_t *c;
	static const char *const libs[] = {"archive", "shared"};
	static const char *const modes[] = {"sync", "async"};
	int single = 0;

	json_array_foreach(cells, i, c)
	{
		if (analyse_cell(doc, c, err, errlen) != 0) {
			json_decref(ratios);
			return -1;
		}
		single |= json_array_size(json_object_get(c, "launches")) < 2;
	}
	for (int l = 0; l < 2; l++) {
		json_t *s = honest_cell(cells, libs[l], "sync", "extract"), *a = honest_cell(cells, libs[l], "async", "extract");
		char name[64];
		if (s && a) {
			snprintf(name, sizeof(name), "async/sync lib=%s wall", libs[l]);
			add_ratio(ratios, name, a, s, "wall");
			snprintf(name, sizeof(name), "async/sync lib=%s cpu", libs[l]);
			add_ratio(ratios, name, a, s, "cpu");
		}
	}
	for (int m = 0; m < 2; m++) {
		json_t *ar = honest_cell(cells, "archive", modes[m], "extract"),
		       *sh = honest_cell(cells, "shared", modes[m], "extract");
		char name[64];
		if (ar && sh) {
			snprintf(name, sizeof(name), "shared/archive mode=%s wall", modes[m]);
			add_ratio(ratios, name, sh, ar, "wall");
		}
	}
	/* lifecycle: what reuse costs next to allocation, per library and mode */
	for (int l = 0; l < 2; l++)
		for (int m = 0; m < 2; m++) {
			json_t *al = honest_cell(cells, libs[l], modes[m], "alloc");
			json_t *re = honest_cell(cells, libs[l], modes[m], "reuse");
			char name[80];
			if (al && re) {
				snprintf(name, sizeof(name), "reuse/alloc lib=%s mode=%s wall", libs[l], modes[m]);
				add_ratio(ratios, name, re, al, "wall");
			}
		}
	json_object_set_new(doc, "ratios", ratios);
	json_object_set_new(doc, "analysis",
			    json_pack("{s:f, s:s, s:s}", "ci_level", 0.95, "samples",
				      single ? "batches of one launch (not independent: use --launches)"
					     : "launch medians (one per fresh process)",
				      "interval", "distribution-free, from order statistics"));
	return 0;
}
