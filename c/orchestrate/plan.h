/* orchestrate/plan.h — the orchestrate layer's main header. The layer owns
 * measurement spread over processes: every child goes through one API
 * (child.h: spawn, pipes, process group, parent-death signal, reaping,
 * how it ended, interrupts), a child's arguments (childargs.h), launches
 * (launch.h), the plan below, paired rounds (pairs.h), sweeps (sweep.h),
 * repeated loads (repeat.h) and the preloads' re-execution (reexec.h).
 *
 * A plan is a measurement made of several cells (an executable in a mode),
 * each repeated in fresh processes (launches), interleaved round by round
 * so that the machine's drift falls on every cell alike. */
#ifndef CGOCOST_ORCHESTRATE_PLAN_H
#define CGOCOST_ORCHESTRATE_PLAN_H

#include <limits.h>
#include <stddef.h>

#include "model/model.h"

/* A child launch's argument list: at most this many arguments, their text
 * in at most this many bytes (plan_build checks every variant's). */
#define PLAN_MAX_ARGS	80
#define PLAN_ARGS_BYTES 16384

struct variant {
	char exe[PATH_MAX];
	int async;
	const char *malloc_name;   /* NULL: the options' --malloc */
	int work;		   /* enum work, or -1: the options' --work */
	int minimal;		   /* bench-minimal or bench-textbook: the textbook loop, -n and -a, seed lines only */
	char plugin[PATH_MAX];	   /* "": the options' --plugin; else this one library */
	int beside;		   /* --interference: 0 alone, 1 the --busy library idle, 2 busy */
	int base;		   /* the --against build: no injected slowdown reaches it */
	int host_calls;		   /* enum host_calls of a --host-calls both cell; -1: the options' */
	const char *plugin_config; /* the plugin's own configuration of this cell (verbatim; its mode
				    * is async's, verified); NULL: the options' */
	int stalled;		   /* launches that stalled and were run again */
	struct cell_rec *cells;	   /* its cells with their launches, filled by plan_run */
	size_t ncells;
	char *identity; /* what its first launch measured (model/codec_identity.h); malloc'd */
};

struct plan {
	struct variant v[24];
	int nv;
	int nself; /* v[0..nself) are this build; the rest the --against build */
};

/* The cells the options ask for: this build's (one; four with --compare,
 * and a fifth, the C plugin in bench-host, when it is built, and bench
 * --work bare beside the textbook loop, sync and async, when
 * bench-textbook is built, paired and without --against; six with
 * --interference) and, with --against, the same cells of the other build. */
int plan_build(struct plan *p, const struct options *o, char *err, size_t errlen);

/* Runs o->launches rounds; in each round every variant once, in order.
 * Returns EXIT_OK, or the failure's exit status (2 or 3) with a message. */
int plan_run(struct plan *p, const struct options *o, char *err, size_t errlen);

/* Moves the cells of variants [from, to) into a new document d. */
int plan_document(struct plan *p, int from, int to, const struct machine_rec *m, const struct options *o,
		  struct doc *d);

void plan_free(struct plan *p);

/* Adds a child's launches to the variant's cells (the first launch makes
 * them); the cells must be the same, in the same mode, every time. Defined
 * in childmsg.c, with the rest of the reading of a child's messages. */
int plan_merge_launch(struct variant *v, struct doc *child, char *err, size_t errlen);

/* A launch of variant i printed the document text: what it measured (its
 * identity) must be what its first launch measured and, on the --against
 * side, what this build's same variant measured. EXIT_OK, or
 * EXIT_RUN_FAILED with one line naming the cell and what differs (found
 * once the children ran: no verdict is taken from cells that differ). */
int plan_check_identity(struct plan *p, int i, const char *text, char *err, size_t errlen);

/* How long a child may take, in ms, as --stall-timeout S bounds it (-1:
 * S is 0, no bound): S for its own alarm while loading the libraries, S
 * for its watchdog, 10 s to start a process on a loaded machine, and its
 * extractions at PLAN_US_PER_CALL each (PLAN_US_PER_LIBRARY_CALL with a
 * --plugin or --busy library of unknown cost) plus --extra-ns: the
 * warm-up's for a paired child's start-up (whole 0), every one of a
 * launch's (whole 1; and an open loop's --time). The bound of a child's
 * deadline (child.h): past it, a child that keeps using CPU is waited for,
 * up to CHILD_BUSY_MAX_FACTOR times it. */
#define PLAN_US_PER_CALL	 20
#define PLAN_US_PER_LIBRARY_CALL 1000
int plan_bound_ms(const struct options *o, int whole);

/* The argument list of a child launch of a variant (NULL-terminated; the
 * strings live in store). */
int child_args(const struct options *o, const struct variant *v, char **argv, int max, char *store, size_t storelen);

#endif
