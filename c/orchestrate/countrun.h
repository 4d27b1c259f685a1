/* orchestrate/countrun.h — the counted runs of orchestrate/count.h: a
 * cell's launch (a plan's variant, as child_args makes its argument list;
 * or one floor's loop, --count-floor) under a counting tool, at the two
 * lengths of a pair, as child processes of orchestrate/child.h. */
#ifndef CGOCOST_ORCHESTRATE_COUNTRUN_H
#define CGOCOST_ORCHESTRATE_COUNTRUN_H

#include <stddef.h>

#include "model/model.h"

struct variant;

/* name's path in PATH; 0, or -1 when no executable file of that name is
 * on it. */
int count_find_tool(const char *name, char *path, size_t len);

/* One pair of counted runs of v (floor: 0, or 1 + the floor's kind) under
 * the tool's arguments pre (npre of them; pre[0] the tool), at -n
 * r->n_short and -n r->n_long: at once when the cell is one thread that
 * waits for no other, else one after the other; run again, at most twice
 * (said on stderr), when a caller stalled. errors[is_long] get each run's
 * stderr (malloc'd); with output, the first run's stdout (the longer when
 * long_first). EXIT_OK, or EXIT_RUN_FAILED with why (nothing left to
 * free). */
int count_pair(const char *const *pre, int npre, const struct options *o, const struct variant *v, int floor,
	       const struct counts_rec *r, int long_first, char *errors[2], char **output, char *why, size_t whylen);

#endif
