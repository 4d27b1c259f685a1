/* report/text.h — the human and seed-compatible text: one seed line per
 * plugin on stdout, then '#' lines; the --compare, --allocators and
 * comparison tables (text_tables.c); warnings on stderr (text_warnings.c). */
#ifndef CGOCOST_REPORT_TEXT_H
#define CGOCOST_REPORT_TEXT_H

#include <stdio.h>

#include "base/topology.h"
#include "model/model.h"

/* The text of one launch run in this process: seed lines and the detail
 * of the launch (extraction), or the lifecycle's lines. */
void report_run_text(FILE *out, const struct doc *d, const struct cell_rec *c);

/* The cell's mode line (report/text_mode.c): asked, in effect, verified how
 * (or why not, and a spinning worker the threads' CPU suggests). */
void report_mode_text(FILE *out, const struct cell_rec *c, const struct launch_rec *l);

/* One launch of one cell (the seed's run): every cell's text and summary,
 * the same-run ratios and, across --gap-us cells, the idle-gap policy. */
void report_single_text(FILE *out, const struct doc *d);

/* "time:   [67.95 ns 68.10 ns 68.40 ns]" and its companions for one cell;
 * brief: only the time, spread and outlier lines. */
void report_cell_summary(FILE *out, const struct doc *d, const struct cell_rec *c, int brief);

/* A multi-launch run: per cell the seed lines (totals over launches) and
 * the summary; then the machine, the mode, the floors and the ratios. */
void report_launches_text(FILE *out, const struct doc *d);

/* The same-run ratios, and for the lifecycle the saving of reuse. */
void report_ratios_text(FILE *out, const struct doc *d);

/* The floors and what they explain: sync as crossing + dispatch and async
 * as a multiple of the round trip (NAN medians: that reading is left out).
 * Every line starts with prefix. */
void report_floors_block(FILE *out, const char *prefix, const char *title, const struct floors_rec *f, double sync_med,
			 double async_med);
/* The floors of a cell over its launches, on one line with their spreads. */
void report_floors_line(FILE *out, const struct floors_rec *f);

/* The block that opens a report comparing cells: "answers (...):", a line
 * per decision the run measured (question, answer, figure with its
 * interval, "flips when:" and the condition, the words of the markdown
 * export), the verdict against a base when there is one, or one line
 * saying no decision was measured; then a blank line. Returns the lines
 * of answers written (decisions and verdict). */
size_t report_answers_text(FILE *out, const struct doc *d);

/* The --compare table: cells (the C plugin's too), ratios, floors. */
void report_compare_text(FILE *out, const struct doc *d);
/* The --interference table: plugin A alone, beside B idle, beside B busy. */
void report_interference_text(FILE *out, const struct doc *d);
/* --anatomy: the work steps per mode with their per-round increments, the
 * harness check (bench / minimal) and the reading. */
void report_anatomy_text(FILE *out, const struct doc *d);
/* --allocators: scenario x allocator, median and interval, change against glibc. */
void report_allocators_text(FILE *out, const struct doc *d);
/* A paired run: how it was made, its cells and its ratios over generations. */
void report_paired_text(FILE *out, const struct doc *d);

/* Your plugin's --compare of its two configurations (text_ownplugin.c):
 * the paired table, each cell's verified mode, the async decision line. */
void report_plugin_compare_text(FILE *out, const struct doc *d);
/* The comparison against a base and the verdict, when there is one. */
void report_comparison_text(FILE *out, const struct doc *d);

/* --per-event: the event's K fields, how they were asked for, the calls the
 * plugin counted, ns per event and per field (text_perevent.c). */
void report_per_event_text(FILE *out, const struct cell_rec *c, const struct launch_rec *l);
/* --host-calls both, paired: the paired report, then each cell per event
 * and per field, and batched/per-field per mode with its interval. */
void report_per_event_paired_text(FILE *out, const struct doc *d);
/* The libraries of a launch and the Go runtimes of its process; prefix
 * starts every line. */
