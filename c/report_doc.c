/* report_doc.c — see report_doc.h. Console output may use µ and ±; the
 * machine formats (JSON, Go benchmark lines) stay ASCII. */
#include "report_doc.h"

#include <math.h>
#include <string.h>

#include "analysis.h"
#include "jsonutil.h"
#include "report_text.h"
#include "stats.h"

/* "68.10 ns", "n/a" for undefined. */
static const char *fmt_ns(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "n/a");
	else if (v >= 1e6)
		snprintf(buf, len, "%.3f ms", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, len, "%.2f µs", v / 1e3);
	else
		snprintf(buf, len, "%.2f ns", v);
	return buf;
}

static const char *fmt_num(char *buf, size_t len, double v, const char *fmt)
{
	if (isnan(v))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, fmt, v);
	return buf;
}

/* Half the width of the median's interval, in % of the median. */
static double half_width_pct(const json_t *st)
{
	return 100.0 * (jget_num(st, "ci_high") - jget_num(st, "ci_low")) / 2.0 / jget_num(st, "median");
}

static void outlier_line(FILE *out, const json_t *st)
{
	const json_t *o = json_object_get(st, "outliers");
	double n = jget_num(st, "n");
	double ls = jget_num(o, "low_severe"), lm = jget_num(o, "low_mild");
	double hm = jget_num(o, "high_mild"), hs = jget_num(o, "high_severe");
	double total = ls + lm + hm + hs;

	if (isnan(total) || total == 0)
		return;
	fprintf(out, "# Found %.0f outliers among %.0f measurements (%.2f%%): %.0f low severe, %.0f low mild, %.0f high mild, %.0f high severe (reported, not dropped)\n",
		total, n, 100.0 * total / n, ls, lm, hm, hs);
}

void report_cell_summary(FILE *out, const json_t *doc, const json_t *cell, int brief)
{
	const json_t *st = json_object_get(cell, "statistics");
	const json_t *cs = json_object_get(cell, "cpu_statistics");
	char a[32], b[32], c[32], d[32], e[32];
	double med = jget_num(st, "median");

	fprintf(out, "# time:   [%s %s %s]  (median and its 95%% interval, exact coverage %s%%, over %.0f %s)\n",
		fmt_ns(a, sizeof(a), jget_num(st, "ci_low")), fmt_ns(b, sizeof(b), med),
		fmt_ns(c, sizeof(c), jget_num(st, "ci_high")),
		fmt_num(d, sizeof(d), 100 * jget_num(st, "ci_level"), "%.1f"), jget_num(st, "n"),
		strstr(jget_str_or(json_object_get(doc, "analysis"), "samples", ""), "batches") ? "batches of one launch"
											    : "launches");
	fprintf(out, "# spread: mean %s ± %s sd, min %s, max %s, interval half-width %s%% of the median\n",
		fmt_ns(a, sizeof(a), jget_num(st, "mean")), fmt_ns(b, sizeof(b), jget_num(st, "stddev")),
		fmt_ns(c, sizeof(c), jget_num(st, "min")), fmt_ns(d, sizeof(d), jget_num(st, "max")),
		fmt_num(e, sizeof(e), half_width_pct(st), "%.2f"));
	outlier_line(out, st);
	if (brief)
		return;
	fprintf(out, "# cpu:    [%s %s %s] cpu-ns/extraction, of which threads other than the callers %s\n",
		fmt_num(a, sizeof(a), jget_num(cs, "ci_low"), "%.2f"),
		fmt_num(b, sizeof(b), jget_num(cs, "median"), "%.2f"),
		fmt_num(c, sizeof(c), jget_num(cs, "ci_high"), "%.2f"),
		fmt_num(d, sizeof(d), jget_num(cell, "other_cpu_ns_per_extraction_median"), "%.2f"));
	fprintf(out, "# stalls: %.0f of %.0f batches, slowest batch %s/extraction; cold (first extraction of a new thread) %s\n",
		jget_num(cell, "stalled_batches"), jget_num(cell, "batches"),
		fmt_ns(a, sizeof(a), jget_num(cell, "slowest_batch_ns_per_extraction")),
		fmt_ns(b, sizeof(b), jget_num(cell, "cold_ns_median")));
	fprintf(out, "# noise:  context switches %s per 1000 requests, steal %s (medians over launches)\n",
		fmt_num(a, sizeof(a), jget_num(cell, "switches_per_1000_median"), "%.3f"),
		fmt_ns(b, sizeof(b), jget_num(cell, "steal_ns_median")));
	fprintf(out, "# go allocations: %s objects, %s bytes per %s\n",
		fmt_num(a, sizeof(a), jget_num(cell, "go_allocs_per_extraction"), "%.3f"),
		fmt_num(b, sizeof(b), jget_num(cell, "go_alloc_bytes_per_extraction"), "%.1f"),
		strcmp(jget_str_or(cell, "scenario", "extract"), "extract") == 0 ? "extraction" : "iteration");
	if (!isnan(jget_num(cell, "c_mallocs_per_iteration")))
		fprintf(out, "# c allocations: %s mallocs, %s frees per %s (counted by the preloaded counter)\n",
			fmt_num(a, sizeof(a), jget_num(cell, "c_mallocs_per_iteration"), "%.3f"),
			fmt_num(b, sizeof(b), jget_num(cell, "c_frees_per_iteration"), "%.3f"),
			strcmp(jget_str_or(cell, "scenario", "extract"), "extract") == 0 ? "extraction" : "iteration");
	if (jget_str(json_object_get(cell, "allocator"), "name"))
		fprintf(out, "# allocator: %s (%s)\n", jget_str(json_object_get(cell, "allocator"), "name"),
			jget_str_or(json_object_get(cell, "allocator"), "path", "?"));
}

