/* report_text.c — see report_text.h. */
#include "report_text.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "allocs.h"
#include "report_doc.h"
#include "report_json.h"
#include "stats.h"

void report_iteration_line(FILE *out, const char *scenario, uint32_t index, uint64_t elapsed_ns,
			   uint64_t iterations)
{
	fprintf(out, "%s plugin %u: %.2f ns/iteration (elapsed time %lluns, iterations %llu)\n", scenario, index,
		(double)elapsed_ns / (double)iterations, (unsigned long long)elapsed_ns,
		(unsigned long long)iterations);
}

void report_seed_line(FILE *out, uint32_t index, uint64_t elapsed_ns, uint64_t extractions)
{
	fprintf(out, "plugin %u: %.2f ns/extraction (elapsed time %lluns, extractions %llu)\n", index,
		(double)elapsed_ns / (double)extractions, (unsigned long long)elapsed_ns,
		(unsigned long long)extractions);
}

const char *async_not_in_effect_reason(const struct probe *p)
{
	if (p->gomaxprocs < 2)
		return "GOMAXPROCS < 2: the SDK silently falls back to direct C->Go calls "
		       "(a CPU affinity or quota of one CPU causes this)";
	if (!p->async_configured)
		return "the SDK's async switch was off when the plugin started";
	return "the SDK did not hand the extraction to a worker (reason not reported by the SDK)";
}

static int all_same_mode(const struct run *r, int *mode)
{
	*mode = r->plugins[0].async_in_effect;
	for (uint32_t i = 1; i < r->nplugins; i++)
		if (r->plugins[i].async_in_effect != *mode)
			return 0;
	return 1;
}

static void report_floors(FILE *out, const struct report *rep, double sync_med, double async_med)
{
	char title[128];
	json_t *f = floors_record(rep->f);

	snprintf(title, sizeof(title), "floors (same loop and clock, %llu calls in %u batches, median batch):",
		 (unsigned long long)rep->f->c_call.total_ops, rep->f->c_call.nbatches);
	report_floors_block(out, "# ", title, f, sync_med, async_med);
	json_decref(f);
}

