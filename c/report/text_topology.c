/* report/text_topology.c — --topology: the classes of the CPUs this
 * process may use relative to the caller's, one CPU of each named, and the
 * command that would measure the crossing to it. Nothing is measured. */
#include <stdio.h>

#include "report/text.h"

static const char *class_meaning(enum cpu_class c)
{
	switch (c) {
	case CPU_SELF:
		return "the caller's own CPU";
	case CPU_SMT_SIBLING:
		return "another hardware thread of the caller's core (its L1 and L2 shared)";
	case CPU_SAME_LLC:
		return "another core sharing the caller's last-level cache";
	case CPU_OTHER_LLC:
		return "the same package, another last-level cache (a CCX, a die)";
	case CPU_OTHER_PACKAGE:
		return "another package (socket)";
	default:
		return "no topology files: where it sits cannot be told";
	}
}

void report_topology_text(FILE *out, int caller, int ncpus, const struct topo_class_row *rows, int nrows)
{
	int absent = 0;

	fprintf(out,
		"# topology: the %d CPU%s this process may use, by where they sit relative to the caller's CPU %d "
		"(/sys/devices/system/cpu)\n",
		ncpus, ncpus == 1 ? "" : "s", caller);
	fprintf(out, "%-14s %5s %8s  %s\n", "class", "cpus", "example", "meaning");
	for (int i = 0; i < nrows; i++)
		fprintf(out, "%-14s %5d %8d  %s\n", cpu_class_name(rows[i].cls), rows[i].count, rows[i].example,
			class_meaning(rows[i].cls));
	fprintf(out, "# absent:");
	for (int c = CPU_SMT_SIBLING; c < CPU_UNKNOWN; c++) {
		int here = 0;
		for (int i = 0; i < nrows; i++)
			here |= rows[i].cls == (enum cpu_class)c;
		if (!here)
			fprintf(out, "%s %s", absent++ ? "," : "", cpu_class_name((enum cpu_class)c));
	}
	fprintf(out, "%s\n", absent ? "" : " none");
	if (nrows == 1 && rows[0].cls == CPU_SELF)
		fprintf(out, "# no other CPU: no crossing to measure (the async worker shares the caller's CPU)\n");
	for (int i = 0; i < nrows; i++)
		if (rows[i].cls != CPU_SELF)
			fprintf(out, "# measure %s: bench -a --cpus %d --worker-cpu %d --floors\n",
				cpu_class_name(rows[i].cls), caller, rows[i].example);
}
