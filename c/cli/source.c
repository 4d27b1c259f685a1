/* cli/source.c — see source.h. */
#include "cli/source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/source.h"

/* The first of the variables (NULL-terminated) that is set and not empty;
 * its name in *from. */
static const char *from_env(const char *const *names, const char **from)
{
	for (; *names; names++) {
		const char *v = getenv(*names);
		if (v && *v) {
			*from = *names;
			return v;
		}
	}
	return NULL;
}

/* One part: given (option), else from the environment, then checked. */
static int resolve(const char **v, const char *option, const char *const *names, size_t max,
		   int (*check)(const char *, char *, size_t), char *err, size_t errlen)
{
	const char *from = option;
	char why[200];

	if (*v == NULL || **v == '\0')
		*v = from_env(names, &from);
	if (*v == NULL)
		return 0;
	if (strlen(*v) > max) {
		snprintf(err, errlen, "%s: '%.60s...' is too long (at most %zu bytes)", from, *v, max);
		return -1;
	}
	if (check && check(*v, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "%s: %s", from, why);
		return -1;
	}
	return 0;
}

static int check_time(const char *s, char *why, size_t len)
{
	int64_t t;
	return source_parse_time(s, &t, why, len);
}

static int check_label(const char *s, char *why, size_t len)
{
	struct source_rec r = { .commit = "" };

	snprintf(r.label, sizeof(r.label), "%s", s);
	if (source_check(&r, why, len) == 0)
		return 0;
	snprintf(why, len, "'%.80s' has a character that is not printable ASCII", s);
	return -1;
}

int source_resolve(struct options *o, char *err, size_t errlen)
{
	static const char *const commit_vars[] = { "CGOCOST_COMMIT", "GITHUB_SHA", "CI_COMMIT_SHA", NULL },
				 *const time_vars[] = { "CGOCOST_COMMIT_TIME", "CI_COMMIT_TIMESTAMP", NULL },
				 *const label_vars[] = { "CGOCOST_LABEL", "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME",
							 NULL };

	if (resolve(&o->commit, "--commit", commit_vars, SOURCE_COMMIT_MAX, source_check_commit, err, errlen) != 0 ||
	    resolve(&o->commit_time, "--commit-time", time_vars, SOURCE_TIME_MAX, check_time, err, errlen) != 0 ||
	    resolve(&o->label, "--label", label_vars, SOURCE_LABEL_MAX, check_label, err, errlen) != 0)
		return -1;
	return 0;
}
