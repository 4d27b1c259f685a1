/* cli/fit.c — --fit FILE...: saved JSON documents of paired --compare runs
 * read back (store/baseline.h), every generation of every document a point
 * (round trip, async) per library (analyse/roundtrip.h), one line through
 * them all, reported as text (report/text.h). Nothing is measured: the
 * line is for documents of runs at different times, across which the
 * round trip moves more than within one run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyse/roundtrip.h"
#include "base/status.h"
#include "cli/cli.h"
#include "report/text.h"
#include "stats/stats.h"
#include "store/baseline.h"

/* The points of library lib over every document appended to f; its line. */
static int lib_line(struct doc *docs, int n, const char *lib, struct fit_line *f)
{
	size_t total = 0, at = 0;
	double *rt, *as, *sync;
	int nsync = 0;

	for (int i = 0; i < n; i++)
		total += docs[i].paired.ngenerations;
	rt = malloc((total + 1) * sizeof(double));
	as = malloc((total + 1) * sizeof(double));
	sync = malloc(((size_t)n + 1) * sizeof(double));
	if (rt == NULL || as == NULL || sync == NULL) {
		free(rt), free(as), free(sync);
		return -1;
	}
	memset(f, 0, sizeof(*f));
	snprintf(f->line.lib, sizeof(f->line.lib), "%s", lib);
	for (int i = 0; i < n; i++) {
		int got = roundtrip_points(&docs[i].paired, lib, rt + at, as + at);
		at += (size_t)got;
		for (size_t k = 0; got > 0 && k < docs[i].paired.roundtrip.nlibs; k++)
			if (strcmp(docs[i].paired.roundtrip.libs[k].lib, lib) == 0 &&
			    isfinite(docs[i].paired.roundtrip.libs[k].sync_ns))
				sync[nsync++] = docs[i].paired.roundtrip.libs[k].sync_ns;
	}
	f->points = at;
	f->rt_min = INFINITY;
	f->rt_max = -INFINITY;
	for (size_t k = 0; k < at; k++) {
		f->rt_min = fmin(f->rt_min, rt[k]);
		f->rt_max = fmax(f->rt_max, rt[k]);
	}
	f->sync_ns = nsync ? stats_median(sync, (size_t)nsync) : NAN;
	roundtrip_fit(&f->line, rt, as, at);
	free(rt), free(as), free(sync);
	return at > 0;
}

/* A document given twice would count its generations twice, and pass the
 * rule of generations a line needs with repeated points: the same file,
 * however spelt (./../x/c.json, a link), is its device and inode. 1 when
 * refused, said. */
static int same_file_twice(const struct options *o)
{
	struct stat st[OPT_MAX_FIT];

	for (int i = 0; i < o->nfit; i++) {
		if (stat(o->fit[i], &st[i]) != 0) {
			st[i].st_ino = 0; /* unreadable: its loader says why */
			continue;
		}
		for (int j = 0; j < i; j++)
			if (st[j].st_ino != 0 && st[j].st_dev == st[i].st_dev && st[j].st_ino == st[i].st_ino) {
				fprintf(stderr,
					"%s: --fit %s and --fit %s are the same file: each document counts once (see %s "
					"--help)\n",
					prog, o->fit[j], o->fit[i], prog);
				return 1;
			}
	}
	return 0;
}

int run_fit(const struct options *o)
{
	static const char *const libs[] = { "archive", "shared" };
	struct doc *docs = calloc((size_t)o->nfit + 1, sizeof(*docs));
	const struct roundtrip_rec *rts[OPT_MAX_FIT];
	struct fit_line lines[2];
	char err[1024];
	int nlines = 0, status = EXIT_OK, loaded = 0;

	if (docs == NULL) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return EXIT_RUN_FAILED;
	}
	if (same_file_twice(o)) {
		free(docs);
		return EXIT_BAD_INPUT;
	}
	for (; loaded < o->nfit && status == EXIT_OK; loaded++) {
		struct doc *d = &docs[loaded];
		if (baseline_load(o->fit[loaded], d, err, sizeof(err)) != 0) {
			fprintf(stderr, "%s: --fit: %s (see %s --help)\n", prog, err, prog);
			status = EXIT_BAD_INPUT;
		} else if (!d->has_paired || !d->paired.has_roundtrip || d->paired.roundtrip.ngen == 0) {
			fprintf(stderr,
				"%s: --fit: %s is no paired --compare document with the round-trip cell (save one with "
				"bench --compare --format json) (see %s --help)\n",
				prog, o->fit[loaded], prog);
			status = EXIT_BAD_INPUT;
		}
		rts[loaded] = &d->paired.roundtrip;
	}
	for (int k = 0; status == EXIT_OK && k < 2; k++) {
		int rc = lib_line(docs, o->nfit, libs[k], &lines[nlines]);
		if (rc < 0) {
			fprintf(stderr, "%s: out of memory\n", prog);
			status = EXIT_RUN_FAILED;
		}
		nlines += rc > 0;
	}
	if (status == EXIT_OK)
		report_fit_text(stdout, o->fit, rts, o->nfit, lines, nlines);
	for (int i = 0; i < loaded; i++)
		doc_free(&docs[i]);
	free(docs);
	return status;
}
