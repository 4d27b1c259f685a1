/* orchestrate/repeat.h — --repeat-load K: K fresh child processes, each loading
 * every library of the options (with them their Go runtimes), extracting
 * and exiting. A crash of the runtimes is a counted result, never a crash
 * of cgocost: every such process is a child. */
#ifndef CGOCOST_ORCHESTRATE_REPEAT_H
#define CGOCOST_ORCHESTRATE_REPEAT_H

#include <stddef.h>

#include "model/model.h"

/* Fills rr. Returns EXIT_OK when every load finished, EXIT_RUN_FAILED when
 * any crashed, panicked, hung or failed (rr says which), EXIT_BAD_INPUT
 * when a child found bad input (its message in err). */
int repeat_load_run(const struct options *o, struct repeat_rec *rr, char *err, size_t errlen);

#endif
