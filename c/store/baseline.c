/* store/baseline.c — see baseline.h. */
#include "store/baseline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/atomicfile.h"
#include "model/codec.h"

int baseline_save(const char *path, const struct doc *d, char *err, size_t errlen)
{
	char *text = doc_dumps(d, 0);
	int rc;

	if (text == NULL) {
		snprintf(err, errlen, "%s: cannot serialize the run", path);
		return -1;
	}
	rc = atomic_write_file(path, text, strlen(text), err, errlen);
	free(text);
	return rc;
}

int baseline_load(const char *path, struct doc *d, char *err, size_t errlen)
{
	char *data, why[400];
	size_t len;

	memset(d, 0, sizeof(*d));
	if (read_whole_file(path, &data, &len, BASELINE_MAX_BYTES, err, errlen) != 0)
		return -1;
	if (doc_loads(d, data, len, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "%s: not a cgocost baseline: %s", path, why);
		free(data);
		return -1;
	}
	free(data);
	if (d->ncells == 0) {
		snprintf(err, errlen, "%s: a baseline with no cells", path);
		goto bad;
	}
	for (size_t i = 0; i < d->ncells; i++)
		if (!d->cells[i].analysed) {
			snprintf(err, errlen, "%s: cell %zu has no statistics, samples or key", path, i);
			goto bad;
		}
	if (!d->analysed) {
		snprintf(err, errlen, "%s: a baseline with no ratios array", path);
		goto bad;
	}
	return 0;
bad:
	doc_free(d);
	return -1;
}
