/* model/source.h — where a run comes from: the commit it measured, the
 * commit's time and a label (a branch, a pipeline), as a document's
 * optional source section records them (the history across commits,
 * docs/methodology.md). Each is "" when not known. */
#ifndef CGOCOST_MODEL_SOURCE_H
#define CGOCOST_MODEL_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#define SOURCE_COMMIT_MIN 4  /* git's shortest abbreviation */
#define SOURCE_COMMIT_MAX 64 /* a SHA-256 object name */
#define SOURCE_TIME_MAX	  40
#define SOURCE_LABEL_MAX  128

struct source_rec {
	char commit[SOURCE_COMMIT_MAX + 1];    /* hex digits */
	char commit_time[SOURCE_TIME_MAX + 1]; /* RFC 3339: 2026-12-05T07:14:07+00:00 */
	char label[SOURCE_LABEL_MAX + 1];
};

/* 0 when s is a commit: SOURCE_COMMIT_MIN to SOURCE_COMMIT_MAX hex digits;
 * else -1 and why in err ("'xyz' is not a commit: ..."). */
int source_check_commit(const char *s, char *err, size_t errlen);

/* 0 and the seconds since 1970 (UTC) in *epoch when s is an RFC 3339 time
 * (date T time, fraction optional, Z or an offset); else -1 and why. */
int source_parse_time(const char *s, int64_t *epoch, char *err, size_t errlen);

/* 0 when every part of s that is given is well formed (a label: printable
 * ASCII); else -1 and the first problem, naming its key. */
int source_check(const struct source_rec *s, char *err, size_t errlen);

#endif
