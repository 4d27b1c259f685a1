/* cli/source.h — where the run comes from (model/source.h): --commit,
 * --commit-time and --label as given, else the CI system's usual
 * variables, checked before anything is measured. */
#ifndef CGOCOST_CLI_SOURCE_H
#define CGOCOST_CLI_SOURCE_H

#include <stddef.h>

#include "model/options.h"

/* Fills o->commit, o->commit_time and o->label that were not given from
 * the environment: CGOCOST_COMMIT, GITHUB_SHA, CI_COMMIT_SHA (GitLab);
 * CGOCOST_COMMIT_TIME, CI_COMMIT_TIMESTAMP; CGOCOST_LABEL,
 * GITHUB_REF_NAME, CI_COMMIT_REF_NAME, the first one set and not empty.
 * 0, or -1 with one line in err naming the option or variable whose value
 * is not well formed (a commit that is not hex, a time that does not
 * parse). */
int source_resolve(struct options *o, char *err, size_t errlen);

#endif
