/* model/codec_source.c — see codec_source.h. */
#include "model/codec_source.h"

#include "model/source.h"

static void source_fields(struct obj *o, void *rec)
{
	struct source_rec *s = rec;
	char err[256];

	f_strn(o, "commit", s->commit);
	f_strn(o, "commit_time", s->commit_time);
	f_strn(o, "label", s->label);
	if (o->c->dir == READ && !o->c->bad && source_check(s, err, sizeof(err)) != 0)
		codec_failf(o->c, "%s", err);
}

const visit_fn codec_source_fields = source_fields;
