/* timing/record.h — a finished run, as the model's records: the launch
 * (what was measured) and the cell it belongs to (which executable,
 * library, versions and mode). */
#ifndef CGOCOST_TIMING_RECORD_H
#define CGOCOST_TIMING_RECORD_H

#include "base/sysinfo.h"
#include "model/cellname.h"
#include "model/model.h"
#include "plugin/load.h"
#include "timing/floors.h"
#include "timing/runner.h"

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
 * and the "# mode:" line): one cell named .../work=bare/p=1/driver=minimal
 * (driver=textbook when exe is a bench-textbook), one launch of one batch. 0, or -1 when the output lacks either line. */
int record_minimal(struct doc *d, const char *out, const struct options *o, int async, const char *exe);
/* The library part of a cell's name: "archive" or "shared" for the
 * built-in mock, else the measured libraries' file names joined by '+'. */
void session_lib_name(const struct session *s, char *buf, size_t len);

/* Why async was asked for and not in effect, from what the plugin reported. */
const char *async_not_in_effect_reason(const struct probe *p);

#endif
