/* orchestrate/launch.h — runs one measurement in a fresh process: the driver (or
 * another build of it) re-executed with --emit-launch, its JSON captured. */
#ifndef CGOCOST_ORCHESTRATE_LAUNCH_H
#define CGOCOST_ORCHESTRATE_LAUNCH_H

#include <stddef.h>

#include "model/model.h"

/* Runs argv[0] with argv (NULL-terminated); collects stdout and stderr.
 * Returns the exit status (0..255), or -1 if it could not run or was killed
 * (err says which; *signo the signal, 0 if none). out and errout are
 * malloc'd, NUL-terminated. */
int launch_capture(char *const argv[], char **out, char **errout, int *signo, char *err, size_t errlen);

/* What became of a child launch. */
enum launch_kind {
	LAUNCH_OK = 0,
	LAUNCH_BAD_INPUT,
	LAUNCH_CRASHED,
	LAUNCH_PANICKED,
	LAUNCH_HUNG,
	LAUNCH_STALLED,
	LAUNCH_FAILED
};

/* Classifies a child from its exit status rc (-1: killed by signal signo)
 * and its stderr; why gets one line: the child's own message, the signal,
 * or the first lines of a Go panic. */
enum launch_kind launch_classify(int rc, int signo, const char *errout, char *why, size_t len);

/* Runs a child launch and parses its JSON document into d. Returns EXIT_OK,
 * or the failure's status with a one-line reason in err (the child's own
 * message when it failed): EXIT_BAD_INPUT, EXIT_STALLED (its watchdog found
 * a caller stuck) or EXIT_RUN_FAILED. */
int launch_document(char *const argv[], struct doc *d, char *err, size_t errlen);

/* Runs build/bench-minimal and records its seed line and verified mode as
 * a document of one cell (.../driver=minimal) with one launch of one batch.
 * Returns EXIT_OK, or EXIT_RUN_FAILED with a reason in err. */
int launch_minimal(char *const argv[], const struct options *o, int async, struct doc *d, char *err, size_t errlen);

#endif
