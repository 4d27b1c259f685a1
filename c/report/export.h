/* report/export.h — what one --export FORMAT=FILE asks for, read from its
 * word, and the document rendered in the formats the report layer writes
 * itself (json, gobench, markdown; html is made by cgocost-report from the
 * JSON, cli/exports.c). */
#ifndef CGOCOST_REPORT_EXPORT_H
#define CGOCOST_REPORT_EXPORT_H

#include <stddef.h>
#include <stdio.h>

#include "model/model.h"

enum export_format { EXPORT_JSON = 0, EXPORT_GOBENCH, EXPORT_MARKDOWN, EXPORT_HTML };

struct export_spec {
	enum export_format format;
	const char *file; /* inside the word, after the '='; "-" is stdout */
};

/* Reads "FORMAT=FILE" into e. 0, or -1 with a one-line message naming the
 * word ("--export: 'xml=a' ..."). */
int export_parse(const char *word, struct export_spec *e, char *err, size_t errlen);

/* "json", "gobench", "markdown", "html". */
const char *export_format_name(enum export_format f);

/* Whether e goes to stdout ("-"). */
int export_to_stdout(const struct export_spec *e);

/* The document in format f (not EXPORT_HTML) on out: json as --format json
 * writes it (report/json.h), gobench (report/gobench.h), markdown
 * (report/markdown.h). 0, or -1 (out of memory, or f is html). */
int export_render(FILE *out, enum export_format f, const struct doc *d);

#endif
