/* report/markdown.h — the document as markdown. A placeholder on this
 * branch (a heading and the cells' names as a table), enough for
 * --export markdown and its tests; the real writer replaces it. */
#ifndef CGOCOST_REPORT_MARKDOWN_H
#define CGOCOST_REPORT_MARKDOWN_H

#include <stdio.h>

#include "model/model.h"

/* 0, or -1 when a write failed. */
int report_markdown(FILE *out, const struct doc *d);

#endif
