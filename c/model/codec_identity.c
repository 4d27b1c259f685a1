/* model/codec_identity.c — see codec_identity.h. */
#include "model/codec_identity.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "model/options.h"

/* The options two sides of a comparison are run with differently. */
static const char *const injected[] = { "extra_ns", "async_extra_ns" };

char *doc_identity(const char *text, size_t len)
{
	json_t *doc = json_loadb(text, len, 0, NULL), *opts, *cells, *names, *plugins, *id, *c;
	char *out = NULL;
	size_t k;

	opts = doc ? json_object_get(doc, "options") : NULL;
	cells = doc ? json_object_get(doc, "cells") : NULL;
	if (!json_is_object(opts) || !json_is_array(cells)) {
		json_decref(doc);
		return NULL;
	}
	opts = json_deep_copy(opts);
	for (size_t i = 0; i < sizeof(injected) / sizeof(injected[0]); i++)
		json_object_del(opts, injected[i]);
	/* a library by its file name: each build's own libcmock.so */
	plugins = json_object_get(opts, "plugin");
	json_array_foreach (plugins, k, c) {
		const char *p = json_string_value(c), *slash = p ? strrchr(p, '/') : NULL;
		if (slash)
			json_array_set_new(plugins, k, json_string(slash + 1));
	}
	names = json_array();
	json_array_foreach (cells, k, c)
		json_array_append(names, json_object_get(c, "name"));
	id = json_pack("{s:o, s:o}", "options", opts, "cells", names);
	if (id)
		out = json_dumps(id, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII);
	json_decref(id);
	json_decref(doc);
	return out;
}

/* Two cell names alike but for their lib= part: a build linked another way
 * (bench against bench-shared, paired by position) measures the same cell. */
static int same_cell(const json_t *a, const json_t *b)
{
	const char *x = json_string_value(a), *y = json_string_value(b);

	if (x == NULL || y == NULL)
		return json_equal(a, b);
	if (strncmp(x, "lib=", 4) == 0 && strchr(x, '/'))
		x = strchr(x, '/');
	if (strncmp(y, "lib=", 4) == 0 && strchr(y, '/'))
		y = strchr(y, '/');
	return strcmp(x, y) == 0;
}

/* An option's name for its key in the options record: "--payload-size". */
static void option_of(const char *key, char *buf, size_t len)
{
	snprintf(buf, len, "%s", key);
	for (size_t i = 0; i < OPT_COUNT; i++)
		if (options_table[i].json && strcmp(options_table[i].json, key) == 0)
			option_name(&options_table[i], buf, len);
}

/* A value as one short line of JSON. */
static void shown(const json_t *v, char *buf, size_t len)
{
	char *s = v ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_ENSURE_ASCII) : NULL;
	snprintf(buf, len, "%.120s", s ? s : "(none)");
	free(s);
}

int identity_diff(const char *a, const char *b, char *cell, size_t celllen, char *what, size_t whatlen)
{
	json_t *ja, *jb, *oa, *ob, *ca, *cb, *v;
	const char *key;
	char va[160], vb[160], name[48];
	size_t n;
	int differ = 0;

	if (strcmp(a, b) == 0)
		return 0;
	ja = json_loads(a, 0, NULL);
	jb = json_loads(b, 0, NULL);
	oa = json_object_get(ja, "options"), ob = json_object_get(jb, "options");
	ca = json_object_get(ja, "cells"), cb = json_object_get(jb, "cells");
	shown(json_array_get(ca, 0), va, sizeof(va));
	snprintf(cell, celllen, "%s",
		 json_is_string(json_array_get(ca, 0)) ? json_string_value(json_array_get(ca, 0)) : va);
	snprintf(what, whatlen, "a different document");
	if (ja == NULL || jb == NULL)
		differ = 1;
	/* an option first: it says why the cells differ; a key that one side
	 * does not record (a build older than the option) is no difference */
	json_object_foreach (oa, key, v)
		if (!differ && json_object_get(ob, key) && !json_equal(v, json_object_get(ob, key))) {
			shown(json_object_get(ob, key), vb, sizeof(vb));
			shown(v, va, sizeof(va));
			option_of(key, name, sizeof(name));
			snprintf(what, whatlen, "%s %s, not %s", name, vb, va);
			differ = 1;
		}
	n = json_array_size(ca) > json_array_size(cb) ? json_array_size(ca) : json_array_size(cb);
	for (size_t i = 0; !differ && i < n; i++)
		if (!same_cell(json_array_get(ca, i), json_array_get(cb, i))) {
			shown(json_array_get(cb, i), vb, sizeof(vb));
			shown(json_array_get(ca, i), va, sizeof(va));
			snprintf(what, whatlen, "the cell %s, not %s", vb, va);
			differ = 1;
		}
	json_decref(ja);
	json_decref(jb);
	return differ;
}
