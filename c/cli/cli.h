/* cli/cli.h — the driver's edge, in three files: setup.c reads the command
 * line and prepares the process (options, run kind, preloads, CPUs, the
 * baseline); kinds.c holds one row per run kind (how it is measured,
 * analysed and reported); main.c runs the pipeline over the row. prog is
 * the executable's name, for messages. */
#ifndef CGOCOST_CLI_CLI_H
#define CGOCOST_CLI_CLI_H

#include <stdio.h>

#include "base/sysinfo.h"
#include "model/model.h"
#include "model/options.h"

extern const char *prog;

/* Parses argv into o and resolves its run kind, then what the run needs of
 * the process before anything is measured: the paths it will use, the
 * allocator preloads (re-executing when they are not in effect), the
 * machine and its CPUs, the baseline into base. Returns EXIT_OK, -1 when
 * --help was printed, or the status to exit with (the message printed). */
int setup(int argc, char **argv, struct options *o, struct machine *m, struct doc *base);

/* What a run of a kind makes at its end. */
enum run_output {
	OUTPUT_REPORT,	 /* analysed, saved if asked, reported; nothing when it failed */
	OUTPUT_DOCUMENT, /* a child launch: its document as JSON, for the parent */
	OUTPUT_AS_IS,	 /* reported as measured, even after a failure (--repeat-load) */
};

struct run_row {
	enum run_kind kind;
	enum run_output output;
	/* this kind's part of the analysis after the statistics, or NULL */
	void (*analyse)(const struct options *o, struct doc *d);
	/* the text report; paired_text instead when the run was paired */
	void (*text)(FILE *out, const struct doc *d);
	void (*paired_text)(FILE *out, const struct doc *d);
};

/* The row of o's resolved kind (never NULL for a resolved run). */
const struct run_row *run_row(const struct options *o);

/* --topology: the CPUs of m by class relative to the caller's, as text on
 * stdout (cli/topology.c); nothing measured. Returns the status. */
int run_topology(const struct options *o, const struct machine *m);
/* --fit: the line through the saved documents' generations (cli/fit.c). */
int run_fit(const struct options *o);

/* measure: by o's method, in this process or in child launches; with
 * --against the other build's cells go to base. Returns the status, the
 * message printed. */
int run_measure(const struct options *o, const struct machine *m, struct doc *d, struct doc *base);

/* --count: the counts of the measured cell, after the measurement
 * (cli/counting.c). EXIT_OK, or EXIT_RUN_FAILED when a count could not be
 * taken (one line printed for each); the rest of the run goes on. */
int run_count(const struct options *o, struct doc *d);

/* analyse and compare: statistics, the kind's own analysis, the verdicts
 * against the base. EXIT_OK or EXIT_RUN_FAILED (printed). */
int run_analyse(const struct options *o, const struct run_row *row, struct doc *d, struct doc *base);

/* The report of d in o's format (text: the row's). */
void run_report(FILE *out, const struct options *o, const struct run_row *row, const struct doc *d);

#endif
