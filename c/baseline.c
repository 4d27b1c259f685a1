/* baseline.c — see baseline.h. */
#include "baseline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "atomicfile.h"
#include "compare.h"
#include "jsonutil.h"
#include "report_json.h"

#define ALPHA 0.05

int baseline_save(const char *path, const json_t *doc, char *err, size_t errlen)
{
	char *text = json_dumps(doc, JSON_INDENT(1) | JSON_ENSURE_ASCII | JSON_PRESERVE_ORDER);
	int rc;

	if (text == NULL) {
		snprintf(err, errlen, "%s: cannot serialize the run", path);
		return -1;
	}
	size_t len = strlen(text);
	{
		/* end the file with a newline */
		char *t = realloc(text, len + 2);
		if (t == NULL) {
			free(text);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		text = t;
		text[len] = '\n';
		text[len + 1] = '\0';
	}
	rc = atomic_write_file(path, text, len + 1, err, errlen);
	free(text);
	return rc;
}

json_t *baseline_load(const char *path, char *err, size_t errlen)
{
	char *data;
	size_t len, i;
	json_error_t jerr;
	json_t *doc, *cells, *c;

	if (read_whole_file(path, &data, &len, BASELINE_MAX_BYTES, err, errlen) != 0)
		return NULL;
	doc = json_loadb(data, len, 0, &jerr);
	free(data);
	if (doc == NULL) {
		snprintf(err, errlen, "%s: not a cgocost baseline: JSON error at line %d: %s", path, jerr.line,
			 jerr.text);
		return NULL;
	}
	if (!json_is_object(doc) || jget_str(doc, "generator") == NULL ||
	    strcmp(jget_str(doc, "generator"), "cgocost bench") != 0) {
		snprintf(err, errlen, "%s: not a cgocost baseline (no \"generator\": \"cgocost bench\")", path);
		goto bad;
	}
	if (jget_num(doc, "schema_version") != SCHEMA_VERSION) {
		snprintf(err, errlen, "%s: schema_version %.0f, this cgocost reads %d", path,
			 jget_num(doc, "schema_version"), SCHEMA_VERSION);
		goto bad;
	}
	cells = json_object_get(doc, "cells");
	if (!json_is_array(cells) || json_array_size(cells) == 0) {
		snprintf(err, errlen, "%s: a baseline with no cells", path);
		goto bad;
	}
	json_array_foreach(cells, i, c)
	{
		if (jget_str(c, "name") == NULL || !json_is_array(json_object_get(c, "samples")) ||
		    jget_str(c, "key") == NULL) {
			snprintf(err, errlen, "%s: cell %zu lacks its name, key or samples", path, i);
			goto bad;
		}
	}
	if (!json_is_array(json_object_get(doc, "ratios"))) {
		snprintf(err, errlen, "%s: a baseline with no ratios array", path);
		goto bad;
	}
	return doc;
bad:
	json_decref(doc);
	return NULL;
}

static json_t *change_record(const char *scenario, const char *kind, const json_t *b, const json_t *c,
			     int gated, const char *why, double threshold, uint64_t seed, int *regressed)
{
	size_t nb, nc;
	double *xb = samples_from_json(json_object_get(b, "samples"), &nb);
	double *xc = samples_from_json(json_object_get(c, "samples"), &nc);
	change_estimate ch;
	char line[128];
	json_t *r;

	if (xb == NULL || xc == NULL || compare_change(xb, nb, xc, nc, threshold, ALPHA, seed, &ch) != 0) {
		memset(&ch, 0, sizeof(ch));
		ch.lo = ch.point = ch.hi = ch.p = NAN;
		ch.alpha = ALPHA;
		ch.threshold = threshold;
		ch.verdict = VERDICT_UNDEFINED;
	}
	free(xb);
	free(xc);
	if (format_change(line, sizeof(line), &ch) < 0)
		snprintf(line, sizeof(line), "change: n/a");
	if (gated && ch.verdict == VERDICT_REGRESSED)
		*regressed = 1;
	r = json_pack("{s:s, s:s, s:b, s:o, s:o, s:o, s:o, s:o, s:I, s:I, s:s, s:s, s:s}", "scenario",
		      scenario, "kind", kind, "gated", gated, "low", jnum(ch.lo), "point", jnum(ch.point),
		      "high", jnum(ch.hi), "p", jnum(ch.p), "alpha", jnum(ALPHA), "base_n",
		      (json_int_t)nb, "n", (json_int_t)nc, "verdict", verdict_name(ch.verdict), "sentence",
		      verdict_sentence(ch.verdict), "line", line);
	if (why)
		json_object_set_new(r, "not_gated_because", json_string(why));
	return r;
}

json_t *compare_documents(const json_t *base, const json_t *cur, const char *against, int same_time,
			  double threshold, uint64_t seed, int *regressed)
{
	json_t *changes = json_array();
	size_t i;
	json_t *c;
	int keys_match = 1;

	*regressed = 0;
	json_array_foreach(json_object_get(cur, "cells"), i, c)
	{
		const char *name = jget_str(c, "name");
		const json_t *b = name ? jfind_named(json_object_get(base, "cells"), name) : NULL;
		const char *kb, *kc;
		int match;
		if (b == NULL)
			continue;
		kb = jget_str(b, "key");
		kc = jget_str(c, "key");
		match = kb && kc && strcmp(kb, kc) == 0;
		keys_match &= match;
		json_array_append_new(changes,
				      change_record(name, "cell", b, c, same_time || match,
						    same_time || match
							    ? NULL
							    : "machine key differs (CPU, kernel, Go version, library or options): absolute times are not comparable; judged by ratios",
						    threshold, seed, regressed));
	}
	json_array_foreach(json_object_get(cur, "ratios"), i, c)
	{
		const char *name = jget_str(c, "name");
		const json_t *b = name ? jfind_named(json_object_get(base, "ratios"), name) : NULL;
		if (b == NULL)
			continue;
		json_array_append_new(changes, change_record(name, "ratio", b, c, 1, NULL, threshold, seed,
							     regressed));
	}
	return json_pack("{s:s, s:b, s:b, s:f, s:f, s:I, s:I, s:o, s:b}", "against", against,
			 "same_time", same_time, "machine_key_matches", keys_match, "threshold",
			 threshold, "alpha", ALPHA, "bootstrap_seed", (json_int_t)seed, "resamples",
			 (json_int_t)COMPARE_RESAMPLES, "changes", changes, "regressed", *regressed);
}

void compare_allocators(json_t *doc, double threshold, uint64_t seed)
{
	size_t i;
	json_t *c;
	json_t *cells = json_object_get(doc, "cells");

	json_array_foreach(cells, i, c)
	{
		const char *name = jget_str(c, "name");
		const char *m = name ? strstr(name, "/malloc=") : NULL;
		char base_name[256];
		const json_t *base;
		int ignored = 0;

		if (m == NULL || strcmp(m, "/malloc=glibc") == 0)
			continue;
		snprintf(base_name, sizeof(base_name), "%.*s/malloc=glibc", (int)(m - name), name);
		base = jfind_named(cells, base_name);
		if (base == NULL)
			continue;
		json_object_set_new(c, "vs_glibc",
				    change_record(name, "cell", base, c, 1, NULL, threshold, seed, &ignored));
	}
}