void report_libraries_text(FILE *out, const char *prefix, const struct launch_rec *l);
/* --repeat-load: outcomes by kind, the first message of each, load costs. */
void report_repeat_text(FILE *out, const struct doc *d);
/* An open-loop cell's latency lines: percentiles, rate asked and achieved,
 * requests over 1 ms, CPU per event (nothing for other cells). */
void report_latency_text(FILE *out, const struct cell_rec *c);
/* Across --gap-us cells: the smallest gap at which latency jumps. */
void report_gap_policy_text(FILE *out, const struct doc *d);
/* --sweep-rate: one row per rate, sync and async, and the crossover. */
void report_sweep_text(FILE *out, const struct doc *d);
/* --topology: the classes present among the ncpus CPUs this process may
 * use relative to the caller's CPU, one CPU of each, and the command that
 * measures each (text_topology.c); nothing measured. */
void report_topology_text(FILE *out, int caller, int ncpus, const struct topo_class_row *rows, int nrows);

/* One measured figure of the topology sweep: the median over a launch's
 * batches, and its fastest and slowest batch, ns per operation. */
struct topo_fig {
	double median, min, max;
};

/* One class of the topology sweep (--topology --floors): the worker side
 * held on cpu, the round trip between it and the caller's CPU (the async
 * floor) and async noop, each from one launch. */
struct topo_sweep_row {
	enum cpu_class cls;
	int cpu;
	struct topo_fig roundtrip, async;
	int workers;	   /* the SDK's workers its probes saw; -1: not counted */
	int worker_ran_on; /* the CPU they ran on at the probes; -1: several or unknown */
};

/* --fit: per library, the line through every document's generations (or
 * why not), over how many points and which round trips, and the
 * documents' median sync beside it. */
struct fit_line {
	struct roundtrip_lib_rec line;
	size_t points;
	double rt_min, rt_max, sync_ns;
};

/* The fit's report: a row per document (its round-trip record), then the
 * lines. */
void report_fit_text(FILE *out, const char *const *files, const struct roundtrip_rec *const *rts, int ndocs,
		     const struct fit_line *lines, int nlines);

/* The sweep's table: a row per class, beside the one sync launch (no
 * worker: no class), n calls in batches. */
void report_topology_sweep_text(FILE *out, int caller, const struct topo_sweep_row *rows, int nrows,
				const struct topo_fig *sync, unsigned long long n, unsigned batches);

/* The warnings a document calls for, as a fixed set of sentences: noise
 * summarised across cells in at most three lines, or per cell when verbose
 * (--verbose); what changes a figure's meaning, a line each. */
void report_warnings(FILE *err, const struct doc *d, int verbose);
/* --count: the counts: block of a counted cell, nothing for another
 * (text_counts.c). */
void report_counts_text(FILE *out, const struct doc *d, const struct cell_rec *c);
/* --compare and --anatomy with --count: one row a counted cell,
 * instructions and system calls per extraction with their ranges; the
 * anatomy's rows are its steps, each with its change from the step before
 * (the minimal driver's from bare), then its counted floors per call
 * (text_counts.c). Nothing when no cell was counted. */
void report_counts_table_text(FILE *out, const struct doc *d);

/* The rows of that table (the markdown's too), in its order: a
 * --compare's counted cells as they come; an --anatomy's per mode bare,
 * the minimal driver, event, noop, u64, str, each with the row its change
 * is from (before; NULL: none), then the floors. How many there are (only
 * the first max are written). */
#define COUNT_ROWS_MAX 32
struct count_row {
	const char *mode, *what;
	const struct counts_rec *r, *before;
	int minimal, floor;
};
size_t report_count_rows(const struct doc *d, struct count_row *rows, size_t max);

/* The counting gate's (--against EXE --count instructions) head line: what
 * was counted and how; the comparison follows (report_comparison_text),
 * each change with both builds' counts. */
void report_count_gate_text(FILE *out, const struct doc *d);

#endif
