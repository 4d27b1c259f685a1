/* report/format.h — the report layer: serializers of the model (text,
 * JSON, Go benchmark lines), one file each, none depending on another; they
 * read records and the statistics' formatting, and change nothing.
 *
 * The pieces the text reports share: numbers with their units ("n/a" for
 * undefined), the seed line, and the machine and plugin lines. Console
 * output may use µ and ±; the machine formats stay ASCII. */
#ifndef CGOCOST_REPORT_FORMAT_H
#define CGOCOST_REPORT_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/model.h"

/* "68.10 ns", "12.34 µs", "1.234 ms"; "n/a" for NAN. */
const char *fmt_ns(char *buf, size_t len, double v);
/* v with fmt; "n/a" for NAN. */
const char *fmt_num(char *buf, size_t len, double v, const char *fmt);
/* Half the width of the median's interval, in % of the median. */
double half_width_pct(const stats_summary *s);

/* The seed line, exactly: "plugin 1: 251.21 ns/extraction (elapsed time
 * 25121098ns, extractions 100000)". */
void report_seed_line(FILE *out, uint32_t index, uint64_t elapsed_ns, uint64_t extractions);
/* The lifecycle's line: "alloc plugin 1: 4379.63 ns/iteration (elapsed
 * time 175185076ns, iterations 40000)". */
void report_iteration_line(FILE *out, const char *scenario, uint32_t index, uint64_t elapsed_ns, uint64_t iterations);

/* "# machine: ..." and "# plugin: ..." of a cell. */
void report_machine_lines(FILE *out, const struct doc *d, const struct cell_rec *c);

#endif