static void machine_lines(FILE *out, const json_t *doc, const json_t *cell)
{
	const json_t *m = json_object_get(doc, "machine");
	fprintf(out, "# machine: %s, %.0f online CPUs (%.0f allowed), Linux %s %s\n",
		jget_str_or(m, "cpu_model", "?"), jget_num(m, "online_cpus"), jget_num(m, "allowed_cpus"),
		jget_str_or(m, "kernel", "?"), jget_str_or(m, "arch", "?"));
	fprintf(out, "# plugin: %s (%s), %s, plugin-sdk-go %s, GOMAXPROCS=%.0f\n", jget_str_or(cell, "lib", "?"),
		jget_str_or(cell, "executable", "?"), jget_str_or(cell, "go_version", "?"),
		jget_str_or(cell, "sdk_version", "?"), jget_num(cell, "gomaxprocs"));
}

void report_floors_block(FILE *out, const char *prefix, const char *title, const json_t *f,
			 double sync_med, double async_med)
{
	char a[32], b[32], c[32], pair[32] = "";
	const json_t *cpus = json_object_get(f, "handoff_cpus");
	double g = jget_num(f, "go_raw_ns"), h = jget_num(f, "handoff_ns");

	if (!json_is_object(f))
		return;
	if (json_array_size(cpus) == 2)
		snprintf(pair, sizeof(pair), " CPU %.0f<->%.0f", json_number_value(json_array_get(cpus, 0)),
			 json_number_value(json_array_get(cpus, 1)));
	fprintf(out, "%s%s\n", prefix, title);
	fprintf(out, "%s  C call through a pointer        %10s\n", prefix,
		fmt_ns(a, sizeof(a), jget_num(f, "c_call_ns")));
	fprintf(out, "%s  C->Go raw //export no-op        %10s   first call on a new C thread %s\n", prefix,
		fmt_ns(a, sizeof(a), g), fmt_ns(b, sizeof(b), jget_num(f, "go_raw_cold_ns")));
	if (isnan(h))
		fprintf(out, "%s  cache-line round trip           not measured: %s\n", prefix,
			jget_str_or(f, "handoff_why", "?"));
	else
		fprintf(out, "%s  cache-line round trip%-11s%10s\n", prefix, pair, fmt_ns(a, sizeof(a), h));
	if (!isnan(sync_med))
		fprintf(out, "%sreading: sync %s = raw crossing %s + SDK dispatch and Extract %s\n", prefix,
			fmt_ns(a, sizeof(a), sync_med), fmt_ns(b, sizeof(b), g), fmt_ns(c, sizeof(c), sync_med - g));
	if (!isnan(async_med) && !isnan(h))
		fprintf(out, "%sreading: async %s = %.2fx the cache-line round trip %s\n", prefix,
			fmt_ns(a, sizeof(a), async_med), async_med / h, fmt_ns(b, sizeof(b), h));
}

