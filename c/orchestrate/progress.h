/* orchestrate/progress.h — the one line a long run keeps updated on stderr:
 * elapsed against the budget, what is done (generations, launches, rates),
 * and the run's main figure so far with its interval when there is one.
 *
 * Shown when --progress is given, or stderr is a terminal and
 * --no-progress is not; only after the run's first second; at most five
 * times a second; cleared (carriage return, erase line) at the end, so a
 * report that follows starts on a clean line. Only the parent process
 * shows it, between launches or generations, while no block is timed:
 * the callers' timed loops (timing/) never print. */
#ifndef CGOCOST_ORCHESTRATE_PROGRESS_H
#define CGOCOST_ORCHESTRATE_PROGRESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/model.h"
#include "model/options.h"

#define PROGRESS_AFTER_NS UINT64_C(1000000000) /* nothing before the run's first second */
#define PROGRESS_EVERY_NS UINT64_C(200000000)  /* at most five updates a second */
#define PROGRESS_LINE_MAX 512

struct progress {
	FILE *err;	   /* stderr */
	int on;		   /* decided once, at progress_begin */
	int shown;	   /* a line stands on err, to erase */
	int cols;	   /* the terminal's width (0: unknown, no cut) */
	uint64_t t0, last; /* the run's start, the last update (ns) */
	double budget_s;   /* the run's budget (0: none, as many launches as planned) */
};

/* Whether a run shows the line: --progress forces it, --no-progress
 * forbids it, else only on a terminal (err_is_tty). */
int progress_wanted(const struct options *o, int err_is_tty);

/* Starts the clock of p; on or off by progress_wanted(o, isatty(2)). */
void progress_begin(struct progress *p, const struct options *o, double budget_s);

/* The line's text, without the carriage return: "bench: 3.2 s (budget 10 s); " and
 * done ("generation 5, 120 rounds"), then "; " and figure when it is not
 * empty. In buf (len bytes); returns buf. */
const char *progress_text(char *buf, size_t len, double elapsed_s, double budget_s, const char *done,
			  const char *figure);

/* Shows the line (done, figure: as progress_text) when p is on, the run
 * is past its first second and the last update is old enough; else
 * nothing. */
void progress_show(struct progress *p, const char *done, const char *figure);

/* Erases the line if one stands. */
void progress_end(struct progress *p);

/* A paired run's main figure so far: the first judged ratio (--against),
 * else the first ratio, as "name 1.805 [1.042, 3.204]" ("[n/a]" with too
 * few generations for an interval); "" with no ratio. In buf. */
const char *progress_paired_figure(const struct paired_rec *pr, char *buf, size_t len);

#endif
