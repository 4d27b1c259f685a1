/* report/text_topology.c — --topology: the classes of the CPUs this
 * process may use relative to the caller's, one CPU of each named, and the
 * command that would measure the crossing to it; with --floors, the
 * sweep's table of what was measured per class. */
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

/* "160.23 [150.10, 170.31]" */
static const char *fig_text(const struct topo_fig *f, char *buf, size_t len)
{
	snprintf(buf, len, "%.2f [%.2f, %.2f]", f->median, f->min, f->max);
	return buf;
}

void report_topology_sweep_text(FILE *out, int caller, const struct topo_sweep_row *rows, int nrows,
				const struct topo_fig *sync, unsigned long long n, unsigned batches)
{
	char rt[64], as[64], sy[64];

	fprintf(out,
		"# topology sweep: the caller on CPU %d; per class, async noop with the worker side held on one CPU "
		"of it (--worker-cpu, verified) and the cache-line round trip between the two CPUs (the async "
		"floor), one launch each; %llu calls in %u batches: median [fastest, slowest batch], ns\n",
		caller, n, batches);
	fprintf(out, "%-14s %4s  %-28s %-28s %8s %10s  %s\n", "class", "cpu", "round trip", "async noop", "async/rt",
		"async/sync", "workers seen");
	for (int i = 0; i < nrows; i++) {
		char w[48];
		if (rows[i].workers < 0)
			snprintf(w, sizeof(w), "not counted");
		else if (rows[i].worker_ran_on >= 0)
			snprintf(w, sizeof(w), "%d, on CPU %d", rows[i].workers, rows[i].worker_ran_on);
		else
			snprintf(w, sizeof(w), "%d, on several CPUs", rows[i].workers);
		fprintf(out, "%-14s %4d  %-28s %-28s %8.2f %10.2f  %s\n", cpu_class_name(rows[i].cls), rows[i].cpu,
			fig_text(&rows[i].roundtrip, rt, sizeof(rt)), fig_text(&rows[i].async, as, sizeof(as)),
			rows[i].async.median / rows[i].roundtrip.median, rows[i].async.median / sync->median, w);
	}
	fprintf(out, "# sync noop, on the caller's CPU (no worker, no class): %s\n", fig_text(sync, sy, sizeof(sy)));
	fprintf(out, "# each figure is one launch, the launches one after another: a spell of the machine between "
		     "them moves a row; compare within a row (async/rt), and rows of one run\n");
}
