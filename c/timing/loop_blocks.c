/* timing/loop_blocks.c — the served blocks (see loops.h): a paired run's
 * child answers block requests over its pipes (blocks.h) in place of the
 * batches. */
#include <stdatomic.h>
#include <stdio.h>

#include "base/sysinfo.h"
#include "plugin/sdkslot.h"
#include "timing/blocks.h"
#include "timing/loops.h"
#include "timing/runner.h"

/* A paired run's child: blocks on command, in place of the batches. */
void loop_blocks(struct job *j, uint64_t *evt, double per_op, int *dead)
{
	const struct options *o = j->sh->o;
	struct plugin_run *pr = j->pr;
	struct block_server b = {
		.x = j->x,
		.s = &pr->batches,
		.at_ns = &j->progress->at_ns,
		.calls = blocks_calls(o->serve_blocks_ns, o->n, per_op),
		.every = o->slowdown_pct ? (uint32_t)(100 / o->slowdown_pct) : 0,
		.async_in_effect =
			PROBE_KNOWN(&pr->before, PROBE_TID) ? pr->before.tid != (uint64_t)pr->caller_tid : -1,
	};
	char why[160];

	/* no probe fields: the SDK's own state, if the library has one */
	if (b.async_in_effect < 0 && j->x)
		b.async_in_effect = sdk_async_in_effect((const void *)j->x->lib->syms.init, j->x->s, why, sizeof(why));

	if (*dead)
		return;
	/* the caller alone on its CPU, the async worker and the runtime's
	 * threads on the others: the same placement in every paired process */
	if (pr->pinned_cpu >= 0 && pin_others_away(pr->caller_tid, pr->pinned_cpu) < 0) {
		pr->failed = 1;
		snprintf(pr->error, sizeof(pr->error), "plugin %u: cannot move the other threads off CPU %d", pr->index,
			 pr->pinned_cpu);
		*dead = 1;
		return;
	}
	/* the watchdog's slack: 20 blocks */
	atomic_store(&j->progress->slack_ns, (uint64_t)(20.0 * per_op * (double)b.calls));
	if (blocks_serve(&b, evt) != 0) {
		if (b.error[0]) {
			pr->failed = 1;
			snprintf(pr->error, sizeof(pr->error), "plugin %u: %s", pr->index, b.error);
		} else {
			runner_fail(pr, "timed", b.failed_evt, b.status);
		}
		*dead = 1;
	}
	pr->lead_in_extractions = b.lead_calls + b.extra_calls; /* untimed as calls: the count check needs them */
	pr->blocks_cpu_ns = b.cpu_ns;
}
