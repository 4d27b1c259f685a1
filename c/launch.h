/* launch.h — runs one measurement in a fresh process: the driver (or
 * another build of it) re-executed with --emit-launch, its JSON captured. */
#ifndef CGOCOST_LAUNCH_H
#define CGOCOST_LAUNCH_H

#include <stddef.h>

#include <jansson.h>

/* Runs argv[0] with argv (NULL-terminated); collects stdout and stderr.
 * Returns the exit status (0..255), or -1 if it could not run or was killed
 * (err says which). out and errout are malloc'd, NUL-terminated. */
int launch_capture(char *const argv[], char **out, char **errout, char *err, size_t errlen);

/* Runs a child launch and parses its JSON document. On success returns the
 * document; otherwise NULL with a one-line reason in err (the child's own
 * message when it failed) and *status set to the child's exit status (or 3). */
json_t *launch_document(char *const argv[], int *status, char *err, size_t errlen);

/* The absolute path of this executable, and of a sibling in its folder. */
int self_path(char *buf, size_t len);
int sibling_path(const char *exe, const char *name, char *buf, size_t len);

#endif
