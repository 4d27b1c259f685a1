/* model/codec_launch.h — the field lists of one launch's records
 * (model/codec_launch.c), for the document's records that nest them
 * (model/codec.c). */
#ifndef CGOCOST_MODEL_CODEC_LAUNCH_H
#define CGOCOST_MODEL_CODEC_LAUNCH_H

#include "model/codec_fields.h"
#include "model/model.h"

extern const visit_fn codec_machine_fields;	/* struct machine_rec */
extern const visit_fn codec_cell_floors_fields; /* a cell's struct floors_rec */
extern const visit_fn codec_latency_fields;	/* struct latency_rec */
extern const visit_fn codec_library_fields;	/* struct library_rec */
extern const visit_fn codec_launch_fields;	/* struct launch_rec */

#endif
