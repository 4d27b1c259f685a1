/* analyse/expect.h — before anything is measured: can this run be judged
 * against a baseline at all? A baseline none of whose cells this run will
 * measure, and none of whose ratios it will compute, compares nothing: that
 * is bad input, said before the measurement, not a silent "no regression"
 * after it. */
#ifndef CGOCOST_ANALYSE_EXPECT_H
#define CGOCOST_ANALYSE_EXPECT_H

#include <stddef.h>

#include "model/model.h"

/* 1 if a cell this run will measure (with the options o, self_lib the
 * library this executable links: "archive" or "shared") is named in base,
 * or if base has ratios and the run computes ratios; else 0, with one of the
 * run's cell names in example. A cell whose async falls back to sync counts
 * under both its names. */
int run_meets_baseline(const struct options *o, const char *self_lib, const struct doc *base, char *example,
		       size_t len);

#endif
