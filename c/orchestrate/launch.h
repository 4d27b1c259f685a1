/* orchestrate/launch.h — runs one measurement in a fresh process: the driver (or
 * another build of it) re-executed with --emit-launch, its JSON captured
 * (a child of orchestrate/child.h, its output in pipes). */
#ifndef CGOCOST_ORCHESTRATE_LAUNCH_H
#define CGOCOST_ORCHESTRATE_LAUNCH_H

#include <stddef.h>

#include "model/model.h"

/* Runs a child launch and parses its JSON document into d. Returns EXIT_OK,
 * or the failure's status with a one-line reason in err (the child's own
 * message when it failed): EXIT_BAD_INPUT, EXIT_CHILD_STALLED (its watchdog found
 * a caller stuck) or EXIT_RUN_FAILED. */
int launch_document(char *const argv[], struct doc *d, char *err, size_t errlen);

/* launch_document of this executable with the child arguments of co
 * (orchestrate/childargs.h), then extra (NULL-terminated; may be NULL),
 * then --emit-launch. */
int launch_options(const struct options *co, char *const extra[], struct doc *d, char *err, size_t errlen);

/* launch_document within a deadline of timeout_ms (-1: as long as it
 * takes; child.h: past it while the child keeps using CPU, up to
 * CHILD_BUSY_MAX_FACTOR times it): a child still running then is killed,
 * its whole group, and the launch fails (EXIT_RUN_FAILED, "still running
 * after N s"). With identity not NULL,
 * what the launch measured (model/codec_identity.h) goes there, malloc'd
 * (NULL when the launch failed). */
int launch_document_within(char *const argv[], int timeout_ms, struct doc *d, char **identity, char *err,
			   size_t errlen);

/* Runs build/bench-minimal and records its seed line and verified mode as
 * a document of one cell (.../driver=minimal) with one launch of one batch.
 * Returns EXIT_OK, or EXIT_RUN_FAILED with a reason in err. */
int launch_minimal(char *const argv[], const struct options *o, int async, struct doc *d, char *err, size_t errlen);

#endif
