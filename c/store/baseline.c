/* store/baseline.c — see baseline.h. */
#include "store/baseline.h"

#include <math.h>
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

/* Every sample a comparison reads must be a positive normal number: a zero,
 * a negative, an undefined (null) or a subnormal one (below DBL_MIN: its
 * ratios and logs lose their precision, which once hid a regression as
 * "too few samples") is a corrupt file, not a fast run. */
static int samples_ok(const double *x, size_t n, const char *path, const char *what, const char *name, char *err,
		      size_t errlen)
{
	if (n == 0) {
		snprintf(err, errlen, "%s: %s %s: no samples", path, what, name);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		if (!(isnormal(x[i]) && x[i] > 0)) {
			snprintf(err, errlen, "%s: %s %s: samples[%zu] is %s, not a positive number", path, what, name,
				 i,
				 isnan(x[i])   ? "null"
				 : x[i] == 0   ? "zero"
				 : x[i] < 0    ? "negative"
				 : isinf(x[i]) ? "infinite"
					       : "subnormal (below 2.2e-308)");
			return 0;
		}
	return 1;
}

int baseline_parse(const char *path, const char *data, size_t len, struct doc *d, char *err, size_t errlen)
{
	char why[400];

	memset(d, 0, sizeof(*d));
	if (doc_loads(d, data, len, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "%s: not a cgocost baseline: %s", path, why);
		return -1;
	}
	if (d->ncells == 0) {
		snprintf(err, errlen, "%s: a baseline with no cells", path);
		goto bad;
	}
	for (size_t i = 0; i < d->ncells; i++) {
		if (!d->cells[i].analysed) {
			snprintf(err, errlen, "%s: cell %zu has no statistics, samples or key", path, i);
			goto bad;
		}
		if (!samples_ok(d->cells[i].st.samples, d->cells[i].st.nsamples, path, "cell", d->cells[i].name, err,
				errlen))
			goto bad;
	}
	if (!d->analysed) {
		snprintf(err, errlen, "%s: a baseline with no ratios array", path);
		goto bad;
	}
	/* the counting gate's document (saved as --format json or an export;
	 * its --save-baseline is refused): its cells' one launch is a counted
	 * run, timed under valgrind, tens of times slower than a timed run:
	 * judged against it, a regression of several times would pass */
	for (size_t i = 0; d->has_comparison && i < d->comparison.nchanges; i++)
		if (strcmp(d->comparison.changes[i].metric, "instructions") == 0) {
			snprintf(err, errlen,
				 "%s: the counting gate's document (--against EXE --count instructions): its times "
				 "were taken under valgrind and judge no timed run: save a baseline from a timed run",
				 path);
			goto bad;
		}
	for (size_t i = 0; i < d->nratios; i++)
		if (!samples_ok(d->ratios[i].samples, d->ratios[i].nsamples, path, "ratio", d->ratios[i].name, err,
				errlen))
			goto bad;
	return 0;
bad:
	doc_free(d);
	return -1;
}

int baseline_load(const char *path, struct doc *d, char *err, size_t errlen)
{
	char *data;
	size_t len;
	int rc;

	memset(d, 0, sizeof(*d));
	if (read_whole_file(path, &data, &len, BASELINE_MAX_BYTES, err, errlen) != 0)
		return -1;
	rc = baseline_parse(path, data, len, d, err, errlen);
	free(data);
	return rc;
}
