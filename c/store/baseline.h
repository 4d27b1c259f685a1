/* store/baseline.h — the store layer: saved runs. A document is written
 * atomically (temporary file, fsync, rename) and read back through the
 * model's codec, every key checked, so a corrupt, truncated or foreign file
 * is bad input before anything is measured. */
#ifndef CGOCOST_STORE_BASELINE_H
#define CGOCOST_STORE_BASELINE_H

#include <stddef.h>

#include "model/model.h"

#define BASELINE_MAX_BYTES (64u << 20)

/* Writes the analysed document atomically. 0, or -1 with a message. */
int baseline_save(const char *path, const struct doc *d, char *err, size_t errlen);

/* Reads and validates a saved document into d: JSON, this schema version,
 * analysed cells with samples and keys, ratios. 0, or -1 with a message. */
int baseline_load(const char *path, struct doc *d, char *err, size_t errlen);

/* The same checks on a document already read: data[0..len), named path in
 * the messages. Every sample a comparison reads (the cells' samples, the
 * ratios' samples) must be a positive number. */
int baseline_parse(const char *path, const char *data, size_t len, struct doc *d, char *err, size_t errlen);

#endif
