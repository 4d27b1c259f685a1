/* model/codec_options.h — the JSON record of the options in a document
 * (the options that shape a measurement), written and read back from the
 * option table's keys (model/options.h). */
#ifndef CGOCOST_MODEL_CODEC_OPTIONS_H
#define CGOCOST_MODEL_CODEC_OPTIONS_H

#include <stddef.h>

#include <jansson.h>

#include "model/options.h"

/* The options record of a document (the options that shape a measurement). */
json_t *options_to_json(const struct options *o);
/* Reads an options record back; every key checked. 0, or -1 with a message. */
int options_from_json(struct options *o, const json_t *rec, char *err, size_t errlen);

#endif
