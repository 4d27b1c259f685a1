/* model/codec_fieldlist.c — a plugin's plugin_get_fields JSON read into a
 * struct field_list (the plugin API's shape, not the document's). */
#include "model/codec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	uint32_t type;
} types[] = {
	{ "uint64", 8 }, { "string", 9 },  { "reltime", 20 }, { "abstime", 21 },
	{ "bool", 25 },	 { "ipaddr", 40 }, { "ipnet", 41 },
};

uint32_t field_type_parse(const char *name)
{
	for (size_t i = 0; name && i < sizeof(types) / sizeof(types[0]); i++)
		if (strcmp(name, types[i].name) == 0)
			return types[i].type;
	return 0;
}

static int flag(const json_t *obj, const char *key)
{
	return json_is_true(json_object_get(obj, key));
}

static int entry_parse(const json_t *e, size_t i, struct field_decl *f, char *err, size_t errlen)
{
	const json_t *name = json_object_get(e, "name"), *type = json_object_get(e, "type");
	const json_t *arg = json_object_get(e, "arg");

	if (!json_is_object(e)) {
		snprintf(err, errlen, "plugin_get_fields: entry %zu is not an object", i);
		return -1;
	}
	if (!json_is_string(name) || json_string_length(name) == 0 || json_string_length(name) >= FIELD_DECL_NAME_MAX) {
		snprintf(err, errlen, "plugin_get_fields: entry %zu has no usable \"name\"", i);
		return -1;
	}
	snprintf(f->name, sizeof(f->name), "%s", json_string_value(name));
	if (!json_is_string(type) || (f->ftype = field_type_parse(json_string_value(type))) == 0) {
		snprintf(err, errlen, "plugin_get_fields: field %s has no known \"type\"", f->name);
		return -1;
	}
	f->is_list = flag(e, "isList");
	if (arg != NULL && !json_is_object(arg)) {
		snprintf(err, errlen, "plugin_get_fields: field %s: \"arg\" is not an object", f->name);
		return -1;
	}
	f->arg_required = arg ? flag(arg, "isRequired") : 0;
	f->arg_index = arg ? flag(arg, "isIndex") : 0;
	f->arg_key = arg ? flag(arg, "isKey") : 0;
	return 0;
}

int fieldlist_parse(const char *json, struct field_list *l, char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *a, *e;
	size_t i;

	memset(l, 0, sizeof(*l));
	if (json == NULL) {
		snprintf(err, errlen, "plugin_get_fields returned NULL");
		return -1;
	}
	a = json_loads(json, 0, &jerr);
	if (a == NULL) {
		snprintf(err, errlen, "plugin_get_fields: not JSON (line %d: %s)", jerr.line, jerr.text);
		return -1;
	}
	if (!json_is_array(a) || json_array_size(a) == 0) {
		snprintf(err, errlen, "plugin_get_fields: not a non-empty JSON array");
		json_decref(a);
		return -1;
	}
	l->fields = calloc(json_array_size(a), sizeof(*l->fields));
	if (l->fields == NULL) {
		snprintf(err, errlen, "out of memory");
		json_decref(a);
		return -1;
	}
	json_array_foreach (a, i, e) {
		if (entry_parse(e, i, &l->fields[i], err, errlen) != 0) {
			json_decref(a);
			fieldlist_free(l);
			return -1;
		}
		l->n = (uint32_t)i + 1;
	}
	json_decref(a);
	return 0;
}

void fieldlist_free(struct field_list *l)
{
	free(l->fields);
	memset(l, 0, sizeof(*l));
}
