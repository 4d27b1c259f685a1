/* fuzz_fieldlist.c — libFuzzer target for the reading of a plugin's field
 * list (model/codec_fieldlist.c, the plugin_get_fields JSON of any --plugin
 * library, outside input) and the look-ups over it (plugin/fieldlist.c,
 * Go-free): the input is the JSON. In a list it accepts, every field is
 * found by its name, and its name as a --field spec (with an argument where
 * one is required) resolves to a field of that name. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/fieldlist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *json = malloc(size + 1), err[512], spec[FIELD_DECL_NAME_MAX + 8], near[512];
	struct field_list l;
	struct field_sel sel;

	if (json == NULL)
		return 0;
	memcpy(json, data, size);
	json[size] = '\0';
	if (fieldlist_parse(json, &l, err, sizeof(err)) != 0) {
		free(json);
		return 0;
	}
	if (l.n == 0)
		abort();
	for (uint32_t i = 0; i < l.n && i < 64; i++) {
		const struct field_decl *f = &l.fields[i];
		int id = fieldlist_find(&l, f->name);
		if (id < 0 || id > (int)i || strcmp(l.fields[id].name, f->name) != 0 || f->ftype == 0)
			abort();
		if (strchr(f->name, '[') != NULL)
			continue; /* a name a spec cannot say */
		strcpy(spec, f->name);
		if (f->arg_required)
			strcat(spec, "[0]");
		if (fieldlist_resolve(&l, spec, &sel, err, sizeof(err)) == 0 && strcmp(sel.name, f->name) != 0)
			abort();
		fieldlist_closest(&l, f->name, 3, near, sizeof(near));
	}
	fieldlist_free(&l);
	free(json);
	return 0;
}
