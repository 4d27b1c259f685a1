/* report/json.h — the JSON report: the document, as model/codec.c writes
 * it (docs/schema.json), ASCII, indented by one space or compact. */
#ifndef CGOCOST_REPORT_JSON_H
#define CGOCOST_REPORT_JSON_H

#include <stdio.h>

#include "model/model.h"

/* 0, or -1 when out of memory. */
int report_json(FILE *out, const struct doc *d, int compact);

#endif
