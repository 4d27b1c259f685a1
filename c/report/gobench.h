/* report/gobench.h — the Go benchmark text format, for benchstat: the
 * configuration lines, then one line per sample of every cell
 * (BenchmarkExtract/<cell name>-<GOMAXPROCS>). */
#ifndef CGOCOST_REPORT_GOBENCH_H
#define CGOCOST_REPORT_GOBENCH_H

#include <stdio.h>

#include "model/model.h"

void report_gobench(FILE *out, const struct doc *d);

#endif
