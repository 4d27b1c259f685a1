/* fuzz_fieldspec.c — libFuzzer target for the --field spec parser
 * (plugin/fieldlist.c's fieldlist_resolve, Go-free): the input is the spec
 * (up to its first NUL), resolved against the mock plugin's first fields
 * (its plugin_get_fields JSON) and fields that take an index or a key. What
 * it accepts names a declared field, carries an argument exactly when the
 * field takes one as written, and a numeric index that reads back; what it
 * refuses says why. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/fieldlist.h"

/* the mock's own (build/libmock.so) and four with arguments */
static const char fields_json[] =
	"[{\"name\":\"mock.tid\",\"type\":\"uint64\",\"isList\":false,\"arg\":{\"isRequired\":false,\"isIndex\":false,"
	"\"isKey\":false},\"display\":\"\",\"desc\":\"cgocost mock field\",\"properties\":null},"
	"{\"name\":\"mock.cpu\",\"type\":\"uint64\",\"desc\":\"d\"},{\"name\":\"mock.calls\",\"type\":\"uint64\"},"
	"{\"name\":\"mock.noop.0\",\"type\":\"uint64\"},{\"name\":\"mock.u64.0\",\"type\":\"uint64\"},"
	"{\"name\":\"mock.str.0\",\"type\":\"string\"},{\"name\":\"mock.bare.0\",\"type\":\"uint64\"},"
	"{\"name\":\"mock.event.0\",\"type\":\"uint64\"},{\"name\":\"mock.u64.255\",\"type\":\"uint64\"},"
	"{\"name\":\"x.idx\",\"type\":\"uint64\",\"arg\":{\"isRequired\":true,\"isIndex\":true}},"
	"{\"name\":\"x.optidx\",\"type\":\"uint64\",\"isList\":true,\"arg\":{\"isIndex\":true}},"
	"{\"name\":\"x.key\",\"type\":\"string\",\"arg\":{\"isRequired\":true,\"isKey\":true}},"
	"{\"name\":\"x.either\",\"type\":\"string\",\"arg\":{\"isIndex\":true,\"isKey\":true}}]";

static struct field_list list;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char err[512];
	(void)argc, (void)argv;
	if (fieldlist_parse(fields_json, &list, err, sizeof(err)) != 0) {
		fprintf(stderr, "fuzz_fieldspec: %s\n", err);
		abort();
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = malloc(size + 1), err[1024] = "";
	struct field_sel sel;
	const struct field_decl *f;

	if (spec == NULL)
		return 0;
	memcpy(spec, data, size);
	spec[size] = '\0';
	if (fieldlist_resolve(&list, spec, &sel, err, sizeof(err)) != 0) {
		if (strncmp(err, "--field '", 9) != 0)
			abort();
		free(spec);
		return 0;
	}
	if (sel.id >= list.n)
		abort();
	f = &list.fields[sel.id];
	if (strcmp(sel.name, f->name) != 0 || sel.ftype != f->ftype || sel.is_list != f->is_list)
		abort();
	/* the spec is the name, or the name and [the argument as written] */
	if (strncmp(spec, f->name, strlen(f->name)) != 0 || (!sel.arg_present && strcmp(spec, f->name) != 0))
		abort();
	if (sel.arg_present && (strlen(spec) != strlen(f->name) + strlen(sel.arg_key) + 2 ||
				spec[strlen(f->name)] != '[' || spec[strlen(spec) - 1] != ']'))
		abort();
	if (f->arg_required && !sel.arg_present)
		abort();
	if (sel.arg_present && !f->arg_index && !f->arg_key && !f->arg_required)
		abort();
	if (sel.arg_present && f->arg_index && !f->arg_key) {
		/* an index is decimal digits (leading zeros allowed), no sign, no space */
		if (sel.arg_key[0] == '\0' || strspn(sel.arg_key, "0123456789") != strlen(sel.arg_key) ||
		    strtoull(sel.arg_key, NULL, 10) != sel.arg_index)
			abort();
	}
	free(spec);
	return 0;
}
