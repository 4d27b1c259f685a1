/* cli/topology.c — --topology: the CPUs this process may use, by class
 * relative to the caller's (base/topology.h), reported as text; the table
 * a sweep by class would measure. Nothing is measured. */
#include <stdio.h>

#include "base/status.h"
#include "base/topology.h"
#include "cli/cli.h"
#include "report/text.h"

int run_topology(const struct options *o, const struct machine *m)
{
	struct topo_class_row rows[CPU_CLASSES];
	int caller = o->ncpus ? o->cpus[0] : m->allowed_cpus > 0 ? m->allowed[0] : -1, nrows;

	if (caller < 0) {
		fprintf(stderr, "%s: --topology: this process may use no CPU it can name\n", prog);
		return EXIT_RUN_FAILED;
	}
	nrows = topology_table("/", caller, m->allowed, m->allowed_cpus, rows);
	report_topology_text(stdout, caller, m->allowed_cpus, rows, nrows);
	return EXIT_OK;
}
