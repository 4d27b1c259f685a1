/* report/format.c — see format.h. */
#include "report/format.h"

#include <math.h>

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

void report_machine_lines(FILE *out, const struct doc *d, const struct cell_rec *c)
{
	const struct machine_rec *m = &d->machine;

	fprintf(out, "# machine: %s, %d online CPUs (%d allowed), Linux %s %s\n", m->cpu_model, m->online_cpus,
		m->allowed_cpus, m->kernel, m->arch);
	fprintf(out, "# plugin: %s (plugin_init in %s), %s, plugin-sdk-go %s, GOMAXPROCS=%d, SDK handle limit %d\n",
		c->lib, c->library[0] ? c->library : c->executable, c->go_version, c->sdk_version, c->gomaxprocs,
		c->max_handle);
}
