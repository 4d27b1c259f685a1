/* cli/counting.c — --count after the measurement: the counts of the run's
 * one cell (orchestrate/count.h), each count that could not be taken said
 * in one line; the run goes on to its report. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "base/interrupt.h"
#include "base/selfpath.h"
#include "base/status.h"
#include "cli/cli.h"
#include "orchestrate/count.h"

int run_count(const struct options *o, struct doc *d)
{
	char exe[PATH_MAX], err[1024];
	struct counts_rec *r;
	int status = EXIT_OK;

	if (o->count == 0)
		return EXIT_OK;
	if (d->ncells != 1) {
		fprintf(stderr, "%s: --count: the run measured %zu cells, not one: nothing was counted\n", prog,
			d->ncells);
		return EXIT_RUN_FAILED;
	}
	if (self_path(exe, sizeof(exe)) != 0) {
		fprintf(stderr, "%s: --count: cannot find this executable: nothing was counted\n", prog);
		return EXIT_RUN_FAILED;
	}
	r = &d->cells[0].counts;
	memset(r, 0, sizeof(*r));
	d->cells[0].has_counts = 1;
	interrupt_doing("the counts, after the measurement");
	if ((o->count & COUNT_INSTRUCTIONS) && count_instructions(o, exe, r, err, sizeof(err)) != EXIT_OK) {
		fprintf(stderr, "%s: %s\n", prog, err);
		status = EXIT_RUN_FAILED;
	}
	if ((o->count & COUNT_SYSCALLS) && count_syscalls(o, exe, r, err, sizeof(err)) != EXIT_OK) {
		fprintf(stderr, "%s: %s\n", prog, err);
		status = EXIT_RUN_FAILED;
	}
	return status;
}
