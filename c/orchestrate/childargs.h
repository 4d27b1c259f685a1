/* orchestrate/childargs.h — the arguments a child launch of a run gets,
 * made from the option table (model/options.h): the options that shape one
 * launch's measurement, spelled so that the child's command line reads them
 * back to the same values. */
#ifndef CGOCOST_ORCHESTRATE_CHILDARGS_H
#define CGOCOST_ORCHESTRATE_CHILDARGS_H

#include <stddef.h>

#include "model/options.h"

/* The arguments a child launch of these options gets (after argv[0], before
 * --emit-launch; strings in store). Returns the count, or -1 if they do not
 * fit. */
int options_child_args(const struct options *o, char **argv, int max, char *store, size_t storelen);

#endif
