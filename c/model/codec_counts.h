/* model/codec_counts.h — the field list of a cell's counts (--count,
 * model/codec_counts.c), for the cell's record (model/codec.c). */
#ifndef CGOCOST_MODEL_CODEC_COUNTS_H
#define CGOCOST_MODEL_CODEC_COUNTS_H

#include "model/codec_fields.h"
#include "model/model.h"

extern const visit_fn codec_counts_fields; /* struct counts_rec */
/* the document's floor_counts: struct counts_rec[FLOOR_COUNTED], by the
 * floors' keys (c_call, go_raw) */
extern const visit_fn codec_floor_counts_fields;

#endif
