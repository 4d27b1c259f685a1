/* report/text_warnings.c — the warnings of report/text.h: a fixed set of
 * sentences, each saying what to do, made from the document alone. */
#include "report/text.h"

#include <string.h>

void report_warnings(FILE *err, const struct doc *d)
{
	if (d->options.method == METHOD_COUNTED)
		return; /* the counting gate: its launches ran under valgrind, judged by counts */
	for (size_t i = 0; i < d->ncells; i++) {
		const struct cell_rec *cell = &d->cells[i];
		const stats_summary *st = &cell->st.time.s;
		const struct launch_rec *l0 = cell->nlaunches ? &cell->launches[0] : NULL;
		size_t out = st->low_severe + st->low_mild + st->high_mild + st->high_severe;
		size_t callers = l0 ? l0->ncallers : 0;
		size_t workers = l0 && strcmp(l0->mode_in_effect, "sync") != 0 ? l0->async_workers : 0;
		/* a --busy library's own thread spins beside the callers */
		for (size_t k = 0; l0 && k < l0->nlibraries; k++)
			callers += strcmp(l0->libraries[k].role, "busy") == 0;
		char who[MODEL_NAME_MAX + 4] = "";

		if (d->ncells > 1)
			snprintf(who, sizeof(who), "%s: ", cell->name);
		if (st->n < STATS_MIN_CI_SAMPLES && !cell->has_latency)
			fprintf(err,
				"warning: %s%zu samples are too few for a 95%% interval of the median (need >= %d); use more %s\n",
				who, st->n, STATS_MIN_CI_SAMPLES,
				d->has_paired ? "--time (a paired run's samples are its generations)"
					      : "--launches or -r");
		if (st->n > 0 && (double)out / (double)st->n > 0.1 && !cell->has_latency)
			fprintf(err,
				"warning: %s%zu of %zu samples are outliers: the machine was noisy; rerun, or use more --launches\n",
				who, out, st->n);
		if (callers + workers > (size_t)d->machine.online_cpus)
			fprintf(err,
				"warning: %sthis run spins %zu threads (%zu callers%s) on %d online CPUs: it measures the scheduler as much as the crossing; use fewer plugins or sync\n",
				who, callers + workers, callers, workers > 0 ? " + the SDK's async workers" : "",
				d->machine.online_cpus);
		if (cell->st.stalled_batches > 0 && !cell->has_latency) /* the latency lines say more */
			fprintf(err,
				"warning: %s%llu of %llu %s stalled (1 ms or more slower than the median batch): an async worker slept, the Go GC ran, or a thread was descheduled; compare the slowest batch with the median\n",
				who, (unsigned long long)cell->st.stalled_batches, (unsigned long long)cell->st.batches,
				d->has_paired ? "blocks" : "batches");
		if (cell->has_latency && cell->latency.achieved_rate < 0.95 * cell->latency.requested_rate)
			fprintf(err,
				"warning: %sthe host could not keep up: %.1f requests/s achieved of %g asked; latencies include the backlog; ask for a lower --rate\n",
				who, cell->latency.achieved_rate, cell->latency.requested_rate);
		if (cell->reason[0])
			fprintf(err, "warning: %sasync was requested but is not in effect: %s\n", who, cell->reason);
	}
}
