/* plugin/fieldlist.h — the fields a plugin declares (plugin_get_fields, a
 * JSON array), and the resolution of a --field NAME[arg] against them. */
#ifndef CGOCOST_PLUGIN_FIELDLIST_H
#define CGOCOST_PLUGIN_FIELDLIST_H

#include <stddef.h>
#include <stdint.h>

#include "model/codec.h" /* struct field_list and its parser, fieldlist_parse */

/* The id of the field named name, or -1. */
int fieldlist_find(const struct field_list *l, const char *name);

/* ss_plugin_field_type of a type name ("uint64" -> 8); 0 for an unknown one. */
uint32_t field_type_parse(const char *name);

#define FIELD_ARG_MAX 128

/* A field selected for extraction. */
struct field_sel {
	uint32_t id;
	uint32_t ftype;
	int is_list;
	char name[FIELD_DECL_NAME_MAX];
	int arg_present;
	char arg_key[FIELD_ARG_MAX]; /* the argument as written */
	uint64_t arg_index;	     /* and as a number, for an index argument */
};

/* Resolves "name" or "name[arg]". 0, or -1 with a message: an unknown
 * field names the closest declared names; a missing, unexpected or
 * malformed argument is named. */
int fieldlist_resolve(const struct field_list *l, const char *spec, struct field_sel *sel, char *err, size_t errlen);

/* Writes up to max names of l closest to name (edit distance), comma
 * separated, into buf. */
void fieldlist_closest(const struct field_list *l, const char *name, int max, char *buf, size_t len);

#endif
