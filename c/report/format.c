/* report/format.c — see format.h. */
#include "report/format.h"

#include <math.h>
#include <string.h>

const char *fmt_ns(char *buf, size_t len, double v)
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

const char *fmt_num(char *buf, size_t len, double v, const char *fmt)
{
	if (isnan(v))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, fmt, v);
	return buf;
}

double half_width_pct(const stats_summary *s)
{
	return 100.0 * (s->ci_hi - s->ci_lo) / 2.0 / s->median;
}

void report_seed_line(FILE *out, uint32_t index, uint64_t elapsed_ns, uint64_t extractions)
{
	fprintf(out, "plugin %u: %.2f ns/extraction (elapsed time %lluns, extractions %llu)\n", index,
		(double)elapsed_ns / (double)extractions, (unsigned long long)elapsed_ns,
		(unsigned long long)extractions);
}

void report_iteration_line(FILE *out, const char *scenario, uint32_t index, uint64_t elapsed_ns, uint64_t iterations)
{
	fprintf(out, "%s plugin %u: %.2f ns/iteration (elapsed time %lluns, iterations %llu)\n", scenario, index,
		(double)elapsed_ns / (double)iterations, (unsigned long long)elapsed_ns,
		(unsigned long long)iterations);
}

/* The file that holds the measured plugin_init: known in the measuring
 * process, else the first measured library the launch recorded. */
static const char *plugin_file(const struct cell_rec *c)
{
	if (c->library[0])
		return c->library;
	for (size_t i = 0; c->nlaunches && i < c->launches[0].nlibraries; i++)
		if (strcmp(c->launches[0].libraries[i].role, "measured") == 0)
			return c->launches[0].libraries[i].path;
	return c->executable;
}

void report_machine_lines(FILE *out, const struct doc *d, const struct cell_rec *c)
{
	const struct machine_rec *m = &d->machine;

	fprintf(out, "# machine: %s, %d online CPUs (%d allowed), Linux %s %s\n", m->cpu_model, m->online_cpus,
		m->allowed_cpus, m->kernel, m->arch);
	if (m->has_worker)
		fprintf(out, "# worker side: pinned to CPU %d (--worker-cpu), %s relative to the caller's CPU %d\n",
			m->worker_cpu, m->worker_class, m->caller_cpu);
	if (strcmp(c->go_version, "none") == 0)
		fprintf(out, "# plugin: %s (plugin_init in %s), states no Go version, -p limit %d\n", c->lib,
			plugin_file(c), c->max_handle);
	else
		fprintf(out,
			"# plugin: %s (plugin_init in %s), %s, plugin-sdk-go %s, GOMAXPROCS=%d, SDK handle limit %d\n",
			c->lib, plugin_file(c), c->go_version, c->sdk_version, c->gomaxprocs, c->max_handle);
}
