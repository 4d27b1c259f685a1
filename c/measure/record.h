/* measure/record.h — a finished run, as the model's records: the launch
 * (what was measured) and the cell it belongs to (which executable,
 * library, versions and mode). */
#ifndef CGOCOST_MEASURE_RECORD_H
#define CGOCOST_MEASURE_RECORD_H

#include "measure/floors.h"
#include "measure/load.h"
#include "measure/runner.h"
#include "measure/sysinfo.h"
#include "model/model.h"

void record_machine(struct machine_rec *rec, const struct machine *m);
void record_floors(struct floors_rec *rec, const struct floors *f);

/* Fills a launch record from a run (arrays malloc'd); 0, or -1 when out of
 * memory. f: the floors measured in this launch, or NULL. */
int record_launch(struct launch_rec *l, const struct run *r, const struct options *o, const struct floors *f);

/* An open-loop run's latencies (run r with options o, its launch l
 * recorded): each caller's in l, every request together in the cell, whose
 * name gets /rate=R or /gap-us=G. 0, or -1 when out of memory. */
int record_latency(struct cell_rec *c, struct launch_rec *l, const struct run *r, const struct options *o);

/* Fills the cell of a run: name, library, versions, mode requested and in
 * effect (verified), and why async is not in effect when it was asked. */
void record_cell(struct cell_rec *c, const struct run *r, const struct options *o, const struct session *s,
		 const char *executable);

/* The document of one bench-minimal launch, from its output (the seed line
 * and the "# mode:" line): one cell named .../work=bare/p=1/driver=minimal,
 * one launch of one batch. 0, or -1 when the output lacks either line. */
int record_minimal(struct doc *d, const char *out, const struct options *o, int async, const char *exe);
/* The library part of a cell's name: "archive" or "shared" for the
 * built-in mock, else the measured libraries' file names joined by '+'. */
void session_lib_name(const struct session *s, char *buf, size_t len);

/* The cell name used everywhere (text, JSON, Go benchmark lines):
 * lib=archive/mode=async/work=noop/p=1, with /scenario=, /fields= and
 * /malloc= (an allocator asked for by name) when they apply. A run that
 * asked for async and did not get it is named mode=sync-fallback. */
void cell_name(char *buf, size_t len, const char *lib, int async_requested, const char *in_effect, const char *scenario,
	       const char *work, unsigned plugins, unsigned fields, const char *malloc_name);

/* The cell name of a run beside another library: /with=idle:libmock-b. */
void cell_name_with(char *buf, size_t len, const char *role, const char *label);

/* Why async was asked for and not in effect, from what the plugin reported. */
const char *async_not_in_effect_reason(const struct probe *p);

#endif