static void floors_lines(FILE *out, const json_t *f)
{
	char a[32], b[32], c[32], d[32];
	if (!json_is_object(f))
		return;
	fprintf(out, "# floors (medians over launches): C call %s, raw C->Go call %s (first on a new thread %s), cache-line round trip %s\n",
		fmt_ns(a, sizeof(a), jget_num(f, "c_call_ns")), fmt_ns(b, sizeof(b), jget_num(f, "go_raw_ns")),
		fmt_ns(c, sizeof(c), jget_num(f, "go_raw_cold_ns")),
		fmt_ns(d, sizeof(d), jget_num(f, "handoff_ns")));
}

static void mode_line(FILE *out, const json_t *cell)
{
	const json_t *m = json_object_get(cell, "mode");
	fprintf(out, "# mode: %s requested, %s in effect (verified in every launch: which thread ran Extract)\n",
		jget_str_or(m, "requested", "?"), jget_str_or(m, "in_effect", "?"));
	if (jget_str(m, "reason"))
		fprintf(out, "# async not in effect: %s\n", jget_str(m, "reason"));
}

void report_launches_text(FILE *out, const json_t *doc)
{
	size_t ci;
	const json_t *cell;

	json_array_foreach(json_object_get(doc, "cells"), ci, cell)
	{
		const json_t *launches = json_object_get(cell, "launches");
		const json_t *first = json_array_get(launches, 0);
		size_t np = json_array_size(json_object_get(first, "plugins"));
		const char *scen = jget_str_or(cell, "scenario", "extract");
		int extract = strcmp(scen, "extract") == 0;

		for (size_t p = 0; p < np; p++) {
			double ns = 0, ops = 0;
			size_t i;
			json_t *l;
			json_array_foreach(launches, i, l)
			{
				const json_t *pl = json_array_get(json_object_get(l, "plugins"), p);
				ns += jget_num(pl, "elapsed_ns");
				ops += jget_num(pl, "extractions");
			}
			if (extract)
				report_seed_line(out, (uint32_t)p + 1, (uint64_t)ns, (uint64_t)ops);
			else
				report_iteration_line(out, scen, (uint32_t)p + 1, (uint64_t)ns, (uint64_t)ops);
		}
		fprintf(out, "# %s: %zu launches (fresh processes), the lines above are totals over them\n",
			jget_str_or(cell, "name", "?"), json_array_size(launches));
		report_cell_summary(out, doc, cell, 0);
	}
	cell = json_array_get(json_object_get(doc, "cells"), 0);
	machine_lines(out, doc, cell);
	mode_line(out, cell);
	floors_lines(out, json_object_get(cell, "floors"));
	report_ratios_text(out, doc);
}

