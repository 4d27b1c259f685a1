/* analyse/decisions.h — what a run says about the six choices a plugin's
 * author makes (async, link, language, pooling, malloc, toolchain), read
 * off the ratios and changes the run measured, never off what it did not.
 *
 * Each decision rests on one figure, a ratio and its interval at the
 * document's level (a paired run's estimate and signed-rank interval, else
 * the ratio's median and its interval over launches):
 *   async    <- "async/sync lib=archive wall" (--compare), or your plugin's
 *               "async/sync plugin=FILE wall" (--compare --plugin FILE
 *               --sync-config --async-config)
 *   link     <- "shared/archive mode=sync wall" (--compare)
 *   language <- "go sync/c lib=archive wall" (--compare)
 *   pooling  <- "reuse/alloc lib=L mode=M wall" (--scenario lifecycle)
 *   malloc   <- each allocator's change against glibc (--allocators), as
 *               the ratio 1 + change, judged by its verdict's two gates
 *   toolchain: never by one bench run ("make matrix").
 * A ratio whose interval holds 1 (a change within the threshold band)
 * answers "no difference measured"; a figure without an interval (too few
 * samples) answers that it cannot tell; a figure the run did not measure
 * is not answered: measured 0 and the command that would measure it. */
#ifndef CGOCOST_ANALYSE_DECISIONS_H
#define CGOCOST_ANALYSE_DECISIONS_H

#include "model/model.h"

#define DECISION_NO_DIFFERENCE "no difference measured"
#define DECISION_TOO_FEW       "too few samples to tell"

/* Fills d->decisions with the DECISION_KEYS decisions, in their order,
 * from d's ratios (d analysed; paired ratios when d->has_paired) and its
 * cells' changes against glibc. 0, or -1 when out of memory. */
int decide(struct doc *d);

#endif
