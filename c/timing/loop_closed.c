/* timing/loop_closed.c — the closed loop (see loops.h): the caller's timed
 * batches, each the next extraction as soon as the last one returned. */
#include <stdatomic.h>

#include "base/clock.h"
#include "timing/loops.h"
#include "timing/runner.h"
#include "timing/series.h"

/* The timed batches: nothing in the loop but the call and its check. */
void loop_closed(struct job *j, uint64_t *evt, double per_op, int *dead)
{
	struct plugin_run *pr = j->pr;
	uint64_t e = *evt;
	int st = EXTRACT_OK;
	uint32_t every = j->sh->o->slowdown_pct ? 100 / j->sh->o->slowdown_pct : 0, left = every;

	(void)per_op; /* the batches' sizes are fixed: -n / -r */
	for (uint32_t b = 0; !*dead && b < pr->batches.nbatches; b++) {
		uint64_t end = e + pr->batches.ops[b], t0 = now_ns(), t1;
		if (j->sh->scen == SCEN_EXTRACT && every) {
			/* --slowdown-pct: the same event once more after every
			 * `every` calls, counted with the untimed ones */
			for (; e < end; e++) {
				st = extractor_extract(j->x, e);
				if (--left == 0 && st == EXTRACT_OK) {
					left = every;
					st = extractor_extract(j->x, e);
					pr->lead_in_extractions++;
				}
				if (__builtin_expect(st != EXTRACT_OK, 0))
					break;
			}
		} else if (j->sh->scen == SCEN_EXTRACT) {
			for (; e < end; e++) {
				st = extractor_extract(j->x, e);
				if (__builtin_expect(st != EXTRACT_OK, 0))
					break;
			}
		} else {
			for (; e < end; e++) {
				st = iteration(j, e);
				if (__builtin_expect(st != EXTRACT_OK, 0))
					break;
			}
		}
		t1 = now_ns();
		series_add(&pr->batches, b, t1 - t0);
		atomic_store_explicit(&j->progress->at_ns, t1, memory_order_relaxed);
		if (e != end) {
			runner_fail(pr, "timed", e, st);
			*dead = 1;
		}
	}
	*evt = e;
}