void report_ratios_text(FILE *out, const json_t *doc)
{
	size_t i;
	json_t *r;
	char a[32], b[32], c[32];

	json_array_foreach(json_object_get(doc, "ratios"), i, r)
	{
		const json_t *st = json_object_get(r, "statistics");
		const char *name = jget_str_or(r, "name", "?");
		fprintf(out, "# ratio %s: %s [%s, %s]\n", name, fmt_num(a, sizeof(a), jget_num(st, "median"), "%.3f"),
			fmt_num(b, sizeof(b), jget_num(st, "ci_low"), "%.3f"),
			fmt_num(c, sizeof(c), jget_num(st, "ci_high"), "%.3f"));
		if (strncmp(name, "reuse/alloc", 11) == 0) {
			/* the saving, from the two cells' medians */
			const json_t *cells = json_object_get(doc, "cells");
			double al = jget_num(json_object_get(jfind_named(cells, jget_str_or(r, "denominator", "")), "statistics"), "median");
			double re = jget_num(json_object_get(jfind_named(cells, jget_str_or(r, "numerator", "")), "statistics"), "median");
			fprintf(out, "# reuse saves %s per iteration (%s%% of alloc's %s)\n",
				fmt_ns(a, sizeof(a), al - re), fmt_num(b, sizeof(b), 100.0 * (al - re) / al, "%.1f"),
				fmt_ns(c, sizeof(c), al));
		}
	}
}

void report_compare_text(FILE *out, const json_t *doc)
{
	static const char *const libs[] = {"archive", "shared"}, *const modes[] = {"sync", "async"};
	const json_t *cells = json_object_get(doc, "cells");
	const json_t *first = json_array_get(cells, 0);
	const json_t *o = json_object_get(doc, "options");
	size_t i;
	json_t *r;
	char a[32], b[32], c[32], d[32], e[32], f[32];

	fprintf(out, "# cgocost compare: archive/shared x sync/async, %.0f rounds interleaved, -n %.0f -r %.0f -p %.0f, work %s\n",
		jget_num(o, "launches"), jget_num(o, "n"), jget_num(o, "runs"), jget_num(o, "plugins"),
		jget_str_or(o, "work", "?"));
	machine_lines(out, doc, first);
	fprintf(out, "%-8s %-6s %-6s %12s %25s %8s %12s %12s %10s\n", "lib", "mode", "effect",
		"ns/extr", "95% interval", "±%", "cpu-ns/extr", "cold", "stalls");
	for (int l = 0; l < 2; l++)
		for (int m = 0; m < 2; m++) {
			const json_t *cell = find_cell(cells, libs[l], modes[m], "extract");
			const json_t *st, *cs;
			char iv[80];
			if (cell == NULL)
				continue;
			st = json_object_get(cell, "statistics");
			cs = json_object_get(cell, "cpu_statistics");
			snprintf(iv, sizeof(iv), "[%s, %s]", fmt_num(a, sizeof(a), jget_num(st, "ci_low"), "%.2f"),
				 fmt_num(b, sizeof(b), jget_num(st, "ci_high"), "%.2f"));
			fprintf(out, "%-8s %-6s %-6s %12s %25s %8s %12s %12s %5.0f/%-4.0f\n", libs[l], modes[m],
				jget_str_or(json_object_get(cell, "mode"), "in_effect", "?"),
				fmt_num(c, sizeof(c), jget_num(st, "median"), "%.2f"), iv,
				fmt_num(d, sizeof(d), half_width_pct(st), "%.2f"),
				fmt_num(e, sizeof(e), jget_num(cs, "median"), "%.2f"),
				fmt_ns(f, sizeof(f), jget_num(cell, "cold_ns_median")),
				jget_num(cell, "stalled_batches"), jget_num(cell, "batches"));
		}
	fprintf(out, "ratios (per round, median and 95%% interval):\n");
	json_array_foreach(json_object_get(doc, "ratios"), i, r)
	{
		const json_t *st = json_object_get(r, "statistics");
		fprintf(out, "  %-32s %8s  [%s, %s]\n", jget_str_or(r, "name", "?"),
			fmt_num(a, sizeof(a), jget_num(st, "median"), "%.3f"),
			fmt_num(b, sizeof(b), jget_num(st, "ci_low"), "%.3f"),
			fmt_num(c, sizeof(c), jget_num(st, "ci_high"), "%.3f"));
	}
	for (int l = 0; l < 2; l++)
		for (int m = 0; m < 2; m++) {
			const json_t *cell = find_cell(cells, libs[l], modes[m], "extract");
			const json_t *mm = cell ? json_object_get(cell, "mode") : NULL;
			if (mm && jget_str(mm, "reason"))
				fprintf(out, "  note: %s %s is not async: %s\n", libs[l], modes[m], jget_str(mm, "reason"));
		}
	{
		const json_t *cell = find_cell(cells, "archive", "sync", "extract");
		const json_t *as = find_cell(cells, "archive", "async", "extract");
		if (cell)
			report_floors_block(out, "", "floors (archive build, medians over rounds):",
					    json_object_get(cell, "floors"),
					    jget_num(json_object_get(cell, "statistics"), "median"),
					    as && cell_ran_as_asked(as)
						    ? jget_num(json_object_get(as, "statistics"), "median")
						    : NAN);
	}
}

