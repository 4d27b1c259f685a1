/* model/codec_source.h — the field list of a document's source section
 * (model/source.h), for the document's record (model/codec.c): a
 * section read back is checked (source_check). */
#ifndef CGOCOST_MODEL_CODEC_SOURCE_H
#define CGOCOST_MODEL_CODEC_SOURCE_H

#include "model/codec_fields.h"

extern const visit_fn codec_source_fields; /* struct source_rec */

#endif
