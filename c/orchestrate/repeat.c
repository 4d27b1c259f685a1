/* orchestrate/repeat.c — see repeat.h. */
#include "orchestrate/repeat.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/selfpath.h"
#include "base/status.h"
#include "model/codec.h"
#include "orchestrate/child.h"
#include "orchestrate/plan.h"
#include "stats/stats.h"

static void keep_first(char *slot, size_t len, const char *why)
{
	if (slot[0] == '\0')
		snprintf(slot, len, "%.*s", (int)(len - 1), why);
}

/* A finished load: its libraries (the first time) and load times. -1 when
 * the child printed no document of a load: it exited 0 before the end (a
 * library calling exit), which is no finished load. */
static int take_load(struct repeat_rec *rr, const char *out, double *load_ns, size_t k)
{
	struct doc d;
	char why[256];
	const struct launch_rec *l;

	if (doc_loads(&d, out, strlen(out), why, sizeof(why)) != 0)
		return -1;
	if (d.ncells == 0 || d.cells[0].nlaunches == 0) {
		doc_free(&d);
		return -1;
	}
	l = &d.cells[0].launches[0];
	rr->go_runtimes = l->go_runtimes;
	if (rr->libraries == NULL && l->nlibraries) {
		rr->libraries = calloc(l->nlibraries, sizeof(*rr->libraries));
		if (rr->libraries) {
			memcpy(rr->libraries, l->libraries, l->nlibraries * sizeof(*rr->libraries));
			rr->nlibraries = l->nlibraries;
		}
	}
	for (size_t i = 0; i < l->nlibraries && i < OPT_MAX_LIBS + 2; i++)
		load_ns[i * OPT_MAX_REPEAT_LOAD + k] = l->libraries[i].has_load ? (double)l->libraries[i].load_ns : -1;
	doc_free(&d);
	return 0;
}

/* Each library's load time: the median over the loads that finished. */
static void load_medians(struct repeat_rec *rr, double *load_ns, size_t nok)
{
	for (size_t i = 0; i < rr->nlibraries; i++) {
		double *x = &load_ns[i * OPT_MAX_REPEAT_LOAD];
		size_t n = 0;
		for (size_t k = 0; k < nok; k++)
			if (x[k] >= 0)
				x[n++] = x[k];
		if (n && rr->libraries[i].has_load)
			rr->libraries[i].load_ns = (uint64_t)stats_median(x, n);
	}
}

int repeat_load_run(const struct options *o, struct repeat_rec *rr, char *err, size_t errlen)
{
	struct variant v;
	struct options co = *o;
	char *argv[96], store[16384], why[600];
	double *load_ns = calloc((OPT_MAX_LIBS + 2) * (size_t)OPT_MAX_REPEAT_LOAD, sizeof(double));
	int tty = isatty(2), status = EXIT_OK;

	memset(rr, 0, sizeof(*rr));
	rr->go_runtimes = -1;
	memset(&v, 0, sizeof(v));
	co.repeat_load = 0;
	v.async = o->async;
	if (load_ns == NULL || self_path(v.exe, sizeof(v.exe)) != 0 ||
	    child_args(&co, &v, argv, 96, store, sizeof(store)) < 0) {
		free(load_ns);
		snprintf(err, errlen, "cannot prepare the loads");
		return EXIT_RUN_FAILED;
	}
	for (uint32_t k = 0; k < o->repeat_load; k++) {
		struct child c;
		if (tty)
			fprintf(stderr, "\r\033[Kload %u/%u", k + 1, o->repeat_load);
		enum child_kind kind = child_run(&c, argv, why, sizeof(why));
		rr->loads++;
		switch (kind) {
		case CHILD_OK:
			if (take_load(rr, c.output ? c.output : "", load_ns, rr->ok) == 0) {
				rr->ok++;
				break;
			}
			rr->failed++;
			keep_first(rr->failure, sizeof(rr->failure),
				   "exit 0 without the document of a finished load (the process ended early: "
				   "a library calling exit?)");
			break;
		case CHILD_BAD_INPUT:
			snprintf(err, errlen, "%s", why);
			status = EXIT_BAD_INPUT;
			break;
		case CHILD_CRASHED:
			rr->crashed++;
			keep_first(rr->crash, sizeof(rr->crash), why);
			break;
		case CHILD_PANICKED:
			rr->panicked++;
			keep_first(rr->panic, sizeof(rr->panic), why);
			break;
		case CHILD_HUNG:
		case CHILD_STALLED:
			rr->hung++;
			keep_first(rr->hang, sizeof(rr->hang), why);
			break;
		case CHILD_FAILED:
			rr->failed++;
			keep_first(rr->failure, sizeof(rr->failure), why);
			break;
		}
		child_close(&c);
		if (status == EXIT_BAD_INPUT)
			break;
	}
	if (tty)
		fprintf(stderr, "\r\033[K");
	load_medians(rr, load_ns, rr->ok);
	free(load_ns);
	if (status == EXIT_OK && rr->ok != rr->loads)
		status = EXIT_RUN_FAILED;
	return status;
}