void report_allocators_text(FILE *out, const json_t *doc)
{
	size_t i;
	json_t *c;
	char a[32], b[32], cc[32];
	const json_t *first = json_array_get(json_object_get(doc, "cells"), 0);

	machine_lines(out, doc, first);
	fprintf(out, "# each allocator preloaded in its own launches, interleaved round by round; changes against glibc\n");
	json_array_foreach(json_object_get(doc, "cells"), i, c)
	{
		const json_t *st = json_object_get(c, "statistics");
		const json_t *vs = json_object_get(c, "vs_glibc");
		fprintf(out, "%-60s %12s  [%s, %s]  (%s)\n", jget_str_or(c, "name", "?"),
			fmt_ns(a, sizeof(a), jget_num(st, "median")), fmt_ns(b, sizeof(b), jget_num(st, "ci_low")),
			fmt_ns(cc, sizeof(cc), jget_num(st, "ci_high")),
			jget_str_or(json_object_get(c, "allocator"), "path", "?"));
		if (json_is_object(vs))
			fprintf(out, "    %s %s\n", jget_str_or(vs, "line", "?"), jget_str_or(vs, "sentence", "?"));
	}
}

void report_comparison_text(FILE *out, const json_t *doc)
{
	const json_t *cmp = json_object_get(doc, "comparison");
	size_t i;
	json_t *c;

	if (!json_is_object(cmp))
		return;
	fprintf(out, "\ncomparison against %s (%s; threshold ±%.0f%%, alpha %.2f, bootstrap seed %.0f, %.0f resamples)\n",
		jget_str_or(cmp, "against", "?"),
		json_is_true(json_object_get(cmp, "same_time")) ? "interleaved in this run"
		: json_is_true(json_object_get(cmp, "machine_key_matches"))
			? "same machine key"
			: "machine key differs: absolute times not gated, ratios only",
		100.0 * jget_num(cmp, "threshold"), jget_num(cmp, "alpha"), jget_num(cmp, "bootstrap_seed"),
		jget_num(cmp, "resamples"));
	json_array_foreach(json_object_get(cmp, "changes"), i, c)
	{
		fprintf(out, "%s %s\n", jget_str_or(c, "kind", "?"), jget_str_or(c, "scenario", "?"));
		fprintf(out, "  %s\n", jget_str_or(c, "line", "?"));
		if (json_is_true(json_object_get(c, "gated")))
			fprintf(out, "  %s\n", jget_str_or(c, "sentence", "?"));
		else
			fprintf(out, "  %s (not gated: %s)\n", jget_str_or(c, "sentence", "?"),
				jget_str_or(c, "not_gated_because", "?"));
	}
	fprintf(out, "%s\n", json_is_true(json_object_get(cmp, "regressed"))
				     ? "verdict: regression detected (exit status 1)"
				     : "verdict: no regression (exit status 0)");
}

