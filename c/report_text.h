/* report_text.h — the human and seed-compatible output: one seed line per
 * plugin on stdout, then '#' lines; warnings on stderr. */
#ifndef CGOCOST_REPORT_TEXT_H
#define CGOCOST_REPORT_TEXT_H

#include <stdio.h>

#include "floors.h"
#include "options.h"
#include "plugin.h"
#include "runner.h"
#include "sysinfo.h"

struct report {
	const struct options *o;
	const struct machine *m;
	const struct plugin_info *pi;
	const struct run *r;
	const struct floors *f; /* NULL when the floors were not measured */
	int async_workers;	/* SDK workers the run uses when async is in effect */
};

/* The seed line, exactly: "plugin 1: 251.21 ns/extraction (elapsed time
 * 25121098ns, extractions 100000)". */
void report_seed_line(FILE *out, uint32_t index, uint64_t elapsed_ns, uint64_t extractions);
/* The lifecycle's line: "alloc plugin 1: 4379.63 ns/iteration (elapsed
 * time 175185076ns, iterations 40000)". */
void report_iteration_line(FILE *out, const char *scenario, uint32_t index, uint64_t elapsed_ns,
			   uint64_t iterations);

void report_text(FILE *out, const struct report *rep);
/* The lifecycle text: one line per caller and scenario (alloc or reuse). */
void report_lifecycle_text(FILE *out, const struct report *rep);

/* Why async was asked for and not in effect, from what the plugin reported. */
const char *async_not_in_effect_reason(const struct probe *p);


#endif
