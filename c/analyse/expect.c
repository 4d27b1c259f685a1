/* analyse/expect.c — see expect.h. */
#include "analyse/expect.h"

#include <stdio.h>
#include <string.h>

#include "model/cellname.h"

/* One executable in one requested mode and allocator: does base name any of
 * its cells? */
static int variant_meets(const struct options *o, const char *lib, int async, const char *malloc_name,
			 const struct doc *base, char *example, size_t len)
{
	static const char *const lifecycle[] = { "alloc", "reuse" }, *const extract[] = { "extract" };
	const char *const *scen = o->lifecycle ? lifecycle : extract;
	char name[MODEL_NAME_MAX];

	for (int s = 0; s < (o->lifecycle ? 2 : 1); s++)
		for (int fallback = 0; fallback <= async; fallback++) {
			cell_name(name, sizeof(name), lib, async, async && !fallback ? "async" : "sync", scen[s],
				  work_name(o->work), o->plugins, o->fields, malloc_name);
			if (example[0] == '\0')
				snprintf(example, len, "%s", name);
			if (doc_find_cell(base, name))
				return 1;
		}
	return 0;
}

int run_meets_baseline(const struct options *o, const char *self_lib, const struct doc *base, char *example, size_t len)
{
	example[0] = '\0';
	if (base->nratios > 0 && (o->kind == RUN_COMPARE || o->lifecycle))
		return 1;
	if (o->kind == RUN_COMPARE) /* the archive build and its shared sibling, sync and async */
		return variant_meets(o, "archive", 0, o->malloc_name, base, example, len) ||
		       variant_meets(o, "archive", 1, o->malloc_name, base, example, len) ||
		       variant_meets(o, "shared", 0, o->malloc_name, base, example, len) ||
		       variant_meets(o, "shared", 1, o->malloc_name, base, example, len);
	for (int i = 0; i < o->nallocators; i++)
		if (variant_meets(o, self_lib, o->async, o->allocators[i], base, example, len))
			return 1;
	return o->kind != RUN_ALLOCATORS && variant_meets(o, self_lib, o->async, o->malloc_name, base, example, len);
}