void report_gobench(FILE *out, const json_t *doc)
{
	const json_t *m = json_object_get(doc, "machine");
	const char *arch = jget_str_or(m, "arch", "?");
	size_t i, j;
	json_t *cell, *l;

	fprintf(out, "goos: linux\ngoarch: %s\ncpu: %s\npkg: cgocost\n",
		strcmp(arch, "x86_64") == 0 ? "amd64" : strcmp(arch, "aarch64") == 0 ? "arm64" : arch,
		jget_str_or(m, "cpu_model", "?"));
	json_array_foreach(json_object_get(doc, "cells"), i, cell)
	{
		const json_t *launches = json_object_get(cell, "launches");
		char name[256];
		snprintf(name, sizeof(name), "BenchmarkExtract/%s-%.0f", jget_str_or(cell, "name", "?"),
			 jget_num(cell, "gomaxprocs"));
		if (json_array_size(launches) >= 2) {
			json_array_foreach(launches, j, l)
			{
				double ops = 0;
				size_t k;
				json_t *p;
				json_array_foreach(json_object_get(l, "plugins"), k, p) ops += jget_num(p, "extractions");
				fprintf(out, "%s\t%.0f\t%.2f ns/op\t%.2f cpu-ns/op\n", name, ops,
					jget_num(l, "ns_per_extraction"), jget_num(l, "cpu_ns_per_extraction"));
			}
		} else {
			/* one launch: its batches are the samples */
			json_array_foreach(json_object_get(json_array_get(launches, 0), "plugins"), j, l)
			{
				size_t k;
				json_t *b;
				json_array_foreach(json_object_get(l, "batches"), k, b)
					fprintf(out, "%s\t%.0f\t%.2f ns/op\n", name, jget_num(b, "ops"),
						jget_num(b, "ns") / jget_num(b, "ops"));
			}
		}
	}
}

void report_doc_warnings(FILE *err, const json_t *doc)
{
	size_t i;
	json_t *cell;
	const json_t *cells = json_object_get(doc, "cells");
	double cpus = jget_num(json_object_get(doc, "machine"), "online_cpus");

	json_array_foreach(cells, i, cell)
	{
		const json_t *st = json_object_get(cell, "statistics");
		const json_t *o = json_object_get(st, "outliers");
		const json_t *l0 = json_array_get(json_object_get(cell, "launches"), 0);
		double n = jget_num(st, "n");
		double out = jget_num(o, "low_severe") + jget_num(o, "low_mild") + jget_num(o, "high_mild") +
			     jget_num(o, "high_severe");
		double callers = (double)json_array_size(json_object_get(l0, "plugins"));
		double workers = strcmp(jget_str_or(l0, "mode_in_effect", "sync"), "sync") ? jget_num(l0, "async_workers") : 0;
		const char *reason = jget_str(json_object_get(cell, "mode"), "reason");
		char who[200] = "";

		if (json_array_size(cells) > 1)
			snprintf(who, sizeof(who), "%s: ", jget_str_or(cell, "name", "?"));
		if (n < STATS_MIN_CI_SAMPLES)
			fprintf(err, "warning: %s%.0f samples are too few for a 95%% interval of the median (need >= %d); use more --launches or -r\n",
				who, n, STATS_MIN_CI_SAMPLES);
		if (n > 0 && out / n > 0.1)
			fprintf(err, "warning: %s%.0f of %.0f samples are outliers: the machine was noisy; rerun, or use more --launches\n",
				who, out, n);
		if (callers + workers > cpus)
			fprintf(err, "warning: %sthis run spins %.0f threads (%.0f callers%s) on %.0f online CPUs: it measures the scheduler as much as the crossing; use fewer plugins or sync\n",
				who, callers + workers, callers, workers > 0 ? " + the SDK's async workers" : "", cpus);
		if (jget_num(cell, "stalled_batches") > 0)
			fprintf(err, "warning: %s%.0f of %.0f batches stalled (1 ms or more slower than the median batch): an async worker slept, the Go GC ran, or a thread was descheduled; compare the slowest batch with the median\n",
				who, jget_num(cell, "stalled_batches"), jget_num(cell, "batches"));
		if (reason)
			fprintf(err, "warning: %sasync was requested but is not in effect: %s\n", who, reason);
	}
}