void report_text(FILE *out, const struct report *rep)
{
	const struct options *o = rep->o;
	const struct run *r = rep->r;
	const struct plugin_info *pi = rep->pi;
	int mode;
	double sync_med = NAN, async_med = NAN;

	for (uint32_t i = 0; i < r->nplugins; i++) {
		const struct plugin_run *p = &r->plugins[i];
		report_seed_line(out, p->index, p->batches.total_ns, p->batches.total_ops);
	}
	fprintf(out, "# aggregate: %u plugin%s, %.4g extractions/s, wall time %.3f ms\n", r->nplugins,
		r->nplugins == 1 ? "" : "s", (double)r->requests / ((double)r->wall_ns / 1e9),
		(double)r->wall_ns / 1e6);
	fprintf(out, "# machine: %s, %d online CPUs (%d allowed), Linux %s %s\n", rep->m->cpu_model,
		rep->m->online_cpus, rep->m->allowed_cpus, rep->m->kernel, rep->m->arch);
	{
		char path[PATH_MAX];
		const char *name;
		allocator_in_effect(path, sizeof(path), &name);
		fprintf(out, "# allocator: %s (malloc served by %s)\n", name, path);
	}
	fprintf(out, "# plugin: %s (plugin_init in %s), %s, plugin-sdk-go %s, GOMAXPROCS=%d, SDK handle limit %d\n",
		pi->lib_kind, pi->lib_path, pi->go_version, pi->sdk_version,
		(int)r->plugins[0].before.gomaxprocs, pi->max_handle);
	if (all_same_mode(r, &mode)) {
		fprintf(out, "# mode: %s requested, %s in effect (verified: Extract ran on %s)\n",
			o->async ? "async" : "sync", mode ? "async" : "sync",
			mode ? "another thread than the caller's" : "the calling thread");
	} else {
		fprintf(out, "# mode: %s requested, in effect per plugin (verified) below\n",
			o->async ? "async" : "sync");
	}
	if (o->async && !r->plugins[0].async_in_effect)
		fprintf(out, "# async not in effect: %s\n", async_not_in_effect_reason(&r->plugins[0].before));
	fprintf(out, "# work: %s, %u field%s per call, %u batches of ~%llu, warm-up %llu\n", work_name(o->work),
		o->fields, o->fields == 1 ? "" : "s", o->runs, (unsigned long long)(o->n / o->runs),
		(unsigned long long)o->warmup);
	if (o->extra_ns)
		fprintf(out, "# extra cost: %llu ns busy loop inside every Extract (--extra-ns)\n",
			(unsigned long long)o->extra_ns);
	for (uint32_t i = 0; i < r->nplugins; i++) {
		const struct plugin_run *p = &r->plugins[i];
		char pin[32];

		if (p->pinned_cpu >= 0)
			snprintf(pin, sizeof(pin), "pinned to CPU %d", p->pinned_cpu);
		else
			snprintf(pin, sizeof(pin), "not pinned");
		fprintf(out, "# plugin %u: %s; caller thread %d on CPU %d..%d (%s); Extract on thread %llu CPU %llu\n",
			p->index, p->async_in_effect ? "async" : "sync", (int)p->caller_tid,
			p->caller_cpu_first, p->caller_cpu_last, pin, (unsigned long long)p->after.tid,
			(unsigned long long)p->after.cpu);
		fprintf(out, "# plugin %u: cold %.1f us; batches median %.2f ns/extraction, slowest %.2f, stalls %u of %u\n",
			p->index, (double)p->cold_ns / 1e3, p->median_per_op, p->slowest_per_op, p->stalls,
			p->batches.nbatches);
		if (p->async_in_effect)
			async_med = isnan(async_med) ? p->median_per_op : async_med;
		else
			sync_med = isnan(sync_med) ? p->median_per_op : sync_med;
	}
	{
		double requests = (double)r->requests;
		char steal[32], migs[32];

		fprintf(out, "# cpu: %.2f cpu-ns/extraction (callers %.2f, other threads %.2f)\n",
			(double)r->process_cpu_ns / requests, (double)r->callers_cpu_ns / requests,
			((double)r->process_cpu_ns - (double)r->callers_cpu_ns) / requests);
		if (r->steal_ticks < 0)
			snprintf(steal, sizeof(steal), "unknown");
		else
			snprintf(steal, sizeof(steal), "%.1f ms",
				 (double)r->steal_ticks * 1000.0 / (double)r->clock_ticks);
		if (r->migrations < 0)
			snprintf(migs, sizeof(migs), "unknown");
		else
			snprintf(migs, sizeof(migs), "%lld", (long long)r->migrations);
		fprintf(out, "# noise: steal %s, context switches per 1000 requests %.3f voluntary + %.3f involuntary, caller migrations %s\n",
			steal, 1000.0 * (double)r->vol_switches / requests,
			1000.0 * (double)r->invol_switches / requests, migs);
		if (r->c_counted)
			fprintf(out, "# c allocations: %llu mallocs, %llu frees over the timed batches, all threads (%.4f and %.4f per extraction)\n",
				(unsigned long long)r->c_mallocs, (unsigned long long)r->c_frees,
				(double)r->c_mallocs / requests, (double)r->c_frees / requests);
		fprintf(out, "# go allocations: %llu objects, %llu bytes over the timed batches, all threads (%.3f objects, %.1f bytes per extraction)\n",
			(unsigned long long)r->go_allocs, (unsigned long long)r->go_alloc_bytes,
			(double)r->go_allocs / requests, (double)r->go_alloc_bytes / requests);
	}
	if (rep->f)
		report_floors(out, rep, sync_med, async_med);
}

/* The lifecycle text: one line per plugin thread and scenario. */
void report_lifecycle_text(FILE *out, const struct report *rep)
{
	const struct run *r = rep->r;
	const char *scen = scenario_name(r->scenario);

	for (uint32_t i = 0; i < r->nplugins; i++) {
		const struct plugin_run *p = &r->plugins[i];
		report_iteration_line(out, scen, p->index, p->batches.total_ns, p->batches.total_ops);
	}
	if (r->scenario == SCEN_ALLOC)
		fprintf(out, "# alloc: per iteration plugin_init, one extraction, plugin_destroy (init and destroy serialized)%s\n",
			r->plugins[0].async_in_effect
				? "; async is in effect, so every iteration starts and stops the SDK's async worker"
				: "");
	else
		fprintf(out, "# reuse: per iteration an instance taken from a pool of %u, one extraction, given back; %llu takes waited for an instance\n",
			rep->o->pool, (unsigned long long)r->pool_waits);
	if (r->c_counted)
		fprintf(out, "# %s: C-side %.3f mallocs and %.3f frees per iteration (all threads)\n", scen,
			(double)r->c_mallocs / (double)r->requests,
			(double)r->c_frees / (double)r->requests);
	fprintf(out, "# %s: Go %.3f objects, %.1f bytes allocated per iteration\n", scen,
		(double)r->go_allocs / (double)r->requests,
		(double)r->go_alloc_bytes / (double)r->requests);
}
