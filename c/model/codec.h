/* model/codec.h — the one JSON serialization of the model: every key of the
 * document is spelled in codec.c and nowhere else. The same field list
 * writes a record, reads it back (every key checked: a missing, mistyped
 * or unknown key is an error naming its path, never a silent NAN) and frees
 * it. The document's shape is docs/schema.json. */
#ifndef CGOCOST_MODEL_CODEC_H
#define CGOCOST_MODEL_CODEC_H

#include <stddef.h>

#include <jansson.h>

#include "model/model.h"

json_t *doc_to_json(const struct doc *d);
/* Fills d (zeroed first); 0, or -1 with a message and d freed. */
int doc_from_json(struct doc *d, const json_t *j, char *err, size_t errlen);

/* The document as ASCII JSON text ending in a newline (compact or indented
 * by one space); malloc'd, NULL when out of memory. */
char *doc_dumps(const struct doc *d, int compact);
/* Parses text into d; 0, or -1 with a message ("JSON error at line N: ..."
 * or the first bad key). */
int doc_loads(struct doc *d, const char *text, size_t len, char *err, size_t errlen);

/* A plugin's plugin_get_fields JSON (the plugin API's shape: name, type,
 * isList, arg {isRequired, isIndex, isKey}) into l. 0, or -1 with a
 * message naming what is wrong (not an array, an entry without a name, an
 * unknown type). */
int fieldlist_parse(const char *json, struct field_list *l, char *err, size_t errlen);
void fieldlist_free(struct field_list *l);
/* ss_plugin_field_type of a type name ("uint64" -> 8); 0 for an unknown one. */
uint32_t field_type_parse(const char *name);

#endif
