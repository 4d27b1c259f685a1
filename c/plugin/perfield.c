/* plugin/perfield.c — --host-calls per-field: an event's K fields reach the
 * plugin as K calls of one field, the way libsinsp's plugin filter check
 * asks (num_fields = 1, one ss_plugin_extract_field filled per field, the
 * value read right after the call). It stands in for the plugin's
 * extract_fields in the extractor, so every loop (cold call, warm-up,
 * timed batches, paired blocks) and the value check are the batched path's,
 * untouched. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "plugin/extractor.h"

/* The plugin's field types cgocost copies a value of (plugin_api.h). */
#define FTYPE_UINT64  8
#define FTYPE_CHARBUF 9

/* in is always &x->in (extractor_extract passes it; the probe calls the
 * plugin's own function), so x is its owner. */
static ss_plugin_rc per_field_extract(ss_plugin_t *s, const ss_plugin_event_input *evt,
				      const ss_plugin_field_extract_input *in)
{
	struct extractor *x =
		(struct extractor *)(void *)((char *)(void *)(uintptr_t)in - offsetof(struct extractor, in));

	for (uint32_t i = 0; i < in->num_fields; i++) {
		ss_plugin_extract_field *f = &in->fields[i];
		ss_plugin_rc rc;
		x->one = *f;
		x->one.res_len = 0;
		if ((rc = x->plugin_extract(s, evt, &x->one_in)) != SS_PLUGIN_SUCCESS)
			return rc;
		/* the plugin's result buffer may be reused by the next call:
		 * keep the first value, as a host reads it before asking again */
		f->res_len = x->one.res_len;
		f->res = x->one.res;
		if (x->one.res_len == 0 || x->one.flist)
			continue;
		if (x->one.ftype == FTYPE_UINT64) {
			x->kept[i].u64 = x->one.res.u64[0];
			f->res.u64 = &x->kept[i].u64;
		} else if (x->one.ftype == FTYPE_CHARBUF) {
			x->kept[i].str = x->one.res.str[0];
			f->res.str = &x->kept[i].str;
		}
	}
	return SS_PLUGIN_SUCCESS;
}

int extractor_per_field(struct extractor *x, char *err, size_t errlen)
{
	if ((x->kept = calloc(x->nfields, sizeof(*x->kept))) == NULL) {
		snprintf(err, errlen, "out of memory for %u fields", x->nfields);
		return -1;
	}
	x->plugin_extract = x->extract;
	x->extract = per_field_extract;
	x->one_in.num_fields = 1;
	x->one_in.fields = &x->one;
	return 0;
}
