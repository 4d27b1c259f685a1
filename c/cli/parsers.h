/* cli/parsers.h — the value parsers of the command line: strict numbers
 * (no sign, no exponent, no trailing text), CPU lists, allocator lists and
 * the lists of --gap-us and --sweep-rate. Each returns 0 (or a count), or
 * -1 with a one-line message in err naming the option (name). */
#ifndef CGOCOST_CLI_PARSERS_H
#define CGOCOST_CLI_PARSERS_H

#include <stddef.h>
#include <stdint.h>

#include "model/options.h"

/* A whole decimal number within [min, max] into out. */
int parse_u64(const char *name, const char *s, uint64_t min, uint64_t max, uint64_t *out, char *err, size_t errlen);

/* A decimal number (digits, one optional point) within (0, max] into out;
 * unit follows the bounds in a message (" per second", " s" or ""). */
int parse_positive(const char *name, const char *s, double max, const char *unit, double *out, char *err,
		   size_t errlen);

/* Parses "0,2-3" into cpus; returns the count, or -1 with a message. */
int parse_cpu_list(const char *s, int *cpus, int max, char *err, size_t errlen);

/* "glibc,jemalloc" into o->allocators (canonical names), o->nallocators. */
int parse_allocators(struct options *o, const char *arg, char *err, size_t errlen);

/* "10,100,1000" into o->gaps_us (rates 0), or rates with "max" as 0 into
 * o->sweep (rates 1). */
int parse_list(const char *name, const char *arg, int rates, struct options *o, char *err, size_t errlen);

#endif
