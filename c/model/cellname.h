/* model/cellname.h — the name of a cell, one spelling for the text, the
 * JSON and the Go benchmark lines. */
#ifndef CGOCOST_MODEL_CELLNAME_H
#define CGOCOST_MODEL_CELLNAME_H

#include <stddef.h>

/* The cell name used everywhere (text, JSON, Go benchmark lines):
 * lib=archive/mode=async/work=noop/p=1, with /scenario=, /fields= and
 * /malloc= (an allocator asked for by name) when they apply. A run that
 * asked for async and did not get it is named mode=sync-fallback. */
void cell_name(char *buf, size_t len, const char *lib, int async_requested, const char *in_effect, const char *scenario,
	       const char *work, unsigned plugins, unsigned fields, const char *malloc_name);

/* The cell name of a run beside another library: /with=idle:libmock-b. */
void cell_name_with(char *buf, size_t len, const char *role, const char *label);

#endif
